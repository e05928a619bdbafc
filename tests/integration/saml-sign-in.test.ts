import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startSamlIdp, type SamlIdp } from '#tests/support/saml-idp.ts'
import { addSamlProvider, samlSignIn } from '#tests/support/sso.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

// SAML 2.0 sign-in with a tenant's identity provider (issue 48, decision 0077), against a real SAML
// IdP (samlify) on loopback that checks our signed AuthnRequests against the SP metadata we serve.
const ACME = 'acme.localhost'

describe.each(DIALECTS)('SAML sign-in with a tenant’s identity provider on %s', (dialect) => {
	let stack: Stack
	let idp: SamlIdp
	let acme: Tenant
	let admin: Browser
	let providerId: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		idp = await startSamlIdp()
		acme = stack.seeded.tenants.acme
		admin = await stack.signIn('admin@acme.test')
		providerId = await addSamlProvider(stack, admin, idp, {
			domains: 'saml.test',
			roleClaim: 'groups',
			courseAdminValues: 'teachers',
			tenantAdminValues: 'it-admins',
		})
	})
	afterAll(async () => {
		await stack?.close()
		await idp?.close()
	})

	it('connects a provider from its pasted metadata: its own SP key sealed, its SP metadata served, audited without the key', async () => {
		const [row] = await stack.db.orm
			.select()
			.from(stack.db.t.identity_providers)
			.where(eq(stack.db.t.identity_providers.id, providerId))
		expect(row).toMatchObject({ tenant_id: acme.id, kind: 'saml', issuer: idp.entityID, client_id: null })
		expect(row.saml_sso_url).toBe(idp.entityID.replace('/metadata', '/sso'))
		expect(row.saml_idp_certs).toMatch(/^-----BEGIN CERTIFICATE-----/)
		expect(row.saml_sp_key_sealed).toMatch(/^v1\./)
		expect(row.saml_sp_key_sealed).not.toContain('PRIVATE KEY')

		const page = await admin.get('/admin/settings/sign-in')
		expect(page.text).toContain(`${admin.origin}/api/auth/saml/${providerId}/acs`)
		expect(page.text).not.toContain('PRIVATE KEY')
		const metadata = await stack.request(ACME, `/api/auth/saml/${providerId}/metadata`)
		expect(metadata.status).toBe(200)
		expect(String(metadata.headers['content-type'])).toContain('application/samlmetadata+xml')
		expect(metadata.text).toContain(`entityID="${admin.origin}/api/auth/saml/${providerId}/metadata"`)
		expect(metadata.text).toContain(`Location="${admin.origin}/api/auth/saml/${providerId}/acs"`)
		expect(metadata.text).toContain('AuthnRequestsSigned="true"')
		expect(metadata.text).toContain('WantAssertionsSigned="true"')
		expect(metadata.text).toContain('<ds:X509Certificate>')
		expect(metadata.text).not.toContain('PRIVATE KEY')
		// Another tenant's host has no such provider.
		expect((await stack.request('globex.localhost', `/api/auth/saml/${providerId}/metadata`)).status).toBe(404)

		const [added] = await stack.db.orm
			.select()
			.from(stack.db.t.audit_log)
			.where(and(eq(stack.db.t.audit_log.action, 'sso.provider_added'), eq(stack.db.t.audit_log.target_id, providerId)))
		expect(added.metadata).toMatchObject({ kind: 'saml', entityId: idp.entityID, domains: ['saml.test'] })
		expect(JSON.stringify(added)).not.toContain('PRIVATE KEY')
		expect(JSON.stringify(added)).not.toContain(row.saml_sp_key_sealed)
	})

	it('refuses metadata that is not an IdP’s, and a SAML provider claiming no domain, storing nothing', async () => {
		const before = await stack.db.orm.select().from(stack.db.t.identity_providers)
		const cases: Array<[Record<string, string>, RegExp]> = [
			[{ metadataXml: '<not-metadata/>' }, /not an identity provider/],
			[
				{ metadataXml: idp.metadata.replace(/<ds:X509Certificate>[^<]+</g, '<ds:X509Certificate>AAAA<') },
				/certificate/,
			],
			[{ metadataXml: idp.metadata.replace(/Location="http:\/\/127\.0\.0\.1/g, 'Location="http://10.0.0.1') }, /https/],
			[{ domains: '' }, /at least one email domain/],
		]
		for (const [fields, message] of cases) {
			const res = await admin.post('/admin/settings/sign-in', {
				intent: 'saveSaml',
				label: 'Broken',
				metadataXml: idp.metadata,
				domains: 'broken.test',
				...fields,
			})
			expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(400)
			expect(res.text).toMatch(message)
		}
		expect(await stack.db.orm.select().from(stack.db.t.identity_providers)).toHaveLength(before.length)
	})

	it('takes the metadata as an uploaded file too (a multipart form, no JavaScript)', async () => {
		const res = await admin.postMultipart(
			'/admin/settings/sign-in',
			{ intent: 'saveSaml', label: 'Uploaded SAML', metadataXml: '', domains: 'upload.test' },
			[{ name: 'idp.xml', type: 'application/xml', body: idp.metadata, field: 'metadataFile' }],
		)
		expect(res.status).toBe(302)
		const [row] = await stack.db.orm
			.select()
			.from(stack.db.t.identity_providers)
			.where(eq(stack.db.t.identity_providers.label, 'Uploaded SAML'))
		expect(row).toMatchObject({ kind: 'saml', issuer: idp.entityID })
	})

	it('signs in: a student created just in time, the NameID linked, the dashboard; the email step goes to the IdP', async () => {
		const b = stack.browser(ACME)
		const res = await samlSignIn(b, providerId, idp, { email: 'New.Learner@saml.test', name: 'New Learner' })
		expect(res.status).toBe(302)
		expect(res.headers.location).toBe('/learn/dashboard')
		const user = (await findUserByEmail(stack.db, acme.id, 'new.learner@saml.test'))!
		expect(user).toMatchObject({ role: 'student', name: 'New Learner' })
		const links = await stack.db.orm
			.select()
			.from(stack.db.t.oauth_accounts)
			.where(eq(stack.db.t.oauth_accounts.user_id, user.id))
		expect(links).toMatchObject([
			{ tenant_id: acme.id, provider: `sso:${providerId}`, provider_account_id: 'New.Learner@saml.test' },
		])
		expect((await b.get('/learn/dashboard')).status).toBe(200)

		const step = await stack.browser(ACME).post('/learn/sign-in', { email: 'someone@saml.test', password: '' })
		expect(step.status).toBe(302)
		const to = new URL(String(step.headers.location))
		expect(`${to.origin}${to.pathname}`).toBe(idp.entityID.replace('/metadata', '/sso'))
		expect(to.searchParams.get('Signature')).toBeTruthy()
		expect(to.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')
	})

	it('maps the groups attribute to a role at each sign-in and audits each change', async () => {
		const email = 'teacher@saml.test'
		await samlSignIn(stack.browser(ACME), providerId, idp, { email, groups: ['staff', 'teachers'] })
		const user = (await findUserByEmail(stack.db, acme.id, email))!
		expect(user.role).toBe('course_admin')
		const again = await samlSignIn(stack.browser(ACME), providerId, idp, { email, groups: ['it-admins'] })
		expect(again.headers.location).toBe('/admin')
		expect((await findUserByEmail(stack.db, acme.id, email))!.role).toBe('tenant_admin')
		await samlSignIn(stack.browser(ACME), providerId, idp, { email, groups: [] })
		expect((await findUserByEmail(stack.db, acme.id, email))!.role).toBe('student')
		const changes = await stack.db.orm
			.select()
			.from(stack.db.t.audit_log)
			.where(and(eq(stack.db.t.audit_log.action, 'user.role_changed'), eq(stack.db.t.audit_log.target_id, user.id)))
		expect(changes.map((c) => c.metadata)).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ from: 'student', to: 'course_admin', via: 'sso', claim: 'groups' }),
				expect.objectContaining({ from: 'course_admin', to: 'tenant_admin', via: 'sso' }),
				expect.objectContaining({ from: 'tenant_admin', to: 'student', via: 'sso' }),
			]),
		)
		expect(changes).toHaveLength(3)
	})
})
