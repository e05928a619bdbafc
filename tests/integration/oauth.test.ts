import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enabledProviders } from '#app/accounts/oauth.server.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail, updateUser } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { testEnv } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

interface Profile {
	sub: string
	email: string
	email_verified?: boolean
	name?: string
	picture?: string
	decision?: 'allow' | 'deny'
}

describe.each(DIALECTS)('external identity providers on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globex: Tenant
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globex = stack.seeded.tenants.globex
	})
	afterAll(() => stack?.close())

	const pathOf = (location: unknown) => {
		const url = new URL(String(location))
		return `${url.pathname}${url.search}`
	}

	/**
	 * The whole round trip a browser makes: the sign-in button's post, the
	 * provider's consent form (on the provider's own host), the callback.
	 * Returns the callback's answer.
	 */
	async function signInWith(b: Browser, provider: 'google' | 'github', profile: Profile, callbackUrl = '') {
		const start = await b.post(`/api/auth/${provider}`, { callbackUrl })
		expect(start.status).toBe(302)
		const authorize = new URL(String(start.headers.location))
		expect(authorize.origin).toBe(`http://localhost:${stack.port}`)
		expect(authorize.searchParams.get('redirect_uri')).toBe(`${b.origin}/api/auth/callback/${provider}`)
		expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')

		const idp = stack.browser('localhost')
		const consent = await idp.get(pathOf(authorize))
		expect(consent.status).toBe(200)
		const fields: Record<string, string> = {
			...Object.fromEntries(authorize.searchParams),
			sub: profile.sub,
			email: profile.email,
			name: profile.name ?? 'Ext Learner',
			picture: profile.picture ?? '',
			decision: profile.decision ?? 'allow',
		}
		if (profile.email_verified !== false) fields.email_verified = 'true'
		const back = await idp.post(pathOf(authorize), fields)
		expect(back.status).toBe(302)
		const callback = new URL(String(back.headers.location))
		expect(callback.origin).toBe(b.origin)
		return b.get(pathOf(callback))
	}

	const links = (userId: string) =>
		stack.db.orm.select().from(stack.db.t.oauth_accounts).where(eq(stack.db.t.oauth_accounts.user_id, userId))

	it('shows the provider buttons on a tenant host only, and only for providers with both variables', async () => {
		const tenantPage = await stack.request(ACME, '/learn/sign-in')
		expect(tenantPage.text).toContain('action="/api/auth/google"')
		expect(tenantPage.text).toContain('action="/api/auth/github"')
		const apexPage = await stack.request('localhost', '/learn/sign-in')
		expect(apexPage.text).not.toContain('/api/auth/google')

		const onlyGoogle = testEnv({ AUTH_GITHUB_ID: '', AUTH_GITHUB_SECRET: '' })
		expect(enabledProviders({ env: onlyGoogle, tenant: acme })).toEqual(['google'])
		expect(enabledProviders({ env: onlyGoogle, tenant: null })).toEqual([])
	})

	it('creates a student with no password on first sign-in, links the identity and lands on the dashboard', async () => {
		const b = stack.browser(ACME)
		const res = await signInWith(b, 'google', {
			sub: 'g-100',
			email: 'New.Person@Example.com',
			name: 'New Person',
			picture: 'https://pics.example/p.png',
		})
		expect(res.status).toBe(302)
		expect(res.headers.location).toBe('/learn/dashboard')
		expect(String(res.headers['set-cookie'])).toMatch(/lms_session=/)

		const user = (await findUserByEmail(stack.db, acme.id, 'new.person@example.com'))!
		expect(user.role).toBe('student')
		expect(user.password_hash).toBe(dialect === 'pg' ? null : '')
		expect(user.email_verified_at).not.toBeNull()
		expect(await links(user.id)).toMatchObject([
			{
				tenant_id: acme.id,
				provider: 'google',
				provider_account_id: 'g-100',
				avatar_url: 'https://pics.example/p.png',
			},
		])
		expect((await b.get('/learn/dashboard')).status).toBe(200)

		// The same identity again signs in the same user, without a second link.
		const again = await signInWith(stack.browser(ACME), 'google', { sub: 'g-100', email: 'new.person@example.com' })
		expect(again.status).toBe(302)
		expect(await links(user.id)).toHaveLength(1)
	})

	it('links an existing account by email, marks the address verified and honours callbackUrl', async () => {
		const existing = await createUser(stack.db, {
			tenant_id: acme.id,
			email: 'unverified@acme.test',
			name: 'Una',
			role: 'student',
			password_hash: 'x',
		})
		expect(existing.email_verified_at).toBeNull()
		const res = await signInWith(
			stack.browser(ACME),
			'github',
			{ sub: '4242', email: 'unverified@acme.test' },
			'/learn?from=github',
		)
		expect(res.headers.location).toBe('/learn?from=github')
		expect((await findUserByEmail(stack.db, acme.id, 'unverified@acme.test'))!.email_verified_at).not.toBeNull()
		expect(await links(existing.id)).toMatchObject([{ provider: 'github', provider_account_id: '4242' }])
	})

	it('keeps identities per tenant: the same external account on another tenant is an independent user', async () => {
		const profile = { sub: 'g-shared', email: 'shared@example.com' }
		await signInWith(stack.browser(ACME), 'google', profile)
		const res = await signInWith(stack.browser('globex.localhost'), 'google', profile)
		expect(res.headers.location).toBe('/learn/dashboard')
		const onAcme = (await findUserByEmail(stack.db, acme.id, 'shared@example.com'))!
		const onGlobex = (await findUserByEmail(stack.db, globex.id, 'shared@example.com'))!
		expect(onAcme.id).not.toBe(onGlobex.id)
		expect((await links(onGlobex.id))[0].tenant_id).toBe(globex.id)
	})

	it('refuses an unverified or missing email', async () => {
		const unverified = await signInWith(stack.browser(ACME), 'google', {
			sub: 'g-uv',
			email: 'uv@example.com',
			email_verified: false,
		})
		expect(unverified.headers.location).toBe('/learn/sign-in/error?error=oauth_email_unverified')
		const missing = await signInWith(stack.browser(ACME), 'github', { sub: '777', email: '' })
		expect(missing.headers.location).toBe('/learn/sign-in/error?error=oauth_email_missing')
		expect(await findUserByEmail(stack.db, acme.id, 'uv@example.com')).toBeNull()
	})

	it('refuses a deactivated account', async () => {
		const user = await createUser(stack.db, {
			tenant_id: acme.id,
			email: 'oauth.gone@acme.test',
			name: 'Gone',
			role: 'student',
			email_verified_at: new Date(),
		})
		await updateUser(stack.db, user.id, { deactivated_at: new Date() })
		const res = await signInWith(stack.browser(ACME), 'google', { sub: 'g-gone', email: 'oauth.gone@acme.test' })
		expect(res.headers.location).toBe('/learn/sign-in/error?error=oauth_account_deactivated')
		expect(await links(user.id)).toHaveLength(0)
	})

	it('refuses the apex host and a suspended tenant', async () => {
		const apexStart = await stack.browser('localhost').post('/api/auth/google', {})
		expect(apexStart.headers.location).toBe('/learn/sign-in/error?error=oauth_tenant_unknown')
		const apexCallback = await stack.request('localhost', '/api/auth/callback/google?code=x&state=y')
		expect(apexCallback.headers.location).toBe('/learn/sign-in/error?error=oauth_tenant_unknown')
		// A flow under way when the tenant was suspended ends on the refusal page, not the 503.
		const suspended = await stack.request('initech.localhost', '/api/auth/callback/google?code=x&state=y')
		expect(suspended.headers.location).toBe('/learn/sign-in/error?error=oauth_tenant_suspended')
		const page = await stack.request('initech.localhost', '/learn/sign-in/error?error=oauth_tenant_suspended')
		expect(page.status).toBe(200)
		expect(page.text).toContain('This learning site is paused')
	})

	it('refuses a denied consent, a forged state and a callback without the state cookie', async () => {
		const denied = await signInWith(stack.browser(ACME), 'google', {
			sub: 'g-deny',
			email: 'deny@example.com',
			decision: 'deny',
		})
		expect(denied.headers.location).toBe('/learn/sign-in/error')

		const b = stack.browser(ACME)
		await b.post('/api/auth/google', {})
		const forged = await b.get('/api/auth/callback/google?code=abc&state=forged')
		expect(forged.headers.location).toBe('/learn/sign-in/error')
		const noCookie = await stack.request(ACME, '/api/auth/callback/google?code=abc&state=abc')
		expect(noCookie.headers.location).toBe('/learn/sign-in/error')
		expect(String(forged.headers['set-cookie'])).not.toMatch(/lms_session=/)
	})

	it('serves the avatar: 401 without a session, the provider picture, else initials in the theme colour', async () => {
		const anonymous = await stack.request(ACME, '/api/avatar')
		expect(anonymous.status).toBe(401)
		expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' })

		const withPicture = stack.browser(ACME)
		await signInWith(withPicture, 'google', {
			sub: 'g-pic',
			email: 'pic@example.com',
			picture: 'https://pics.example/me.png',
		})
		const redirect = await withPicture.get('/api/avatar')
		expect(redirect.status).toBe(302)
		expect(redirect.headers.location).toBe('https://pics.example/me.png')
		expect(redirect.headers['cache-control']).toBe('private, max-age=300')

		// Globex's site document sets theme colour #15803d (the fallback is blue).
		const plain = stack.browser('globex.localhost')
		await signInWith(plain, 'github', { sub: '9001', email: 'ada@example.com', name: 'Ada Lovelace' })
		const svg = await plain.get('/api/avatar')
		expect(svg.status).toBe(200)
		expect(svg.headers['content-type']).toBe('image/svg+xml')
		expect(svg.text).toContain('>AL</text>')
		expect(svg.text).toContain('fill="#15803d"')
		const cached = await plain.get('/api/avatar', { 'if-none-match': String(svg.headers.etag) })
		expect(cached.status).toBe(304)
	})
})
