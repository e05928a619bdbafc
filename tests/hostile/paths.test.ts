/**
 * Hostile class: path normalisation. The server entry takes path-based
 * decisions (a suspended tenant's passthrough, no-referrer on token pages,
 * the JSON envelope under /api/, the webhook's exemption from the cross-site
 * check, the page cache) before React Router routes the request. Each real
 * path is respelled (dot segments, encoded dots and letters, doubled and
 * trailing slashes, backslashes, case, React Router's `.data` suffix) and
 * every spelling must get the decision its canonical path gets: a GET is
 * redirected to the canonical path, anything else refused, a spelling the
 * router would not route is not served, and no rule is bypassed.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueToken } from '#app/accounts/tokens.server.ts'
import { findUserByEmail } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { normalPath, pagePathOf } from '#server/request-target.ts'
import { hostileClass, staysOnOrigin } from './support.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const SUSPENDED = 'initech.localhost'

/** Node's HTTP parser itself answers 400 to a request target that is not origin-form (`\\learn`): it never reaches the app. */
const refusedByNode = (spelling: string, status: number) => spelling.startsWith('\\') && status === 400

/** Other spellings of a path: what a client can send that a URL parser, or React Router, reads as the same route. */
export function respellings(path: string): string[] {
	const segments = path.split('/').slice(1)
	const last = segments.length - 1
	const spell = (f: (s: string, i: number) => string) => `/${segments.map(f).join('/')}`
	return [
		`${path}/`,
		`${path}//`,
		`/${path}`,
		path.replace(/\//g, '//'),
		path.replace(/\//g, '\\'),
		`/.${path}`,
		`${path}/.`,
		`/x/..${path}`,
		`${path}/x/..`,
		`/%2e${path}`,
		`/x/%2e%2e${path}`,
		`/x/%2E%2E${path}`,
		`${path}/%2e`,
		spell((s, i) => (i === 0 ? s.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`) : s)),
		spell((s, i) => (i === last ? s.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : s)),
		path.toUpperCase(),
		spell((s, i) => (i === 0 ? s.charAt(0).toUpperCase() + s.slice(1) : s)),
		`${path};x`,
	]
}

describe.each(DIALECTS)('hostile path spellings on %s', (dialect) => {
	let stack: Stack
	let resetToken: string
	let inviteLike: string
	const hostile = hostileClass('paths', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		const acme = (await findTenantBySlug(stack.db, 'acme'))!
		const learner = (await findUserByEmail(stack.db, acme.id, 'learner@acme.test'))!
		resetToken = await issueToken(stack.db, learner.id, 'password_reset')
		inviteLike = 'A'.repeat(43)
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	it('normalises to a fixed point: the canonical form of a canonical path is itself', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: fc.constantFrom('/', '.', '%', '2', 'e', 'E', '5', 'c', 'a', '\\', 'A', '~', 'f', 'F') }),
				(tail) => {
					const once = normalPath(`/${tail}`)
					if (once === null) return true
					hostile.check(
						`fixed point /${tail}`,
						normalPath(once) === once && once.startsWith('/') && !once.startsWith('//'),
						`${once} → ${normalPath(once)}`,
					)
					return true
				},
			),
			{ numRuns: 500 },
		)
		expect(hostile.newFailures()).toEqual([])
	})

	it('redirects every other spelling of a GET to the canonical path, and refuses it for other methods', async () => {
		const paths = [
			'/learn',
			'/learn/sign-in',
			`/learn/reset/${resetToken}`,
			'/api/health',
			'/api/cms/revalidate',
			'/.well-known/security.txt',
			'/admin/users',
			'/es/learn/course/intro-to-web',
			'/blog/welcome',
		]
		for (const path of paths) {
			for (const spelling of respellings(path)) {
				const res = await stack.request(ACME, spelling)
				const location = String(res.headers.location ?? '')
				const canonical = normalPath(spelling.split('?')[0])
				// Case is not normalised (tokens are case-sensitive): such a spelling is simply no route (404).
				// A spelling that is already a normal form of its own (`;x`) is another resource.
				const ok =
					spelling === path ||
					canonical === spelling ||
					refusedByNode(spelling, res.status) ||
					(res.status === 308 && location === canonical && staysOnOrigin(location, `http://${ACME}/`)) ||
					(res.status === 404 && canonical !== path)
				hostile.check(`GET ${spelling}`, ok, `${res.status} → ${location}`)
				const post = await stack.request(ACME, spelling, {
					method: 'POST',
					body: 'x=1',
					headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${ACME}:${stack.port}` },
				})
				hostile.check(
					`POST ${spelling}`,
					spelling === path || post.status === 400 || post.status === 404 || post.status === 405,
					`${post.status}`,
				)
			}
		}
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it("keeps a suspended tenant's pages behind the 503 however the passthrough paths are spelled", async () => {
		const passthroughs = ['/.well-known/security.txt', '/api/auth/callback/google', '/learn/sign-in/error']
		const targets = ['/learn', '/learn/sign-up', '/learn/magic', '/learn/forgot', '/admin', '/learn/sign-in']
		const escapes = (from: string, to: string) => {
			const up = from.split('/').length - 1
			return [
				`${from}/${'../'.repeat(up)}${to.slice(1)}`,
				`${from}/${'%2e%2e/'.repeat(up)}${to.slice(1)}`,
				`${from}/${'%2E%2E/'.repeat(up)}${to.slice(1)}`,
				`${from}\\${'..\\'.repeat(up)}${to.slice(1)}`,
				`${from}${to}`,
				`${from}x`,
				`${from}.md`,
				`${from}/x`,
				`${from}.data`,
			]
		}
		for (const from of passthroughs) {
			for (const to of targets) {
				for (const spelling of escapes(from, to)) {
					// Served only when the path the router routes is a passthrough itself (also as React Router data).
					const get = await stack.request(SUSPENDED, spelling)
					const location = String(get.headers.location ?? '')
					const servedAt = get.status === 308 ? location : normalPath(spelling)
					const answer = get.status === 308 ? (await stack.request(SUSPENDED, location)).status : get.status
					hostile.check(
						`GET ${SUSPENDED}${spelling}`,
						answer !== 200 || passthroughs.includes(pagePathOf(servedAt ?? '')),
						`${get.status} ${location} → ${answer}`,
					)
					for (const form of [
						{ name: 'Ivy', email: `ivy-${Math.random()}@initech.test`, password: 'a-long-enough-secret' },
						{ email: 'learner@initech.test' },
					] as Record<string, string>[]) {
						const post = await stack.request(SUSPENDED, spelling, {
							method: 'POST',
							body: new URLSearchParams(form).toString(),
							headers: {
								'content-type': 'application/x-www-form-urlencoded',
								origin: `http://${SUSPENDED}:${stack.port}`,
							},
						})
						hostile.check(`POST ${SUSPENDED}${spelling}`, post.status >= 400, `${post.status}`)
					}
				}
			}
		}
		// Nothing was created or mailed on the suspended tenant.
		const initech = (await findTenantBySlug(stack.db, 'initech'))!
		hostile.check(
			'no sign-up on the suspended tenant',
			(await stack.db.orm.select().from(stack.db.t.users)).filter((u) => u.tenant_id === initech.id).length === 1,
		)
		await new Promise((r) => setTimeout(r, 200))
		hostile.check(
			'no mail from the suspended tenant',
			stack.mail.messages.filter((m) => m.to.endsWith('@initech.test')).length === 0,
		)
		// The passthroughs themselves still answer.
		hostile.check(
			'security.txt of the suspended tenant',
			(await stack.request(SUSPENDED, '/.well-known/security.txt')).status === 200,
		)
		expect(hostile.newFailures()).toEqual([])
	}, 180_000)

	it('sends no-referrer with a token page under every spelling the router serves', async () => {
		for (const path of [
			`/learn/reset/${resetToken}`,
			`/es/learn/reset/${resetToken}`,
			`/invite/${inviteLike}`,
			`/learn/verify/${inviteLike}`,
			`/learn/magic/${inviteLike}`,
			'/admin/enter',
		]) {
			for (const spelling of [path, ...respellings(path), `${path}.data`]) {
				const res = await stack.request(ACME, spelling)
				const ok =
					res.status === 404 ||
					res.status === 308 ||
					refusedByNode(spelling, res.status) ||
					res.headers['referrer-policy'] === 'no-referrer'
				hostile.check(
					`token page ${spelling}`,
					ok,
					`${res.status} with referrer-policy ${res.headers['referrer-policy']}`,
				)
			}
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('answers every error under /api/ as the JSON envelope, however the path is spelled', async () => {
		for (const path of [
			'/api/nope',
			'/api/health/x',
			'/api/cms/courses/x/assets/y',
			'/api/auth',
			'/api/admin/impersonate/stop',
		]) {
			for (const spelling of [path, ...respellings(path)]) {
				const res = await stack.request(ACME, spelling)
				const json = String(res.headers['content-type']).startsWith('application/json')
				// A spelling of a path under /api/ that is not one (case) is simply not an API route.
				const api = normalPath(spelling)?.startsWith('/api/') || normalPath(spelling) === '/api'
				hostile.check(
					`API ${spelling}`,
					res.status === 308 || res.status < 400 || !api || json || refusedByNode(spelling, res.status),
					`${res.status} ${res.headers['content-type']}`,
				)
			}
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it("exempts only the webhook's own path from the cross-site check", async () => {
		const crossSite = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.test' }
		for (const path of ['/learn/account', '/learn/sign-out', '/admin/users/invite', '/learn/locale']) {
			for (const spelling of [
				`/api/cms/revalidate/../..${path}`,
				`/api/cms/revalidate/%2e%2e/%2e%2e${path}`,
				`/api/cms/revalidate${path}`,
				`/api/cms/revalidate\\..\\..${path}`,
				`/api//cms/revalidate/../../..${path}`,
			]) {
				const res = await stack.request(ACME, spelling, {
					method: 'POST',
					body: 'intent=sign-out-everywhere',
					headers: crossSite,
				})
				hostile.check(
					`cross-site POST ${spelling}`,
					res.status === 400 || res.status === 403 || res.status === 404,
					`${res.status}`,
				)
			}
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('never files a page under another spelling in the page cache, nor serves it to a session', async () => {
		for (const spelling of respellings('/learn')) await stack.request(ACME, spelling)
		const canonical = await stack.request(ACME, '/learn')
		hostile.check('canonical /learn cached', canonical.status === 200)
		for (const spelling of respellings('/learn')) {
			const res = await stack.request(ACME, spelling)
			hostile.check(
				`cache ${spelling}`,
				res.status !== 200 || normalPath(spelling) === '/learn',
				`${res.status} ${res.headers['x-page-cache']}`,
			)
		}
		// A session cookie in a spelling the cookie parser of the page cache reads but the session reader
		// refuses (decision 0032): the answer is nobody's page, and nothing personal is filed for everyone.
		const b = stack.browser(ACME)
		await b.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })
		const value = b.jar.get('lms_session')!
		for (const cookie of [
			`lms_session =${value}`,
			`lms_session\t=${value}`,
			` lms_session = ${value}`,
			`x=1;lms_session =${value}`,
		]) {
			for (const page of ['/learn/course/intro-to-web', '/', '/blog']) {
				const mine = await stack.request(ACME, page, { headers: { cookie, 'accept-language': 'de' } })
				const anonymous = await stack.request(ACME, page, { headers: { 'accept-language': 'de' } })
				hostile.check(
					`${JSON.stringify(cookie.slice(0, 16))} on ${page}`,
					!mine.text.includes('Lena Learner') &&
						!mine.text.includes('/learn/sign-out') &&
						!anonymous.text.includes('Lena Learner') &&
						!anonymous.text.includes('/learn/sign-out'),
					`${mine.headers['cache-control']} ${anonymous.headers['x-page-cache']}`,
				)
			}
		}
		// A token carried in a callbackUrl stays out of Referer too.
		const signIn = await stack.request(
			ACME,
			`/learn/sign-in?callbackUrl=${encodeURIComponent(`/learn/account/email/${resetToken}`)}`,
		)
		hostile.check(
			'sign-in page with a token in its callbackUrl',
			signIn.headers['referrer-policy'] === 'no-referrer',
			`${signIn.headers['referrer-policy']}`,
		)
		expect(hostile.newFailures()).toEqual([])
	})
})
