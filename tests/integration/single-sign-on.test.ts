import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail, updateUser } from '#db/users.ts'
import { createUser } from '#tests/support/repository.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { IDP_CLIENT, startOidcProvider, type OidcIdp } from '#tests/support/oidc-idp.ts'
import { addProvider, ssoSignIn } from '#tests/support/sso.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const ACME = 'acme.localhost'

describe.each(DIALECTS)('single sign-on with a tenant’s OpenID provider on %s', (dialect) => {
	let stack: Stack
	let idp: OidcIdp
	let acme: Tenant
	let admin: Browser
	let providerId: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		idp = await startOidcProvider()
		acme = stack.seeded.tenants.acme
		admin = await stack.signIn('admin@acme.test')
		providerId = await addProvider(stack, admin, idp, {
			domains: 'uni.test',
			roleClaim: 'groups',
			courseAdminValues: 'teachers',
			tenantAdminValues: 'it-admins',
		})
	})
	afterAll(async () => {
		await stack?.close()
		await idp?.close()
	})

	const audit = (action: string, targetId: string) =>
		stack.db.orm
			.select()
			.from(stack.db.t.audit_log)
			.where(and(eq(stack.db.t.audit_log.action, action), eq(stack.db.t.audit_log.target_id, targetId)))

	it('connects a provider from the admin page: discovery checked, secret sealed, never shown, audited without it', async () => {
		const [row] = await stack.db.orm
			.select()
			.from(stack.db.t.identity_providers)
			.where(eq(stack.db.t.identity_providers.id, providerId))
		expect(row).toMatchObject({ tenant_id: acme.id, kind: 'oidc', issuer: idp.issuer, enabled: true })
		expect(row.client_secret_sealed).toMatch(/^v1\./)
		expect(row.client_secret_sealed).not.toContain(IDP_CLIENT.secret)
		const page = await admin.get('/admin/settings/sign-in')
		expect(page.status).toBe(200)
		expect(page.text).toContain(`/api/auth/sso/${providerId}/callback`)
		const edit = await admin.get(`/admin/settings/sign-in?edit=${providerId}`)
		expect(edit.text).toContain(IDP_CLIENT.id)
		expect(edit.text).not.toContain(IDP_CLIENT.secret)
		const [added] = await audit('sso.provider_added', providerId)
		expect(added.metadata).toMatchObject({ issuer: idp.issuer, domains: ['uni.test'], secretChanged: true })
		expect(JSON.stringify(added)).not.toContain(IDP_CLIENT.secret)

		// An issuer that answers no discovery document: the field's error, nothing stored.
		const bad = await admin.post('/admin/settings/sign-in', {
			intent: 'save',
			label: 'Nowhere',
			issuer: 'http://127.0.0.1:9/nowhere',
			clientId: 'x',
			clientSecret: 'y',
		})
		expect(bad.status).toBe(400)
		expect(bad.text).toMatch(/id="[^"]*issuer-error"/)
		expect(bad.text).not.toContain('value="y"')
	})

	it('shows a button per enabled provider on the tenant sign-in page, and the email step sends a claimed address to it', async () => {
		const page = await stack.request(ACME, '/learn/sign-in')
		expect(page.text).toContain(`action="/api/auth/sso/${providerId}"`)
		expect(page.text).toContain('Continue with Acme University')
		const step = await stack.browser(ACME).post('/learn/sign-in', { email: 'someone@uni.test', password: '' })
		expect(step.status).toBe(302)
		const to = new URL(String(step.headers.location))
		expect(to.origin).toBe(idp.issuer)
		expect(to.searchParams.get('code_challenge_method')).toBe('S256')
		expect(to.searchParams.get('nonce')).toBeTruthy()
	})

	it('creates a student just in time, links the identity to this tenant and lands on the dashboard', async () => {
		idp.account({ sub: 'jit-1', email: 'New.Student@uni.test', email_verified: true, name: 'New Student' })
		const b = stack.browser(ACME)
		const res = await ssoSignIn(b, providerId, idp, 'jit-1')
		expect(res.status).toBe(302)
		expect(res.headers.location).toBe('/learn/dashboard')
		const user = (await findUserByEmail(stack.db, acme.id, 'new.student@uni.test'))!
		expect(user).toMatchObject({ role: 'student', name: 'New Student' })
		const links = await stack.db.orm
			.select()
			.from(stack.db.t.oauth_accounts)
			.where(eq(stack.db.t.oauth_accounts.user_id, user.id))
		expect(links).toMatchObject([{ tenant_id: acme.id, provider: `sso:${providerId}`, provider_account_id: 'jit-1' }])
		expect((await b.get('/learn/dashboard')).status).toBe(200)
	})

	it('re-reads the role claim at each sign-in and audits each change', async () => {
		idp.account({ sub: 'role-1', email: 'teacher@uni.test', email_verified: true, groups: ['teachers'] })
		await ssoSignIn(stack.browser(ACME), providerId, idp, 'role-1')
		const user = (await findUserByEmail(stack.db, acme.id, 'teacher@uni.test'))!
		expect(user.role).toBe('course_admin')
		idp.account({ sub: 'role-1', email: 'teacher@uni.test', email_verified: true, groups: ['it-admins'] })
		const again = await ssoSignIn(stack.browser(ACME), providerId, idp, 'role-1')
		expect(again.headers.location).toBe('/admin')
		expect((await findUserByEmail(stack.db, acme.id, 'teacher@uni.test'))!.role).toBe('tenant_admin')
		idp.account({ sub: 'role-1', email: 'teacher@uni.test', email_verified: true, groups: [] })
		await ssoSignIn(stack.browser(ACME), providerId, idp, 'role-1')
		expect((await findUserByEmail(stack.db, acme.id, 'teacher@uni.test'))!.role).toBe('student')
		const changes = (await audit('user.role_changed', user.id)).map((r) => r.metadata)
		expect(changes).toHaveLength(3)
		expect(changes).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ from: 'student', to: 'course_admin', via: 'sso', viaId: providerId }),
				expect.objectContaining({ from: 'course_admin', to: 'tenant_admin', via: 'sso' }),
				expect.objectContaining({ from: 'tenant_admin', to: 'student', via: 'sso' }),
			]),
		)
		// The same claim again changes nothing and writes no audit row.
		await ssoSignIn(stack.browser(ACME), providerId, idp, 'role-1')
		expect(await audit('user.role_changed', user.id)).toHaveLength(3)
	})

	it('refuses a deactivated account and an unverified address, writing nothing', async () => {
		const left = await createUser(stack.db, {
			tenant_id: acme.id,
			email: 'left@uni.test',
			name: 'Left',
			role: 'student',
		})
		await updateUser(stack.db, left.id, { deactivated_at: new Date() })
		idp.account({ sub: 'gone-1', email: 'left@uni.test', email_verified: true })
		const gone = await ssoSignIn(stack.browser(ACME), providerId, idp, 'gone-1')
		expect(gone.headers.location).toBe('/learn/sign-in/error?error=oauth_account_deactivated')

		idp.account({ sub: 'unv-1', email: 'unverified@uni.test', email_verified: false })
		const unverified = await ssoSignIn(stack.browser(ACME), providerId, idp, 'unv-1')
		expect(unverified.headers.location).toBe('/learn/sign-in/error?error=oauth_email_unverified')
		expect(await findUserByEmail(stack.db, acme.id, 'unverified@uni.test')).toBeNull()
		const o = stack.db.t.oauth_accounts
		const links = await stack.db.orm
			.select()
			.from(o)
			.where(and(eq(o.tenant_id, acme.id), eq(o.provider, `sso:${providerId}`)))
		expect(links.map((l) => l.provider_account_id)).not.toEqual(expect.arrayContaining(['gone-1']))
		expect(links.map((l) => l.provider_account_id)).not.toEqual(expect.arrayContaining(['unv-1']))
	})

	it('requires single sign-on for claimed domains: passwords, magic links and resets refused, a tenant admin’s password kept', async () => {
		const strict = await addProvider(stack, admin, idp, {
			label: 'Strict School',
			domains: 'strict.test',
			requireSso: true,
		})
		await createUser(stack.db, {
			tenant_id: acme.id,
			email: 'pupil@strict.test',
			name: 'Pupil',
			role: 'student',
			email_verified_at: new Date(),
			password_hash: (await findUserByEmail(stack.db, acme.id, 'learner@acme.test'))!.password_hash,
		})
		await createUser(stack.db, {
			tenant_id: acme.id,
			email: 'head@strict.test',
			name: 'Head',
			role: 'tenant_admin',
			email_verified_at: new Date(),
			password_hash: (await findUserByEmail(stack.db, acme.id, 'admin@acme.test'))!.password_hash,
		})
		const b = stack.browser(ACME)
		const password = await b.post('/learn/sign-in', { email: 'pupil@strict.test', password: DEMO_PASSWORD })
		expect(password.status).toBe(403)
		expect(password.text).toContain('Addresses at strict.test sign in with Strict School.')
		expect(password.text).toContain(`action="/api/auth/sso/${strict}"`)
		expect(String(password.headers['set-cookie'] ?? '')).not.toContain('lms_session')

		const magic = await b.post('/learn/magic', { email: 'pupil@strict.test' })
		expect(magic.status).toBe(403)
		expect(magic.text).toContain('Addresses at strict.test sign in with Strict School.')

		const before = stack.mail.messages.length
		const forgot = await b.post('/learn/forgot', { email: 'pupil@strict.test' })
		expect(forgot.status).toBe(403)
		expect(forgot.text).toContain('Addresses at strict.test sign in with Strict School.')
		await stack.settled()
		expect(stack.mail.messages.slice(before).filter((m) => m.to === 'pupil@strict.test')).toHaveLength(0)

		const signUp = await b.post('/learn/sign-up', {
			name: 'New',
			email: 'new@strict.test',
			password: 'a-long-pass-2026!',
		})
		expect(signUp.status).toBe(403)
		expect(signUp.text).toContain('Addresses at strict.test sign in with Strict School.')
		expect(await findUserByEmail(stack.db, acme.id, 'new@strict.test')).toBeNull()

		// Break-glass: the tenant admin's password still signs in.
		const head = await stack
			.browser(ACME)
			.post('/learn/sign-in', { email: 'head@strict.test', password: DEMO_PASSWORD })
		expect(head.status).toBe(302)
		expect(head.headers.location).toBe('/admin')
	})
})
