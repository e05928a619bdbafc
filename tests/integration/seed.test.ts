import { and, count, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyPassword } from '#app/accounts/password.server.ts'
import { DEMO_USERS, seedDemoData } from '#db/seed.ts'
import { findUserByEmail } from '#db/users.ts'
import { assignedCourseSlugs, findEnrollment } from '#db/learning.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

describe.each(DIALECTS)('demo seed on %s', (dialect) => {
	let db: TestDatabase
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
	})
	afterAll(() => db?.drop())

	const tenant = async (slug: string) => (await findTenantBySlug(db, slug))!

	it('creates the three demo tenants with their status, domain and flags', async () => {
		const acme = await tenant('acme')
		expect(acme).toMatchObject({ status: 'active', custom_domain: 'learn.acme.test' })
		expect((await tenant('globex')).feature_flags_json).toEqual({ magicLink: false })
		const initech = await tenant('initech')
		expect(initech.status).toBe('suspended')
		expect(initech.suspended_at).toBeInstanceOf(Date)
	})

	it('creates every demo account with the demo password', async () => {
		for (const u of DEMO_USERS) {
			const t = u.tenant ? await tenant(u.tenant) : null
			const user = await findUserByEmail(db, t?.id ?? null, u.email)
			expect(user, u.email).not.toBeNull()
			expect(user!.role).toBe(u.role)
			expect(Boolean(user!.deactivated_at)).toBe(Boolean(u.deactivated))
		}
		const root = await findUserByEmail(db, null, 'root@platform.test')
		expect(root!.tenant_id).toBeNull()
		expect(await verifyPassword(DEMO_PASSWORD, root!.password_hash)).toBe(true)
		expect(await verifyPassword('wrong-password', root!.password_hash)).toBe(false)
	})

	it('keeps shared@example.test as two independent users', async () => {
		const a = await findUserByEmail(db, (await tenant('acme')).id, 'shared@example.test')
		const g = await findUserByEmail(db, (await tenant('globex')).id, 'shared@example.test')
		expect(a!.id).not.toBe(g!.id)
	})

	it('enrolls the learner with the first lesson complete and assigns the author', async () => {
		const acme = await tenant('acme')
		const learner = (await findUserByEmail(db, acme.id, 'learner@acme.test'))!
		const scope = { tenantId: acme.id, userId: learner.id }
		expect((await findEnrollment(db, scope, 'intro-to-web'))!.status).toBe('active')
		const progress = await db.orm.select().from(db.t.entry_progress).where(eq(db.t.entry_progress.user_id, learner.id))
		expect(progress.map((p) => [p.entry_slug, Boolean(p.completed_at)])).toEqual([['what-is-http', true]])
		const author = (await findUserByEmail(db, acme.id, 'author@acme.test'))!
		expect(await assignedCourseSlugs(db, { tenantId: acme.id, userId: author.id })).toEqual(['intro-to-web'])
		const newbie = (await findUserByEmail(db, acme.id, 'newbie@acme.test'))!
		expect(await findEnrollment(db, { tenantId: acme.id, userId: newbie.id }, 'intro-to-web')).toBeNull()
	})

	it('is idempotent', async () => {
		const counts = async () => ({
			tenants: (await db.orm.select({ n: count() }).from(db.t.tenants))[0].n,
			users: (await db.orm.select({ n: count() }).from(db.t.users))[0].n,
			enrollments: (await db.orm.select({ n: count() }).from(db.t.enrollments))[0].n,
			progress: (await db.orm.select({ n: count() }).from(db.t.entry_progress))[0].n,
			assignments: (await db.orm.select({ n: count() }).from(db.t.course_admin_assignments))[0].n,
		})
		const before = await counts()
		await seedDemoData(db, DEMO_PASSWORD)
		expect(await counts()).toEqual(before)
		expect(before).toEqual({ tenants: 3, users: DEMO_USERS.length, enrollments: 1, progress: 1, assignments: 1 })
		const platform = await db.orm
			.select({ n: count() })
			.from(db.t.users)
			.where(and(isNull(db.t.users.tenant_id)))
		expect(platform[0].n).toBe(1)
	})
})
