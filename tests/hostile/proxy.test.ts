/**
 * Hostile class: proxy headers. X-Forwarded-For, -Host and -Proto are written
 * by whoever sends the request; the app believes them only as far as it is
 * told to trust proxies (TRUSTED_PROXY_HOPS, AUTH_TRUST_HOST), and never lets
 * a Host header's port or a forwarded host put its own origin into pages,
 * discovery files or emails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'

const ACME = 'acme.localhost'

describe.each(DIALECTS)('hostile proxy headers on %s', (dialect) => {
	describe('with no proxy trusted (the default)', () => {
		let stack: Stack
		const hostile = hostileClass('proxy-headers', dialect)
		beforeAll(async () => {
			stack = await startStack(dialect)
		})
		afterAll(async () => {
			hostile.report()
			await stack?.close()
		})

		const wrongSignIn = (forwardedFor: string) =>
			stack.request(ACME, '/learn/sign-in', {
				method: 'POST',
				body: new URLSearchParams({ email: 'victim@acme.test', password: 'wrong-password' }).toString(),
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					origin: `http://${ACME}:${stack.port}`,
					'x-forwarded-for': forwardedFor,
				},
			})

		it('counts sign-in attempts by the socket address whatever X-Forwarded-For says', async () => {
			const statuses: number[] = []
			for (let i = 0; i < 12; i++) statuses.push((await wrongSignIn(`198.51.100.${i}, 203.0.113.${i}`)).status)
			hostile.check(
				'11th attempt with a new X-Forwarded-For each time',
				statuses[10] === 429 && statuses.slice(0, 10).every((s) => s === 401),
				statuses.join(','),
			)
			expect(hostile.newFailures()).toEqual([])
		})

		it('keeps the webhook limit to the sender, so another client cannot spend it', async () => {
			// 60 a minute per address: an attacker's spoofed X-Forwarded-For spends only the attacker's own (socket) budget.
			const webhook = (forwardedFor?: string) =>
				stack.request(ACME, '/api/cms/revalidate', {
					method: 'POST',
					body: '{"tag":"course:x"}',
					headers: {
						'content-type': 'application/json',
						authorization: 'Bearer wrong',
						...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
					},
				})
			let last = 0
			for (let i = 0; i < 61; i++) last = (await webhook(`192.0.2.${i}`)).status
			hostile.check('61st webhook call with spoofed addresses is limited', last === 429, `${last}`)
			expect(hostile.newFailures()).toEqual([])
		})

		it('ignores X-Forwarded-Host and -Proto, and keeps the Host port out of every absolute URL', async () => {
			const forwarded = await stack.request(ACME, '/learn', {
				headers: { 'x-forwarded-host': 'globex.localhost', 'x-forwarded-proto': 'https' },
			})
			hostile.check('X-Forwarded-Host ignored', forwarded.text.includes('Acme') && !forwarded.text.includes('Globex'))
			hostile.check('X-Forwarded-Proto ignored', forwarded.headers['strict-transport-security'] === undefined)
			for (const path of [
				'/learn',
				'/learn/course/intro-to-web',
				'/blog/welcome',
				'/',
				'/robots.txt',
				'/sitemap.xml',
				'/llms.txt',
				'/.well-known/security.txt',
				'/learn/course/intro-to-web.md',
			]) {
				// The poisoning request first, then what everyone else gets (from the page cache where it applies).
				const poisoned = await stack.request(ACME, path, { headers: { host: `${ACME}:31337` } })
				const after = await stack.request(ACME, path)
				for (const [label, res] of [
					['poisoning request', poisoned],
					['next visitor', after],
				] as const) {
					hostile.check(`${path} ${label}`, res.status < 500 && !res.text.includes('31337'), `${res.status}`)
				}
			}
			// A password-reset mail asked for through a foreign port links to the site's own origin.
			await stack.request(ACME, '/learn/forgot', {
				method: 'POST',
				body: new URLSearchParams({ email: 'learner@acme.test' }).toString(),
				headers: {
					host: `${ACME}:31337`,
					'content-type': 'application/x-www-form-urlencoded',
					origin: `http://${ACME}:31337`,
				},
			})
			const mails = stack.mail.messages.filter((m) => m.to === 'learner@acme.test')
			hostile.check('cross-site post from a foreign port is refused', mails.length === 0)
			await stack.request(ACME, '/learn/forgot', {
				method: 'POST',
				body: new URLSearchParams({ email: 'learner@acme.test' }).toString(),
				headers: { host: `${ACME}:31337`, 'content-type': 'application/x-www-form-urlencoded' },
			})
			const mail = await stack.mail.waitFor('learner@acme.test')
			hostile.check(
				'reset link origin',
				// The site's own origin: Acme's custom domain, which the demo marks live (decision 0062).
				mail.text.includes(`http://learn.acme.test:${stack.port}/learn/reset/`) && !mail.text.includes('31337'),
				mail.text.slice(0, 200),
			)
			expect(hostile.newFailures()).toEqual([])
		})
	})

	describe('behind one trusted proxy (TRUSTED_PROXY_HOPS=1, AUTH_TRUST_HOST=true)', () => {
		let stack: Stack
		const hostile = hostileClass('proxy-headers-trusted', dialect)
		beforeAll(async () => {
			stack = await startStack(dialect, { TRUSTED_PROXY_HOPS: '1', AUTH_TRUST_HOST: 'true' })
		})
		afterAll(async () => {
			hostile.report()
			await stack?.close()
		})

		it('takes the address the proxy saw, not what the client wrote before it', async () => {
			const attempt = (forwardedFor: string, email = 'victim@acme.test') =>
				stack.request(ACME, '/learn/sign-in', {
					method: 'POST',
					body: new URLSearchParams({ email, password: 'wrong-password' }).toString(),
					headers: {
						'content-type': 'application/x-www-form-urlencoded',
						origin: `http://${ACME}:${stack.port}`,
						'x-forwarded-for': forwardedFor,
					},
				})
			// The client varies what it writes; the proxy appends the same real address each time.
			const statuses: number[] = []
			for (let i = 0; i < 11; i++) statuses.push((await attempt(`10.9.8.${i}, 198.51.100.7`)).status)
			hostile.check('spoofed leftmost values do not reset the limit', statuses[10] === 429, statuses.join(','))
			// Another real client behind the same proxy has a budget of its own.
			hostile.check('another client is not locked out', (await attempt('198.51.100.8')).status === 401)
			// Garbage where the proxy's value should be is not a key of its own.
			const garbage: number[] = []
			for (let i = 0; i < 11; i++) garbage.push((await attempt(`not-an-address-${i}`, 'other@acme.test')).status)
			hostile.check('non-addresses fall back to the peer', garbage[10] === 429, garbage.join(','))
			expect(hostile.newFailures()).toEqual([])
		})

		it('takes the host name from X-Forwarded-Host but scheme and port from configuration', async () => {
			const res = await stack.request('proxy.internal', '/learn/course/intro-to-web', {
				headers: {
					host: 'proxy.internal:8080',
					'x-forwarded-host': `evil.test, ${ACME}:31337`,
					'x-forwarded-proto': 'https',
				},
			})
			hostile.check(
				'forwarded host resolves the tenant',
				res.status === 200 && res.text.includes('Introduction to the Web'),
				`${res.status}`,
			)
			hostile.check(
				'no forwarded port or earlier value in the page',
				!res.text.includes('31337') && !res.text.includes('evil.test'),
			)
			hostile.check(
				'alternates on the configured scheme and port, at the tenant’s canonical host (its custom domain)',
				res.text.includes(`href="http://learn.acme.test:${stack.port}/es/learn/course/intro-to-web"`),
			)
			const unknown = await stack.request(ACME, '/learn', { headers: { 'x-forwarded-host': 'evil.test' } })
			hostile.check('unknown forwarded host', unknown.status === 404, `${unknown.status}`)
			// A sign-in through the proxy still works (Origin is the configured origin).
			const b = stack.browser(ACME)
			const signIn = await b.post(
				'/learn/sign-in',
				{ email: 'learner@acme.test', password: DEMO_PASSWORD },
				{ 'x-forwarded-for': '198.51.100.99' },
			)
			hostile.check('sign-in through the proxy', signIn.status === 302, `${signIn.status}`)
			expect(hostile.newFailures()).toEqual([])
		})
	})
})
