import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TENANTS_TAG } from '#app/platform/tenant.server.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS, testEnv } from '#tests/support/env.ts'
import { request } from '#tests/support/http.ts'
import { loadBuiltServer, startStack, type Stack } from '#tests/support/stack.ts'

const secretValues = Object.values(TEST_SECRETS)

function expectNoInternals(text: string, stack: Stack) {
	for (const secret of secretValues) expect(text).not.toContain(secret)
	expect(text).not.toContain(stack.cms.url)
	expect(text).not.toMatch(/\bat .+\.(js|ts):\d+/)
	expect(text).not.toMatch(/ContentUnavailable|ECONNREFUSED|SQLITE_|postgres/i)
}

describe.each(DIALECTS)('the app over HTTP on %s', (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(() => stack?.close())

	it('answers the health probe from the database', async () => {
		const res = await stack.request('localhost', '/api/health')
		expect(res.status).toBe(200)
		expect(res.json()).toEqual({ status: 'ok', database: 'up' })
		expect(res.headers['cache-control']).toBe('no-store')
	})

	it("lists a tenant's published, listed courses on /learn", async () => {
		const res = await stack.request('acme.localhost', '/learn')
		expect(res.status).toBe(200)
		expect(res.headers['content-type']).toMatch(/^text\/html/)
		expect(res.text).toContain('Introduction to the Web')
		expect(res.text).toContain('Advanced CSS')
		expect(res.text).toContain('$49.00')
		expect(res.text).toContain('href="/learn/course/intro-to-web"')
		expect(res.text).not.toContain('Draft course')
		expect(res.text).not.toContain('Retired course')
		expect(res.text).toContain('Acme Academy')
		expectNoInternals(res.text, stack)
	})

	it('serves the same tenant on its custom domain', async () => {
		const res = await stack.request('learn.acme.test', '/learn')
		expect(res.status).toBe(200)
		expect(res.text).toContain('Introduction to the Web')
	})

	it('keeps each tenant to its own content', async () => {
		const res = await stack.request('globex.localhost', '/learn')
		expect(res.status).toBe(200)
		expect(res.text).toContain('Globex onboarding')
		expect(res.text).not.toContain('Introduction to the Web')
		expect(res.text).toContain('Globex University')
	})

	it('shows the public platform page on the apex and www hosts', async () => {
		for (const host of ['localhost', 'www.localhost']) {
			const res = await stack.request(host, '/')
			expect(res.status).toBe(200)
			expect(res.text).toContain('Open LMS')
			expect(res.text).toContain('yourschool.')
		}
		expect((await stack.request('localhost', '/learn')).status).toBe(404)
	})

	it('answers 404 to an unknown host, as HTML for pages and the error envelope for the API', async () => {
		for (const host of ['nope.localhost', 'example.com', 'a.acme.localhost']) {
			const page = await stack.request(host, '/learn')
			expect(page.status, host).toBe(404)
			expect(page.text).toContain('Site not found')
		}
		const api = await stack.request('nope.localhost', '/api/health')
		expect(api.status).toBe(404)
		expect(api.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' })
	})

	it('answers the branded 503 for a suspended tenant on every path, before any routing', async () => {
		for (const path of ['/', '/learn', '/learn/sign-in', '/admin']) {
			const res = await stack.request('initech.localhost', path)
			expect(res.status, path).toBe(503)
			expect(res.text).toContain('Initech Learning')
			expect(res.text).toContain('temporarily unavailable')
			expect(res.headers['cache-control']).toBe('no-store')
			expect(res.headers['set-cookie']).toBeUndefined()
		}
		// Under /api/ the same refusal is the JSON envelope, as every other error there.
		const api = await stack.request('initech.localhost', '/api/health')
		expect(api.status).toBe(503)
		expect(api.json()).toEqual({ error: 'This site is temporarily unavailable', code: 'SERVICE_UNAVAILABLE' })
	})

	it('negotiates the locale from Accept-Language and asks the content service for it', async () => {
		const res = await stack.request('acme.localhost', '/learn', { headers: { 'accept-language': 'es-ES,es;q=0.9' } })
		expect(res.status).toBe(200)
		expect(res.text).toContain('<html lang="es"')
		expect(res.text).toContain('Introducción a la Web')
	})

	it('answers a branded 503 without internals when the content service fails and nothing was cached', async () => {
		const control = (body: object) =>
			fetch(`${stack.cms.url}/_control`, {
				method: 'POST',
				headers: { 'x-api-key': TEST_SECRETS.CMS_API_UUID },
				body: JSON.stringify(body),
			})
		await control({ mode: 'error' })
		try {
			const res = await stack.request('acme.localhost', '/learn/course/advanced-css')
			expect(res.status).toBe(503)
			expect(res.text).toContain('Temporarily unavailable')
			expectNoInternals(res.text, stack)
			// A page read before the failure is still served from its last good content.
			expect((await stack.request('acme.localhost', '/learn')).status).toBe(200)
		} finally {
			await control({ mode: 'ok' })
		}
	})

	it('sets baseline security headers, and HSTS only over https', async () => {
		const res = await stack.request('acme.localhost', '/learn')
		expect(res.headers['x-content-type-options']).toBe('nosniff')
		expect(res.headers['x-frame-options']).toBe('DENY')
		expect(res.headers['strict-transport-security']).toBeUndefined()
	})

	it('sends a Content-Security-Policy with a fresh nonce on every rendered page', async () => {
		const b = stack.browser('acme.localhost')
		// A staff page: it hydrates, so React Router writes inline scripts (learner pages ship none, decision 0106).
		await b.post('/learn/sign-in', { email: 'admin@acme.test', password: DEMO_PASSWORD })
		const nonces = new Set<string>()
		for (let i = 0; i < 2; i++) {
			const res = await b.get('/admin')
			expect(res.status).toBe(200)
			const policy = String(res.headers['content-security-policy'])
			for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "default-src 'self'"])
				expect(policy).toContain(directive)
			const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'(;|$)/.exec(policy)?.[1]
			expect(nonce, policy).toBeTruthy()
			nonces.add(nonce!)
			const scripts = [...res.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1])
			expect(scripts.length).toBeGreaterThan(0)
			for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`)
		}
		expect(nonces.size).toBe(2)
	})

	// Pages from the page cache are HTML-only by the JavaScript policy; were one to ship inline scripts,
	// their hashes would replace the nonce (app/platform/csp.test.ts).
	it('lists the hashes of the inline scripts, and no nonce, on pages from the page cache', async () => {
		for (const state of ['miss', 'hit']) {
			const res = await stack.request('acme.localhost', '/blog')
			expect(res.headers['x-page-cache']).toBe(state)
			const policy = String(res.headers['content-security-policy'])
			expect(policy).not.toContain('nonce-')
			expect(res.text).not.toContain('nonce=')
			const inline = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
				([, attrs, body]) => !attrs.includes('src=') && body,
			)
			const listed = [...policy.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]).sort()
			expect(listed).toEqual(
				[...new Set(inline.map(([, , body]) => createHash('sha256').update(body).digest('base64')))].sort(),
			)
			for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
				expect(policy).toContain(directive)
		}
	})

	// A hit is answered before the entry's steps (server/handle.ts answerFromCache, decision 0078): the
	// same bytes as through them, and nothing the steps would answer otherwise.
	it('answers a page-cache hit the same before the entry steps as through them', async () => {
		await stack.request('globex.localhost', '/blog')
		const answers = await Promise.all(
			// No cookie and a cookie of no meaning here take the short way; a locale cookie the long way.
			[undefined, 'theme=dark', 'lms_locale=en'].map((cookie) =>
				stack.request('globex.localhost', '/blog', { headers: cookie ? { cookie } : {} }),
			),
		)
		const [first] = answers
		expect(first.headers['x-page-cache']).toBe('hit')
		for (const res of answers) {
			expect(res.status).toBe(200)
			expect({ ...res.headers, date: undefined }).toEqual({ ...first.headers, date: undefined })
			expect(res.body.equals(first.body)).toBe(true)
		}
	})

	it('refuses over a cached page what the entry steps refuse: a body over the limit, a suspended tenant', async () => {
		await stack.request('globex.localhost', '/blog')
		expect((await stack.request('globex.localhost', '/blog')).headers['x-page-cache']).toBe('hit')
		const big = await stack.request('globex.localhost', '/blog', { body: 'x'.repeat(1024 * 1024 + 1) })
		expect(big.status).toBe(413)
		// Suspended: the host's next resolution says so (the write moves the tenants tag), and so does every one it stays cached for.
		await stack.db.orm
			.update(stack.db.t.tenants)
			.set({ status: 'suspended' })
			.where(eq(stack.db.t.tenants.slug, 'globex'))
		stack.tags.revalidate([TENANTS_TAG])
		try {
			for (let i = 0; i < 2; i++) expect((await stack.request('globex.localhost', '/blog')).status).toBe(503)
		} finally {
			await stack.db.orm
				.update(stack.db.t.tenants)
				.set({ status: 'active' })
				.where(eq(stack.db.t.tenants.slug, 'globex'))
			stack.tags.revalidate([TENANTS_TAG])
		}
		expect((await stack.request('globex.localhost', '/blog')).status).toBe(200)
	})

	it('keeps token URLs out of Referer headers', async () => {
		const token = await stack.request('acme.localhost', '/learn/reset/not-a-real-token')
		expect(token.headers['referrer-policy']).toBe('no-referrer')
		expect(token.text).not.toMatch(/<meta name="referrer"/)
		expect((await stack.request('acme.localhost', '/learn')).headers['referrer-policy']).toBe(
			'strict-origin-when-cross-origin',
		)
	})

	it('answers 413 to bodies over 1 MB before reading them: a page for forms, the envelope for the API', async () => {
		const big = 'x'.repeat(1024 * 1024 + 1)
		const headers = {
			'content-type': 'application/x-www-form-urlencoded',
			origin: `http://acme.localhost:${stack.port}`,
		}
		const form = await stack.request('acme.localhost', '/learn/sign-in', {
			method: 'POST',
			body: `email=${big}`,
			headers,
		})
		expect(form.status).toBe(413)
		expect(form.text).toContain('Too much data')
		const api = await stack.request('acme.localhost', '/api/cms/revalidate', {
			method: 'POST',
			body: big,
			headers: { 'content-type': 'application/json' },
		})
		expect(api.status).toBe(413)
		expect(api.json()).toEqual({ error: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' })
		// A chunked upload cannot slip past the limit: it is refused outright.
		const chunked = await stack.request('acme.localhost', '/api/cms/revalidate', {
			method: 'POST',
			body: '{}',
			headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
		})
		expect(chunked.status).toBe(411)
	})
})

describe.each(DIALECTS)('behind a proxy that terminates https, on %s', (dialect) => {
	it('sends Strict-Transport-Security and a __Host- session cookie with Secure, HttpOnly and SameSite=Lax', async () => {
		// The proxy's public origin is AUTH_URL (spec: the origin the browser uses); it forwards the host it was asked for.
		const stack = await startStack(dialect, {
			AUTH_URL: 'https://localhost',
			AUTH_TRUST_HOST: 'true',
			TRUSTED_PROXY_HOPS: '1',
		})
		try {
			const res = await stack.request('acme.localhost', '/learn', {
				headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'acme.localhost' },
			})
			expect(res.status).toBe(200)
			expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
			expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/lms_session=/)
			// Over https the session cookie is __Host- prefixed: Secure, Path=/, no Domain, HttpOnly, SameSite=Lax.
			const signIn = await stack.request('acme.localhost', '/learn/sign-in', {
				method: 'POST',
				body: new URLSearchParams({ email: 'learner@acme.test', password: DEMO_PASSWORD }).toString(),
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					origin: 'https://acme.localhost',
					'x-forwarded-proto': 'https',
					'x-forwarded-host': 'acme.localhost',
				},
			})
			expect(signIn.status).toBe(302)
			const cookie = [signIn.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('__Host-lms_session='))
			expect(cookie).toBeTruthy()
			const attributes = cookie!
				.split(';')
				.slice(1)
				.map((a) => a.trim().toLowerCase())
			expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=lax']))
			expect(attributes.some((a) => a.startsWith('domain='))).toBe(false)
		} finally {
			await stack.close()
		}
	})
})

describe('with the database unreachable', () => {
	it('answers 503 on the health probe and on tenant pages, with no internals', async () => {
		const { listen } = await loadBuiltServer()
		const env = testEnv({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unreachable' })
		const app = await listen({ env, port: 0, host: '127.0.0.1' })
		try {
			const health = await request(app.port, 'localhost', '/api/health')
			expect(health.status).toBe(503)
			expect(health.json()).toEqual({ error: 'Database unreachable', code: 'SERVICE_UNAVAILABLE' })
			const page = await request(app.port, 'acme.localhost', '/learn')
			expect(page.status).toBe(503)
			expect(page.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:1|postgres/i)
			const api = await request(app.port, 'acme.localhost', '/api/health')
			expect(api.status).toBe(503)
			expect(api.json().code).toBe('SERVICE_UNAVAILABLE')
		} finally {
			await app.close()
		}
	})
})
