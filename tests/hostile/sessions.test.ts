/**
 * Hostile classes: session lifecycle (sign-out, expiry, renewal, replay,
 * fixation, leftover impersonation markers) and cross-tenant cookies and
 * proofs. Each case is what an attacker holding a cookie, a copied marker or a
 * used link would try, checked by what the app then lets them do.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail, updateUser } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const APEX = 'localhost'

describe.each(DIALECTS)('hostile sessions on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globex: Tenant
	const lifecycle = hostileClass('sessions', dialect)
	const crossTenant = hostileClass('cross-tenant', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globex = stack.seeded.tenants.globex
	})
	afterAll(async () => {
		lifecycle.report()
		crossTenant.report()
		await stack?.close()
	})

	const signIn = (email: string, host = ACME) => stack.signIn(email, host)
	/** Whether a Cookie header is signed in on the host: the dashboard answers 200 (not a sign-in redirect). */
	async function signedIn(cookie: string, host = ACME, path = '/learn/account') {
		return (await stack.request(host, path, { headers: { cookie } })).status === 200
	}
	/** The super_admin on the apex, entered into a tenant host through the override. */
	async function superOn(tenant: Tenant) {
		const apex = await signIn('root@platform.test', APEX)
		const enter = await apex.post('/admin/tenants', { intent: 'enter', tenantId: tenant.id })
		const url = new URL(String(enter.headers.location))
		const b = stack.browser(`${tenant.slug}.localhost`)
		// The link's page asks; its button signs in.
		expect((await b.get(`${url.pathname}${url.search}`)).status).toBe(200)
		expect((await b.post(`${url.pathname}${url.search}`, {})).headers.location).toBe('/admin')
		return { apex, b, enterPath: `${url.pathname}${url.search}` }
	}
	const sessionId = (b: Browser) => b.jar.get('lms_session')
	const rows = () => stack.db.orm.select().from(stack.db.t.sessions)

	it('gives each sign-in its own session and ends it on the server at sign-out', async () => {
		const first = await signIn('learner@acme.test')
		const second = await signIn('learner@acme.test')
		lifecycle.check('two sign-ins, two cookies', sessionId(first) !== sessionId(second))
		const copied = first.cookieHeader()
		expect((await first.post('/learn/sign-out', {})).status).toBe(302)
		lifecycle.check('a signed-out cookie replayed', !(await signedIn(copied)))
		lifecycle.check('the other device stays signed in', await signedIn(second.cookieHeader()))
		lifecycle.check(
			'signed-out cookie on a data request',
			(await stack.request(ACME, '/learn/dashboard.data', { headers: { cookie: copied } })).status !== 200 ||
				!(await stack.request(ACME, '/learn/dashboard.data', { headers: { cookie: copied } })).text.includes(
					'Lee Learner',
				),
		)
		// Sign-out everywhere ends every session of the user.
		const third = await signIn('learner@acme.test')
		await third.post('/learn/account', { intent: 'sign-out-everywhere' })
		lifecycle.check('sign-out everywhere ends the other device', !(await signedIn(second.cookieHeader())))
		expect(lifecycle.newFailures()).toEqual([])
	})

	it('ends a session after its idle and its absolute lifetime, and renews only within them', async () => {
		const { sessions } = stack.db.t
		const idle = await signIn('learner@acme.test')
		const id = (await rows()).sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0].id
		await stack.db.orm
			.update(sessions)
			.set({ idle_expires_at: new Date(Date.now() - 1000) })
			.where(eq(sessions.id, id))
		lifecycle.check('idle-expired session', !(await signedIn(idle.cookieHeader())))

		const old = await signIn('learner@acme.test')
		const oldId = (await rows()).sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0].id
		await stack.db.orm
			.update(sessions)
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where(eq(sessions.id, oldId))
		lifecycle.check('absolutely expired session', !(await signedIn(old.cookieHeader())))

		// A session used near its idle limit is renewed, never past its absolute end.
		const renewed = await signIn('learner@acme.test')
		const renewedId = (await rows()).sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0].id
		const end = new Date(Date.now() + 3 * 86_400_000)
		await stack.db.orm
			.update(sessions)
			.set({ idle_expires_at: new Date(Date.now() + 60_000), expires_at: end })
			.where(eq(sessions.id, renewedId))
		lifecycle.check('near-idle session still works', await signedIn(renewed.cookieHeader()))
		await new Promise((r) => setTimeout(r, 100))
		const [row] = await stack.db.orm.select().from(sessions).where(eq(sessions.id, renewedId))
		lifecycle.check(
			'renewed up to the absolute end',
			row.idle_expires_at.getTime() === end.getTime(),
			`idle ${row.idle_expires_at.toISOString()} end ${end.toISOString()}`,
		)
		// The cookie itself expires with the session (Max-Age of the absolute lifetime).
		const fresh = await stack
			.browser(ACME)
			.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })
		const cookie = ([] as string[]).concat(fresh.headers['set-cookie'] ?? []).find((c) => c.startsWith('lms_session='))!
		lifecycle.check('cookie lifetime', /Max-Age=2592000/i.test(cookie), cookie)
		lifecycle.check(
			'signed-in pages are not stored by caches',
			(await stack.request(ACME, '/learn/account', { headers: { cookie: renewed.cookieHeader() } })).headers[
				'cache-control'
			] === 'private, no-store',
		)
		expect(lifecycle.newFailures()).toEqual([])
	})

	it('cannot be fixed: a cookie planted before sign-in is replaced, and signs nobody in', async () => {
		const victim = stack.browser(ACME)
		// The attacker's own valid session, planted in the victim's browser.
		const attacker = await signIn('newbie@acme.test')
		victim.jar.set('lms_session', sessionId(attacker)!)
		await victim.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })
		lifecycle.check('sign-in replaces a planted cookie', sessionId(victim) !== sessionId(attacker))
		const account = await stack.request(ACME, '/learn/account', { headers: { cookie: attacker.cookieHeader() } })
		lifecycle.check("the planted cookie is still only the attacker's", !account.text.includes('learner@acme.test'))
		// A cookie whose signature does not match, or names no stored session, is no session.
		for (const forged of [
			'lms_session=x.y',
			`lms_session=${sessionId(attacker)!.slice(0, -4)}AAAA`,
			'lms_session=eyJjbGFpbXMiOnsidXNlcklkIjoieCJ9fQ%3D%3D',
		]) {
			lifecycle.check(`forged ${forged.slice(0, 30)}`, !(await signedIn(forged)))
		}
		expect(lifecycle.newFailures()).toEqual([])
	})

	it('makes an impersonation marker worthless anywhere but its own impersonated session', async () => {
		const target = (await findUserByEmail(stack.db, acme.id, 'newbie@acme.test'))!
		const student = await signIn('learner@acme.test')
		const marker = async () => {
			const { b } = await superOn(acme)
			expect((await b.post('/api/admin/impersonate/start', { userId: target.id })).status).toBe(303)
			return { b, value: b.jar.get('__impersonator_uid')!, impersonated: b.cookieHeader() }
		}
		const asSuper = (res: { headers: Record<string, unknown> }) =>
			String(res.headers['set-cookie'] ?? '').includes('lms_session=') &&
			!/lms_session=;/.test(String(res.headers['set-cookie']))

		// 1. A copied marker next to a student's own session.
		const copied = await marker()
		const s1 = stack.browser(ACME)
		for (const [k, v] of student.jar) s1.jar.set(k, v)
		s1.jar.set('__impersonator_uid', copied.value)
		const stolen = await s1.post('/api/admin/impersonate/stop', {})
		lifecycle.check(
			'copied marker with a student session',
			stolen.status === 403 && !asSuper(stolen),
			`${stolen.status}`,
		)

		// 2. The impersonated session after it signed out: the cookie is cleared, and a replay is nobody.
		const out = await marker()
		await out.b.post('/learn/sign-out', {})
		lifecycle.check('sign-out clears the marker', !out.b.jar.has('__impersonator_uid'))
		const replay = await stack.request(ACME, '/api/admin/impersonate/stop', {
			method: 'POST',
			body: '',
			headers: {
				cookie: out.impersonated,
				origin: `http://${ACME}:${stack.port}`,
				'content-type': 'application/x-www-form-urlencoded',
			},
		})
		lifecycle.check(
			'marker and impersonated cookie after sign-out',
			replay.status === 401 && !asSuper(replay),
			`${replay.status}`,
		)

		// 3. The super_admin signs out everywhere: the impersonated session and its marker end.
		const bumped = await marker()
		const root = (await findUserByEmail(stack.db, null, 'root@platform.test'))!
		await updateUser(stack.db, root.id, {}, { bumpTokenVersion: true })
		const afterBump = await bumped.b.post('/api/admin/impersonate/stop', {})
		lifecycle.check(
			"marker after the super_admin's sign-out everywhere",
			afterBump.status >= 400 && !asSuper(afterBump),
			`${afterBump.status}`,
		)
		lifecycle.check('impersonated session after it', !(await signedIn(bumped.impersonated, ACME, '/learn/dashboard')))

		// 4. An hour later the impersonated session (and so its marker) is over.
		const stale = await marker()
		const { sessions } = stack.db.t
		const [impersonatedRow] = (await rows())
			.filter((r) => r.user_id === target.id && r.impersonator_session_id)
			.sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
		await stack.db.orm
			.update(sessions)
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where(eq(sessions.id, impersonatedRow.id))
		const late = await stale.b.post('/api/admin/impersonate/stop', {})
		lifecycle.check('stale marker', late.status >= 400 && !asSuper(late), `${late.status}`)

		// 5. Forged and unsigned markers, and a marker with the super_admin's own session on the apex.
		for (const value of [root.id, 'x', '']) {
			const forged = stack.browser(ACME)
			for (const [k, v] of student.jar) forged.jar.set(k, v)
			forged.jar.set('__impersonator_uid', value)
			const res = await forged.post('/api/admin/impersonate/stop', {})
			lifecycle.check(`forged marker ${JSON.stringify(value)}`, res.status === 403 && !asSuper(res), `${res.status}`)
		}
		const apex = await signIn('root@platform.test', APEX)
		const withMarker = await marker()
		apex.jar.set('__impersonator_uid', withMarker.value)
		const onApex = await apex.post('/api/admin/impersonate/stop', {})
		lifecycle.check(
			'marker with a super_admin session that is not impersonating',
			onApex.status === 403,
			`${onApex.status}`,
		)

		// 6. The normal way still works, once.
		const normal = await marker()
		const stop = await normal.b.post('/api/admin/impersonate/stop', {})
		lifecycle.check(
			'stop from the impersonated session',
			stop.status === 303 && (await normal.b.get('/admin')).status === 200,
			`${stop.status}`,
		)
		lifecycle.check(
			'the impersonated cookie is over after stop',
			!(await signedIn(normal.impersonated, ACME, '/learn/dashboard')),
		)
		expect(lifecycle.newFailures()).toEqual([])
	}, 60_000)

	it('uses each tenant-override link once', async () => {
		const { apex } = await superOn(acme)
		const enter = await apex.post('/admin/tenants', { intent: 'enter', tenantId: acme.id })
		const url = new URL(String(enter.headers.location))
		const path = `${url.pathname}${url.search}`
		const first = await stack.browser(ACME).post(path, {})
		lifecycle.check('first use of the override link', first.status === 302)
		const again = await stack.browser(ACME).post(path, {})
		const opened = await stack.request(ACME, path)
		lifecycle.check(
			'replayed override link',
			again.status === 404 &&
				opened.status === 404 &&
				!String(again.headers['set-cookie'] ?? '').includes('lms_session='),
			`${again.status}, GET ${opened.status}`,
		)
		expect(lifecycle.newFailures()).toEqual([])
	})

	it('keeps cookies, markers and proofs of one tenant worthless on another and on the apex', async () => {
		const learner = await signIn('learner@acme.test')
		for (const host of [GLOBEX, APEX]) {
			const res = await stack.request(host, '/learn/account', { headers: { cookie: learner.cookieHeader() } })
			crossTenant.check(
				`acme session on ${host}`,
				res.status === 302 && /lms_session=;/.test(String(res.headers['set-cookie'])),
				`${res.status}`,
			)
		}
		// The custom domain is the same tenant: the session holds there.
		crossTenant.check('acme session on its custom domain', await signedIn(learner.cookieHeader(), 'learn.acme.test'))
		// A super_admin's session is bound to the host it was issued on.
		const apex = await signIn('root@platform.test', APEX)
		crossTenant.check(
			'apex super_admin session on a tenant host',
			!(await signedIn(apex.cookieHeader(), ACME, '/admin')),
		)
		const { b } = await superOn(acme)
		crossTenant.check(
			'acme-entered super_admin session on globex',
			!(await signedIn(b.cookieHeader(), GLOBEX, '/admin')),
		)
		crossTenant.check(
			'acme-entered super_admin session on the apex',
			!(await signedIn(b.cookieHeader(), APEX, '/admin')),
		)
		// Acme's override proof on Globex's host.
		const enter = await apex.post('/admin/tenants', { intent: 'enter', tenantId: acme.id })
		const url = new URL(String(enter.headers.location))
		crossTenant.check(
			"acme's override link on globex",
			(await stack.request(GLOBEX, `${url.pathname}${url.search}`)).status === 404,
		)
		// An impersonation marker from Acme next to a Globex session.
		const target = (await findUserByEmail(stack.db, acme.id, 'newbie@acme.test'))!
		await b.post('/api/admin/impersonate/start', { userId: target.id })
		const globexLearner = await signIn('learner@globex.test', GLOBEX)
		globexLearner.jar.set('__impersonator_uid', b.jar.get('__impersonator_uid')!)
		const stop = await globexLearner.post('/api/admin/impersonate/stop', {})
		crossTenant.check("acme's marker on globex", stop.status === 403, `${stop.status}`)
		// An impersonated Acme session replayed on Globex.
		crossTenant.check(
			'impersonated acme session on globex',
			!(await signedIn(b.cookieHeader(), GLOBEX, '/learn/dashboard')),
		)
		expect(crossTenant.newFailures()).toEqual([])
		void globex
	})
})
