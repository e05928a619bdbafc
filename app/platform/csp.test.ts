import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, hashInlineScripts } from './csp.ts'

const sha = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`

describe('hashInlineScripts', () => {
	it('replaces the nonce with the hashes of the inline scripts, so no nonce is served twice', () => {
		const html =
			'<script nonce="abc">window.a=1</script><script nonce="abc" type="module" src="/assets/x.js"></script><script nonce="abc">window.b=2</script><script nonce="abc"></script>'
		const { html: out, policy } = hashInlineScripts(html, contentSecurityPolicy("'nonce-abc'"))
		expect(out).not.toContain('nonce')
		expect(policy).not.toContain('nonce-')
		expect(policy).toContain(`script-src 'self' ${sha('window.a=1')} ${sha('window.b=2')};`)
	})

	it('leaves a page without a nonce as it is', () => {
		const policy = contentSecurityPolicy('')
		expect(hashInlineScripts('<p>hi</p>', policy)).toEqual({ html: '<p>hi</p>', policy })
	})
})
