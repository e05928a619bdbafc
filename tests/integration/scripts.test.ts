import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markEntryCompleteRow } from '#db/learning.ts'
import { findUserByEmail } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const ACME = 'acme.localhost'

/** The scripts a page makes the browser fetch: module scripts and module preloads. */
function scriptsOf(html: string) {
	return [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
}

/**
 * The JavaScript policy (decisions 0019 and 0106): public, account and learner
 * pages are HTML and CSS only (the dashboard but for its device time zone
 * script); administration pages ship their scripts, except to a browser that
 * asks to save data.
 */
describe.each(DIALECTS)('the JavaScript policy on %s', (dialect) => {
	let stack: Stack
	let learner: string
	let admin: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		const signIn = async (email: string) => {
			const b = stack.browser(ACME)
			await b.post('/learn/sign-in', { email, password: DEMO_PASSWORD })
			return b.cookieHeader()
		}
		learner = await signIn('learner@acme.test')
		admin = await signIn('admin@acme.test')
		// The lessons before the quiz and the assignment read, so both open (else they redirect, with no page to check).
		const acmeId = stack.seeded.tenants.acme.id
		const scope = { tenantId: acmeId, userId: (await findUserByEmail(stack.db, acmeId, 'learner@acme.test'))!.id }
		for (const entry of ['what-is-http', 'html-forms', 'progressive-enhancement'])
			await markEntryCompleteRow(stack.db, scope, 'intro-to-web', entry)
	})
	afterAll(() => stack?.close())

	it('ships no script to public pages, account pages, course landings, learner pages and status pages', async () => {
		const visitor = [
			'/',
			'/learn',
			'/es/learn',
			'/learn/course/intro-to-web',
			'/learn/course/advanced-css',
			'/blog',
			'/blog/welcome',
			'/about',
			'/learn/sign-in',
			'/learn/sign-up',
			'/learn/forgot',
			'/learn/magic',
			'/no-such-page',
			'/learn/course/no-such-course',
		]
		// Signed in: the account page, a course not enrolled in (its landing), an enrolled course and its entries.
		const signedIn = [
			'/learn/account',
			'/learn/course/advanced-css',
			'/learn/course/no-such-course',
			'/learn/course/intro-to-web',
			'/learn/course/intro-to-web/entry/what-is-http',
			'/learn/course/intro-to-web/entry/basics-quiz',
			'/learn/course/intro-to-web/entry/build-a-form',
		]
		const pages = [
			...visitor.map((path) => ({ path, headers: {} })),
			...signedIn.map((path) => ({ path, headers: { cookie: learner } })),
		]
		for (const { path, headers } of pages) {
			const page = await stack.request(ACME, path, { headers })
			expect(page.status, path).toBe(path.includes('no-such') ? 404 : 200)
			expect(page.headers['content-type'], path).toMatch(/^text\/html/)
			// JSON-LD blocks are data, never run (seo.test.ts); any other script element is code.
			expect(page.text, path).not.toMatch(/<script\b(?![^>]*\btype="application\/ld\+json")/)
			expect(scriptsOf(page.text), path).toEqual([])
		}
	})

	it("sends the dashboard's device time zone script alone, while the learner has chosen no zone, and not with Save-Data: on", async () => {
		const page = await stack.request(ACME, '/learn/dashboard', { headers: { cookie: learner } })
		expect(scriptsOf(page.text)).toEqual([expect.stringMatching(/^\/assets\/device-zone-[\w-]+\.js$/)])
		const saving = await stack.request(ACME, '/learn/dashboard', { headers: { cookie: learner, 'save-data': 'on' } })
		expect(saving.text).not.toMatch(/<script\b/)
		// Once the learner has a zone of their own, the dashboard has nothing to send.
		const b = stack.browser(ACME)
		await b.post('/learn/sign-in', { email: 'newbie@acme.test', password: DEMO_PASSWORD })
		expect(scriptsOf((await b.get('/learn/dashboard')).text)).toHaveLength(1)
		await b.post('/learn/account', { intent: 'time-zone', timeZone: 'Europe/Paris' })
		const chosen = await b.get('/learn/dashboard')
		expect(chosen.status).toBe(200)
		expect(scriptsOf(chosen.text)).toEqual([])
	})

	it('ships scripts to administration, but not with Save-Data: on', async () => {
		const pages: Array<[string, string]> = [
			['/admin', admin],
			['/admin/users', admin],
		]
		for (const [path, cookie] of pages) {
			const page = await stack.request(ACME, path, { headers: { cookie } })
			expect(page.status, path).toBe(200)
			expect(scriptsOf(page.text).length, path).toBeGreaterThan(0)
			expect(page.headers.vary, path).toMatch(/Save-Data/)
			const saving = await stack.request(ACME, path, { headers: { cookie, 'save-data': 'on' } })
			expect(saving.status, path).toBe(200)
			expect(saving.text, path).not.toMatch(/<script\b/)
		}
	})

	it("preloads the page's own message catalogue, and no other language's", async () => {
		const page = await stack.request(ACME, '/admin', { headers: { cookie: admin } })
		// "Skip to content" in each interface language, as its catalogue spells it.
		const phrase = async (l: string) =>
			(await import(`#app/i18n/catalogues/${l}.ts`)).default.common.skipToContent as string
		const others = await Promise.all(['es', 'fr', 'de', 'pt'].map(phrase))
		const bodies = await Promise.all(
			scriptsOf(page.text).map(async (src) => [src, (await stack.request(ACME, src)).text]),
		)
		// Its own (English) catalogue arrives with the runtime (decision 0076: one round trip, not two)...
		expect(bodies.some(([, body]) => body.includes('Skip to content'))).toBe(true)
		// ...and no other language's.
		for (const [src, body] of bodies)
			for (const other of others) expect(body.includes(other), `${src} holds "${other}"`).toBe(false)
	})
})
