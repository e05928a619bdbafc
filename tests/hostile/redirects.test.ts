/**
 * Hostile class: redirect targets taken from input. Each shape of a known open
 * redirect bypass goes through every place that redirects to a target from
 * input: sign-in's callbackUrl (posted, and signed-in GET in two locales), the
 * locale switcher's redirectTo, the external sign-in's return path, and the
 * request target itself (the server entry's normalisation redirect). Every
 * Location is resolved as the browser resolves it and must stay on the page's
 * origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { REDIRECT_CORPUS } from './corpus.ts'
import { hostileClass, staysOnOrigin } from './support.ts'

const ACME = 'acme.localhost'

describe.each(DIALECTS)('hostile redirect targets on %s', (dialect) => {
	let stack: Stack
	const hostile = hostileClass('redirects', dialect)
	// Each case signs in from its own address (behind one trusted proxy) so the sign-in limit of 10 does not end the run.
	let address = 0
	const nextAddress = () => `203.0.${Math.floor(address / 250)}.${(address++ % 250) + 1}`
	beforeAll(async () => {
		stack = await startStack(dialect, { TRUSTED_PROXY_HOPS: '1' })
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	it(`has at least 50 bypass shapes (${REDIRECT_CORPUS.length})`, () => {
		expect(REDIRECT_CORPUS.length).toBeGreaterThanOrEqual(50)
	})

	it('keeps every Location on the page origin, whatever the target', async () => {
		const page = (path: string) => `http://${ACME}:${stack.port}${path}`
		const signedIn = stack.browser(ACME)
		expect(
			(
				await signedIn.post(
					'/learn/sign-in',
					{ email: 'learner@acme.test', password: DEMO_PASSWORD },
					{ 'x-forwarded-for': nextAddress() },
				)
			).status,
		).toBe(302)
		const location = (res: { headers: Record<string, unknown> }) => String(res.headers.location ?? '')

		for (const target of REDIRECT_CORPUS) {
			const shown = JSON.stringify(target).slice(0, 60)
			// 1. Sign-in posted with callbackUrl.
			const b = stack.browser(ACME)
			const posted = await b.post(
				'/learn/sign-in',
				{ email: 'learner@acme.test', password: DEMO_PASSWORD, callbackUrl: target },
				{ 'x-forwarded-for': nextAddress() },
			)
			hostile.check(
				`sign-in post ${shown}`,
				posted.status === 302 && staysOnOrigin(location(posted), page('/learn/sign-in')),
				`${posted.status} → ${location(posted)}`,
			)

			// 2. Signed-in GET of the sign-in page, unprefixed and under a locale prefix.
			for (const path of ['/learn/sign-in', '/es/learn/sign-in']) {
				const res = await signedIn.get(`${path}?callbackUrl=${encodeURIComponent(target)}`)
				hostile.check(
					`signed-in GET ${path} ${shown}`,
					res.status === 302 && staysOnOrigin(location(res), page(path)),
					`${res.status} → ${location(res)}`,
				)
			}

			// 3. The locale switcher, to the default locale (no prefix) and to another.
			for (const locale of ['en', 'fr']) {
				const switched = await stack.browser(ACME).post('/learn/locale', { locale, redirectTo: target })
				hostile.check(
					`locale switcher to ${locale} ${shown}`,
					switched.status === 303 && staysOnOrigin(location(switched), page('/learn')),
					`${switched.status} → ${location(switched)}`,
				)
			}

			// 4. The external sign-in's return path: remembered only as a path of this origin.
			const started = await stack.browser(ACME).post('/api/auth/google', { callbackUrl: target })
			const remembered = ([] as string[])
				.concat(started.headers['set-cookie'] ?? [])
				.find((c) => c.startsWith('lms_oauth_next='))
			const value = remembered
				? JSON.parse(Buffer.from(decodeURIComponent(remembered.split(';')[0].split('=')[1]), 'base64').toString('utf8'))
				: null
			hostile.check(
				`external sign-in return ${shown}`,
				value === null || (typeof value === 'string' && staysOnOrigin(value, page('/api/auth/callback/google'))),
				`remembered ${JSON.stringify(value)}`,
			)

			// 5. The request target itself, where Node lets it through: the normalisation redirect stays here.
			if (target.startsWith('/') && !/[\u0000-\u0020\u007f-\uffff]/.test(target)) {
				const res = await stack.request(ACME, target)
				const ok = res.status < 300 || res.status >= 400 || staysOnOrigin(location(res), page('/'))
				hostile.check(`request target ${shown}`, ok, `${res.status} → ${location(res)}`)
			}
		}
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)
	// React Router's data requests (JavaScript on) reach the same loaders as `/x.data?_routes=…`; the page the
	// person comes back to after signing in is the page's own URL, never the transport's.
	it.each([
		['/learn/course/intro-to-web/enroll.data', '/learn/course/intro-to-web/enroll'],
		['/learn/dashboard.data?_routes=routes%2Flearn.dashboard', '/learn/dashboard'],
		[
			'/es/learn/course/intro-to-web/entry/what-is-http.data?x=1',
			'/es/learn/course/intro-to-web/entry/what-is-http?x=1',
		],
		['/admin/_.data', '/admin'],
		['/admin/users.data?index', '/admin/users'],
	])('sends a visitor of %s to sign in with callbackUrl %s', async (requested, page) => {
		const res = await stack.request(ACME, requested)
		const body = res.text
		const sent =
			/callbackUrl=([^"\\]+)/.exec(body)?.[1] ?? /callbackUrl=([^&]+)/.exec(String(res.headers.location ?? ''))?.[1]
		expect(sent, body).toBeDefined()
		expect(decodeURIComponent(sent!)).toBe(page)
	})
})
