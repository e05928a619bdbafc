import { describe, expect, it } from 'vitest'
import { issuerAllowed } from './oidc.server.ts'

describe('which issuers a tenant admin may connect', () => {
	it('takes https issuers, and plain http only on loopback outside production', () => {
		const production = { NODE_ENV: 'production' as const }
		const test = { NODE_ENV: 'test' as const }
		expect(issuerAllowed(production, 'https://login.microsoftonline.com/abc/v2.0')).toBe(true)
		expect(issuerAllowed(production, 'http://127.0.0.1:4000')).toBe(false)
		expect(issuerAllowed(test, 'http://127.0.0.1:4000')).toBe(true)
		expect(issuerAllowed(test, 'http://10.0.0.5')).toBe(false)
		expect(issuerAllowed(test, 'http://idp.example.com')).toBe(false)
	})

	it('refuses credentials, queries, fragments, other schemes and non-URLs', () => {
		const env = { NODE_ENV: 'production' as const }
		for (const bad of [
			'https://user:pass@idp.example.com',
			'https://idp.example.com/?x=1',
			'https://idp.example.com/#x',
			'file:///etc/passwd',
			'javascript:alert(1)',
			'not a url',
		])
			expect(issuerAllowed(env, bad), bad).toBe(false)
	})
})
