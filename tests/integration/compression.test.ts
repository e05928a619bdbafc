import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import type { TestResponse } from '#tests/support/http.ts'

const ACME = 'acme.localhost'
const BROWSER = 'gzip, deflate, br'

function decoded(res: TestResponse) {
	const encoding = res.headers['content-encoding']
	return (
		encoding === 'br' ? brotliDecompressSync(res.body) : encoding === 'gzip' ? gunzipSync(res.body) : res.body
	).toString('utf8')
}

/** What crosses the wire: every text answer compressed as the client asked, nothing else touched. */
describe.each(DIALECTS)('compression on %s', (dialect) => {
	let stack: Stack
	let cookie: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		const b = stack.browser(ACME)
		await b.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })
		cookie = b.cookieHeader()
	})
	afterAll(() => stack?.close())

	it('compresses a signed-in (uncached) page with brotli, the same page as sent plain, its length declared', async () => {
		const plain = await stack.request(ACME, '/learn/dashboard', { headers: { cookie } })
		const br = await stack.request(ACME, '/learn/dashboard', { headers: { cookie, 'accept-encoding': BROWSER } })
		expect(plain.headers['content-encoding']).toBeUndefined()
		expect(br.headers['content-encoding']).toBe('br')
		expect(br.headers.vary).toMatch(/Accept-Encoding/)
		// Rendered in one go, it is compressed in one call (decision 0107): no chunked stream, and the
		// ratio of the level chosen (decision 0102). A render that pauses streams, flushed at its pauses
		// (server/compression.test.ts).
		expect(br.headers['content-length']).toBe(String(br.body.length))
		expect(br.body.length).toBeLessThan(plain.body.length / 2)
		expect(br.body.length).toBeLessThan(
			brotliCompressSync(plain.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length * 1.1,
		)
		// Dynamic parts (nonces) differ between two renders; the document around them does not.
		const strip = (html: string) => html.replace(/nonce="[^"]*"/g, '')
		expect(strip(decoded(br))).toBe(strip(plain.text))
	})

	it('honours q-values: gzip when brotli is ranked lower, identity when both are refused', async () => {
		const gz = await stack.request(ACME, '/learn/dashboard', {
			headers: { cookie, 'accept-encoding': 'br;q=0.5, gzip;q=1' },
		})
		expect(gz.headers['content-encoding']).toBe('gzip')
		expect(decoded(gz)).toContain('</html>')
		const none = await stack.request(ACME, '/learn/dashboard', {
			headers: { cookie, 'accept-encoding': 'br;q=0, gzip;q=0' },
		})
		expect(none.headers['content-encoding']).toBeUndefined()
		expect(none.text).toContain('</html>')
		const star = await stack.request(ACME, '/learn/dashboard', { headers: { cookie, 'accept-encoding': 'br;q=0, *' } })
		expect(star.headers['content-encoding']).toBe('gzip')
	})

	it('compresses YAML, JSON and text answers but not tiny ones', async () => {
		for (const path of ['/openapi.yaml', '/llms-full.txt', '/sitemap.xml']) {
			const res = await stack.request(ACME, path, { headers: { 'accept-encoding': BROWSER } })
			expect(res.status, path).toBe(200)
			expect(res.headers['content-encoding'], path).toBe('br')
		}
		const tiny = await stack.request(ACME, '/api/health/live', { headers: { 'accept-encoding': BROWSER } })
		expect(tiny.status).toBe(200)
		expect(tiny.body.length).toBeLessThan(1024)
		expect(tiny.headers['content-encoding']).toBeUndefined()
	})

	it('serves the build-time brotli and gzip copies of client assets by the negotiated encoding', async () => {
		const page = await stack.request(ACME, '/learn/dashboard', { headers: { cookie } })
		const script = /(\/assets\/[^"]+\.css)"/.exec(page.text)![1]
		const plain = await stack.request(ACME, script)
		const br = await stack.request(ACME, script, { headers: { 'accept-encoding': BROWSER } })
		expect(br.headers['content-encoding']).toBe('br')
		expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
		// The static handler matches names as substrings; "br;q=0" must not earn brotli.
		const gz = await stack.request(ACME, script, { headers: { 'accept-encoding': 'br;q=0, gzip' } })
		expect(gz.headers['content-encoding']).toBe('gzip')
		expect(gunzipSync(gz.body).equals(plain.body)).toBe(true)
	})

	it('leaves already-compressed media and answers without a body alone', async () => {
		const icon = await stack.request(ACME, '/icon.png', { headers: { 'accept-encoding': BROWSER } })
		expect(icon.status).toBe(200)
		expect(icon.headers['content-encoding']).toBeUndefined()
		const head = await stack.request(ACME, '/openapi.yaml', { method: 'HEAD', headers: { 'accept-encoding': BROWSER } })
		expect(head.headers['content-encoding']).toBeUndefined()
	})
})
