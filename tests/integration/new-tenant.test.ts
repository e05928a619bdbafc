import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findUserByEmail, updateUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, findTenantBySlug } from '#tests/support/repository.ts'

// Issue 40: a new tenant starts with someone to run it. Creating it names its first admin, invited in the
// same transaction and mailed from the tenant's own host; their empty course list says where courses come from.
describe.each(DIALECTS)('a new tenant’s first admin on %s', (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(() => stack?.close())

	it('invites the named address as tenant admin, who accepts on the tenant’s host and finds an explained empty list', async () => {
		const apex = await stack.signIn('root@platform.test', 'localhost')
		// The address is required: without it nothing is created.
		const missing = await apex.post('/admin/tenants', { intent: 'create', slug: 'hooli', name: 'Hooli Academy' })
		expect(missing.status).toBe(400)
		expect(missing.text).toContain('Enter the email address of the person who will run this tenant')
		expect(await findTenantBySlug(stack.db, 'hooli')).toBeNull()

		const head = `head-${dialect}@hooli.test`
		// The platform admin works in German: the invitation is written in their page's language (the invitee
		// has no account yet to have one of their own).
		await updateUser(stack.db, stack.seeded.users['platform:root@platform.test'].id, { locale: 'de' })
		const created = await apex.post('/de/admin/tenants', {
			intent: 'create',
			slug: 'hooli',
			name: 'Hooli Academy',
			admin_email: head,
		})
		expect(created.status).toBe(302)
		expect(created.headers.location).toBe('/de/admin/tenants?notice=created')
		const tenant = (await findTenantBySlug(stack.db, 'hooli'))!
		const audit = await auditRowsFor(stack.db, tenant.id, tenant.id)
		expect(audit.map((a) => a.action)).toContain('tenant.created')

		const mail = await stack.mail.waitFor(head)
		expect(mail.subject).toMatch(/^Sie wurden eingeladen|Einladung/)
		expect(mail.text).toContain('Administration')
		// The link is on the tenant's own host.
		expect(mail.text).toMatch(new RegExp(`http://hooli\\.localhost:${stack.port}/de/invite/\\S+`))
		const link = linkIn(mail, '/de/invite/')
		const b = stack.browser('hooli.localhost')
		expect((await b.get(link)).status).toBe(200)
		const accepted = await b.post(link, { name: 'Hana Head', password: 'hooli-first-admin-2026' })
		expect(accepted.status).toBe(302)
		const admin = (await findUserByEmail(stack.db, tenant.id, head))!
		expect(admin.role).toBe('tenant_admin')

		// Their course list: none yet, and where they come from.
		const courses = await b.get('/de/admin/courses')
		expect(courses.status).toBe(200)
		expect(load(courses.text)('main .empty').text()).toContain('Kurse kommen aus dem Inhaltsdienst')
	})
})
