/**
 * The tenant's time zone (decision 0064): set by its admin at /admin/settings, audited, the default
 * of every learner who has chosen none (their dates follow at once), never another tenant's.
 */
import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTenantById } from '#db/tenants.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

describe.each(DIALECTS)('the tenant’s time zone on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	let globexId: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
		globexId = stack.seeded.tenants.globex.id
	})
	afterAll(() => stack?.close())
	const zoneOnAccount = async (b: Awaited<ReturnType<Stack['signIn']>>) =>
		load((await b.get('/learn/account')).text)('#due-settings select option[selected]').attr('value')

	it('is set by the tenant’s admin, audited, and shown to learners who chose none', async () => {
		const learner = await stack.signIn('learner@acme.test')
		expect(await zoneOnAccount(learner)).toBe('UTC')
		const admin = await stack.signIn('admin@acme.test')
		expect((await admin.get('/admin/settings')).status).toBe(200)
		const saved = await admin.post('/admin/settings', { intent: 'time-zone', timeZone: 'Europe/Madrid' })
		expect(saved.status).toBe(302)
		expect(saved.headers.location).toBe('/admin/settings?notice=settings-saved')
		expect((await findTenantById(stack.db, acmeId))?.feature_flags_json).toMatchObject({ timeZone: 'Europe/Madrid' })
		// The learner's pages follow at once (the host cache was told), the other tenant's are untouched.
		expect(await zoneOnAccount(learner)).toBe('Europe/Madrid')
		expect((await findTenantById(stack.db, globexId))?.feature_flags_json).toEqual({ magicLink: false })
		const audit = (await stack.db.orm.select().from(stack.db.t.audit_log)).filter(
			(r) => r.action === 'tenant.settings_changed' && r.tenant_id === acmeId,
		)
		expect(audit.map((r) => r.metadata)).toEqual([{ timeZone: { from: 'UTC', to: 'Europe/Madrid' } }])
	})

	it('refuses unknown zones beside the field, and everyone but the tenant’s admins', async () => {
		const admin = await stack.signIn('admin@acme.test')
		for (const timeZone of ['Mars/Olympus', '', 'europe/madrid', '../etc/passwd', 'UTC\u0000'])
			expect((await admin.post('/admin/settings', { intent: 'time-zone', timeZone })).status, timeZone).toBe(400)
		const bad = await admin.post('/admin/settings', { intent: 'time-zone', timeZone: 'Mars/Olympus' })
		expect(bad.text).toContain('aria-invalid="true"')
		expect((await admin.post('/admin/settings', { intent: 'other', timeZone: 'UTC' })).status).toBe(400)
		const learner = await stack.signIn('learner@acme.test')
		expect((await learner.post('/admin/settings', { intent: 'time-zone', timeZone: 'Asia/Tokyo' })).status).toBe(403)
		const author = await stack.signIn('author@acme.test')
		expect((await author.post('/admin/settings', { intent: 'time-zone', timeZone: 'Asia/Tokyo' })).status).toBe(404)
		const root = await stack.signIn('root@platform.test', 'localhost')
		expect((await root.get('/admin/settings')).status).toBe(404)
		expect((await admin.get('/admin/settings?intent=time-zone&timeZone=Asia%2FTokyo')).status).toBe(200)
		expect((await findTenantById(stack.db, acmeId))?.feature_flags_json).not.toMatchObject({ timeZone: 'Asia/Tokyo' })
	})
})
