/**
 * Hostile class: single sign-on with a tenant's own OpenID provider (issue 48, decision 0069), against
 * a real oidc-provider on loopback. Each case is what an attacker would try with the callback, the
 * state, the tokens or the hosts; each must be refused at the sign-in error page with nothing written
 * (no user, no identity link, no session, no audit row, no session cookie).
 */
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { isPublicAddress } from '#app/platform/public-address.server.ts'
import { IDP_CLIENT, IDP_OTHER_CLIENT, startOidcProvider, type OidcIdp } from '#tests/support/oidc-idp.ts'
import { addProvider, pathOf, ssoSignIn, startSso } from '#tests/support/sso.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass, staysOnOrigin } from './support.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'

describe.each(DIALECTS)('hostile single sign-on on %s', (dialect) => {
	let stack: Stack
	let idp: OidcIdp
	let idp2: OidcIdp
	let p1: string
	let p2: string
	let g1: string
	const sso = hostileClass('single-sign-on', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		idp = await startOidcProvider()
		idp2 = await startOidcProvider()
		const acmeAdmin = await stack.signIn('admin@acme.test')
		p1 = await addProvider(stack, acmeAdmin, idp, { label: 'First IdP', domains: 'first.test' })
		p2 = await addProvider(stack, acmeAdmin, idp2, { label: 'Second IdP', domains: 'second.test' })
		const globexAdmin = await stack.signIn('admin@globex.test', GLOBEX)
		g1 = await addProvider(stack, globexAdmin, idp, { label: 'Globex IdP' })
		for (const i of [idp, idp2]) i.account({ sub: 'victim', email: 'victim@first.test', email_verified: true })
		idp2.account({ sub: 'intruder', email: 'victim@first.test', email_verified: true })
	})
	afterAll(async () => {
		sso.report()
		await stack?.close()
		await Promise.all([idp?.close(), idp2?.close()])
	})

	/** Every row a sign-in could write. */
	async function counts() {
		const { users, oauth_accounts, sessions, audit_log } = stack.db.t
		const n = async (table: typeof users | typeof oauth_accounts | typeof sessions | typeof audit_log) =>
			(await stack.db.orm.select().from(table)).length
		return [await n(users), await n(oauth_accounts), await n(sessions), await n(audit_log)].join('/')
	}

	/** The case's answer must be a refusal at the error page, with no session and nothing written. */
	async function refused(label: string, attempt: () => Promise<TestResponse>) {
		const before = await counts()
		const res = await attempt()
		const location = String(res.headers.location ?? '')
		const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
		sso.check(label, res.status === 302 && location.startsWith('/learn/sign-in/error'), `${res.status} ${location}`)
		sso.check(`${label}: no session`, !cookies.some((c) => /^lms_session=[^;]+/.test(c)), cookies.join(' | '))
		sso.check(`${label}: nothing written`, (await counts()) === before, `${before} -> ${await counts()}`)
	}

	/** A browser on acme that started with the provider and came back: the callback URL, not yet opened. */
	async function callbackOf(b: Browser, providerId: string, via: OidcIdp, sub = 'victim') {
		return new URL(await via.signInAs(await startSso(b, providerId), sub))
	}

	it('refuses a missing, forged or reused state', async () => {
		const b = stack.browser(ACME)
		const back = await callbackOf(b, p1, idp)
		const noState = new URL(back)
		noState.searchParams.delete('state')
		await refused('state missing', () => b.get(pathOf(noState.href)))

		const b2 = stack.browser(ACME)
		const forged = await callbackOf(b2, p1, idp)
		forged.searchParams.set('state', 'forged-state-value')
		await refused('state forged', () => b2.get(pathOf(forged.href)))

		// A state of another browser's sign-in: this browser's cookie does not hold it.
		const attacker = stack.browser(ACME)
		const victim = stack.browser(ACME)
		await startSso(victim, p1)
		const planted = await callbackOf(attacker, p1, idp)
		await refused('state of another browser (login CSRF)', () => victim.get(pathOf(planted.href)))

		// Reused: a completed sign-in's callback and cookie, replayed.
		const b3 = stack.browser(ACME)
		const once = await callbackOf(b3, p1, idp)
		const cookie = b3.cookieHeader()
		expect((await b3.get(pathOf(once.href))).status).toBe(302)
		await refused('state reused', () => stack.request(ACME, pathOf(once.href), { headers: { cookie } }))
		expect(sso.newFailures()).toEqual([])
	})

	it('refuses ID tokens with another nonce, issuer, audience, an expiry past, or a forged signature', async () => {
		const nonceCase = stack.browser(ACME)
		const authorize = await startSso(nonceCase, p1)
		await stack.db.orm.update(stack.db.t.sso_login_states).set({ nonce: 'another-nonce' })
		const back = await idp.signInAs(authorize, 'victim')
		await refused('nonce mismatch', () => nonceCase.get(pathOf(back)))

		const now = Math.floor(Date.now() / 1000)
		const tampered: Array<[string, (c: Record<string, unknown>) => Record<string, unknown>]> = [
			['ID token from another issuer', (c) => ({ ...c, iss: 'http://127.0.0.1:1/evil' })],
			['ID token for another audience', (c) => ({ ...c, aud: IDP_OTHER_CLIENT.id })],
			['ID token expired', (c) => ({ ...c, iat: now - 7200, exp: now - 3600 })],
			['ID token for another subject than userinfo', (c) => ({ ...c, sub: 'someone-else' })],
		]
		for (const [label, edit] of tampered) {
			idp.tamperIdToken(edit)
			const b = stack.browser(ACME)
			await refused(label, async () => b.get(pathOf((await callbackOf(b, p1, idp)).href)))
		}
		idp.tamperIdToken(null)
		idp.forgeSignature(true)
		const forged = stack.browser(ACME)
		await refused('ID token signed with another key', async () =>
			forged.get(pathOf((await callbackOf(forged, p1, idp)).href)),
		)
		idp.forgeSignature(false)
		expect(sso.newFailures()).toEqual([])
	})

	it('refuses an IdP mix-up between two providers of one tenant', async () => {
		// The first provider's answer delivered to the second's callback.
		const b = stack.browser(ACME)
		const fromFirst = await callbackOf(b, p1, idp)
		await refused('first provider’s code at the second’s callback', () =>
			b.get(`/api/auth/sso/${p2}/callback${fromFirst.search}`),
		)
		// A sign-in started with the second provider, answered by the first (its code, its iss).
		const b2 = stack.browser(ACME)
		const authorize = new URL(await startSso(b2, p2))
		const other = stack.browser(ACME)
		const firstAnswer = await callbackOf(other, p1, idp)
		firstAnswer.searchParams.set('state', authorize.searchParams.get('state')!)
		await refused('first provider’s answer to the second’s sign-in', () =>
			b2.get(`/api/auth/sso/${p2}/callback${firstAnswer.search}`),
		)
		// The second provider asserting an address in a domain the first claims.
		await refused('second provider asserting the first’s domain', () =>
			ssoSignIn(stack.browser(ACME), p2, idp2, 'intruder'),
		)
		expect(sso.newFailures()).toEqual([])
	})

	it('refuses tenant A’s provider’s callback on tenant B’s host, and B’s provider with A’s state', async () => {
		const b = stack.browser(ACME)
		const back = await callbackOf(b, p1, idp)
		const cookie = b.cookieHeader()
		await refused('acme provider callback on globex', () =>
			stack.request(GLOBEX, pathOf(back.href), { headers: { cookie } }),
		)
		const b2 = stack.browser(ACME)
		const back2 = await callbackOf(b2, p1, idp)
		await refused('globex provider with acme’s state on globex', () =>
			stack.request(GLOBEX, `/api/auth/sso/${g1}/callback${back2.search}`, { headers: { cookie: b2.cookieHeader() } }),
		)
		await refused('globex provider started on acme', () => stack.browser(ACME).post(`/api/auth/sso/${g1}`, {}))
		expect(sso.newFailures()).toEqual([])
	})

	it('keeps the redirect_uri and the return path on the tenant’s own origin', async () => {
		const b = stack.browser(ACME)
		const start = await b.post(
			`/api/auth/sso/${p1}`,
			{ callbackUrl: 'https://evil.test/x' },
			{ 'x-forwarded-host': 'evil.test' },
		)
		const authorize = new URL(String(start.headers.location))
		sso.check(
			'redirect_uri is the tenant host’s callback',
			authorize.searchParams.get('redirect_uri') === `${b.origin}/api/auth/sso/${p1}/callback`,
			String(authorize.searchParams.get('redirect_uri')),
		)
		// The victim exists already (earlier cases' sign-ins): a hostile return path is dropped.
		for (const next of ['https://evil.test/x', '//evil.test/x', '/\\evil.test/x', '/%2F%2Fevil.test']) {
			const browser = stack.browser(ACME)
			const res = await ssoSignIn(browser, p1, idp, 'victim', next)
			const location = String(res.headers.location)
			sso.check(`return path ${next}`, res.status === 302 && staysOnOrigin(location, `${browser.origin}/`), location)
		}
		expect(sso.newFailures()).toEqual([])
	})

	it('refuses an issuer on a private, metadata or mapped loopback address, or a name resolving to one, storing nothing', async () => {
		const admin = await stack.signIn('admin@acme.test')
		const port = new URL(idp.issuer).port
		const issuers = [
			'https://10.0.0.5/',
			'https://169.254.169.254/latest/meta-data',
			// The tests' provider itself, at another spelling of loopback than the allowed ones.
			`https://[::ffff:127.0.0.1]:${port}`,
			'https://[::ffff:a9fe:a9fe]/',
			'https://[fd00::1]/',
		]
		// A name (not an address literal) that resolves to this machine: its own hostname, where it resolves
		// to a non-public address (loopback here, a private one in a container). A name resolving to a
		// private address through DNS is app/platform/public-address.server.test.ts's, with its resolver given.
		const own = await lookup(hostname(), { all: true }).catch(() => [])
		if (own.length && own.every((a) => !isPublicAddress(a.address))) issuers.push(`https://${hostname()}:${port}`)
		const rows = async () => {
			const { identity_providers, audit_log } = stack.db.t
			return `${(await stack.db.orm.select().from(identity_providers)).length}/${(await stack.db.orm.select().from(audit_log)).length}`
		}
		for (const issuer of issuers) {
			const before = await rows()
			const res = await admin.post('/admin/settings/sign-in', {
				intent: 'save',
				label: 'Inside job',
				issuer,
				clientId: IDP_CLIENT.id,
				clientSecret: IDP_CLIENT.secret,
				scopes: 'openid email profile',
			})
			const fieldError = /id="[^"]*issuer-error"[^>]*>[^<]*The issuer must be on a public address/.test(res.text)
			sso.check(
				`issuer ${issuer}: refused with the issuer field's error`,
				res.status === 400 && fieldError,
				String(res.status),
			)
			sso.check(`issuer ${issuer}: nothing stored`, (await rows()) === before, `${before} -> ${await rows()}`)
		}
		expect(sso.newFailures()).toEqual([])
	})

	it('changes nothing on a GET of the start route, and refuses an error answer from the provider', async () => {
		const before = await stack.db.orm.select().from(stack.db.t.sso_login_states)
		const get = await stack.browser(ACME).get(`/api/auth/sso/${p1}`)
		sso.check('GET start redirects to sign-in', get.status === 302 && get.headers.location === '/learn/sign-in')
		sso.check('GET start sets no state cookie', !String(get.headers['set-cookie'] ?? '').includes('lms_sso='))
		const after = await stack.db.orm.select().from(stack.db.t.sso_login_states)
		sso.check('GET start stores no state', after.length === before.length, `${before.length} -> ${after.length}`)

		const b = stack.browser(ACME)
		const authorize = new URL(await startSso(b, p1))
		const state = authorize.searchParams.get('state')!
		await refused('provider error answer', () =>
			b.get(`/api/auth/sso/${p1}/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`),
		)
		// Ids no provider has (a NUL, another spelling, too long): refused, never a server error.
		for (const id of ['%00', 'a%00b', 'x'.repeat(200), '..%2F..%2Fadmin']) {
			const start = await stack.browser(ACME).post(`/api/auth/sso/${id}`, {})
			sso.check(`start with id ${id.slice(0, 20)}`, start.status < 500 && start.status !== 200, String(start.status))
			const back = await stack.browser(ACME).get(`/api/auth/sso/${id}/callback?state=x&code=y`)
			sso.check(`callback with id ${id.slice(0, 20)}`, back.status < 500 && back.status !== 200, String(back.status))
		}
		// A disabled provider's callback: refused even with a good state.
		const b2 = stack.browser(ACME)
		const back = await callbackOf(b2, p1, idp)
		await stack.db.orm
			.update(stack.db.t.identity_providers)
			.set({ enabled: false })
			.where(eq(stack.db.t.identity_providers.id, p1))
		await refused('disabled provider', () => b2.get(pathOf(back.href)))
		expect(sso.newFailures()).toEqual([])
	})
})
