import { and, count, desc, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COUNT_CAP, listUsers, PAGE_SIZE } from '#db/admin.ts'
import { isErasedEmail } from '#db/data-rights.ts'
import { erasePersonSteps } from '#db/erasure.ts'
import { seedDemoData } from '#db/seed.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserByEmail } from '#db/users.ts'
import {
	createTestDatabase,
	DIALECTS,
	execRaw,
	seriesSql as series,
	type TestDatabase,
} from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

describe.each(DIALECTS)('the admin users list on %s', (dialect) => {
	let db: TestDatabase
	let acme: string
	let globex: string
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
		acme = (await findTenantBySlug(db, 'acme'))!.id
		globex = (await findTenantBySlug(db, 'globex'))!.id
		const empty = dialect === 'pg' ? 'NULL' : `''`
		// 140 users in threes that share one created_at (ties broken by id), then 60 in one
		// statement: on PostgreSQL they share the database's now(), with microseconds.
		const at =
			dialect === 'pg'
				? (expr: string) => `(timestamp '2025-01-01' + (${expr}) * interval '1 second')`
				: (expr: string) => `(1735689600000 + (${expr}) * 1000)`
		const now = dialect === 'pg' ? 'now()' : `CAST(unixepoch('subsec') * 1000 AS INTEGER)`
		for (const [prefix, total, created] of [
			['tie', 140, at('n / 3')],
			['now', 60, now],
		] as const) {
			await execRaw(
				db,
				`INSERT INTO users (id, tenant_id, email, password_hash, role, name, locale, email_verified_at, token_version, deactivated_at, created_at, updated_at)
				 SELECT '${prefix}-' || n, '${acme}', '${prefix}-' || n || '@acme.test', ${empty}, 'student', 'Paged ' || n, 'en', NULL, 0, NULL, ${created}, ${created} FROM ${series(db, total)}`,
			)
		}
	})
	afterAll(() => db?.drop())

	/** Every acme user id in list order, counted by the database itself. */
	async function expectedOrder() {
		const u = db.t.users
		return (
			await db.orm.select({ id: u.id }).from(u).where(eq(u.tenant_id, acme)).orderBy(desc(u.created_at), desc(u.id))
		).map((r) => r.id)
	}

	it('walks forward and back through keyset pages, every user exactly once and in order', async () => {
		const expected = await expectedOrder()
		expect(expected.length).toBeGreaterThan(4 * PAGE_SIZE)
		const forward: string[][] = []
		let page = await listUsers(db, { tenantId: acme })
		expect(page.firstPage).toBe(true)
		expect(page.previous).toBeNull()
		expect(page.total).toBe(expected.length)
		for (;;) {
			forward.push(page.rows.map((r) => r.id))
			if (!page.next) break
			page = await listUsers(db, { tenantId: acme, after: page.next })
			expect(page.firstPage).toBe(false)
			expect(page.previous).toBe(page.rows[0].id)
		}
		expect(forward.flat()).toEqual(expected)
		expect(forward.slice(0, -1).every((rows) => rows.length === PAGE_SIZE)).toBe(true)
		// Back from the last page through the `previous` cursors: the same pages, reversed.
		const backward: string[][] = [forward.at(-1)!]
		while (page.previous) {
			page = await listUsers(db, { tenantId: acme, before: page.previous })
			backward.unshift(page.rows.map((r) => r.id))
			expect(page.next).toBe(page.rows.at(-1)!.id)
		}
		expect(backward.flat()).toEqual(expected)
	})

	it('pages within filters and searches too', async () => {
		const u = db.t.users
		const matching = (
			await db.orm
				.select({ id: u.id })
				.from(u)
				.where(and(eq(u.tenant_id, acme), like(u.email, 'tie-%')))
				.orderBy(desc(u.created_at), desc(u.id))
		).map((r) => r.id)
		const seen: string[] = []
		let page = await listUsers(db, { tenantId: acme, q: 'TIE-', status: 'unverified' })
		expect(page.total).toBe(matching.length)
		// The first page and its total come from one statement over a subquery: still typed rows.
		expect(page.rows[0].created_at).toBeInstanceOf(Date)
		for (;;) {
			seen.push(...page.rows.map((r) => r.id))
			if (!page.next) break
			page = await listUsers(db, { tenantId: acme, q: 'TIE-', status: 'unverified', after: page.next })
		}
		expect(seen).toEqual(matching)
	})

	it('finds nothing after a cursor of another tenant or an unknown id', async () => {
		const [other] = await db.orm
			.select({ id: db.t.users.id })
			.from(db.t.users)
			.where(eq(db.t.users.tenant_id, globex))
			.limit(1)
		for (const cursor of [other.id, 'no-such-user', 'x\u0000y']) {
			const after = await listUsers(db, { tenantId: acme, after: cursor })
			expect(after.rows, cursor).toEqual([])
			expect(after.next).toBeNull()
			const before = await listUsers(db, { tenantId: acme, before: cursor })
			expect(before.rows, cursor).toEqual([])
		}
	})

	it('counts a total without a counter up to COUNT_CAP, then says there are more', async () => {
		const empty = dialect === 'pg' ? 'NULL' : `''`
		await execRaw(
			db,
			`INSERT INTO users (id, tenant_id, email, password_hash, role, name, locale, email_verified_at, token_version, deactivated_at, created_at, updated_at)
			 SELECT 'cap-' || n, '${globex}', 'cap-' || n || '@globex.test', ${empty}, 'student', 'Capped ' || n, 'en', NULL, 0, NULL, ${dialect === 'pg' ? 'now()' : '0'}, ${dialect === 'pg' ? 'now()' : '0'} FROM ${series(db, COUNT_CAP + 5)}`,
		)
		const broad = await listUsers(db, { tenantId: globex, q: 'capped' })
		expect(broad.total).toBe(COUNT_CAP + 1)
		expect(broad.totalCapped).toBe(true)
		expect(broad.rows).toHaveLength(PAGE_SIZE)
		const narrow = await listUsers(db, { tenantId: globex, q: 'cap-1000' })
		const u = db.t.users
		const [{ n }] = await db.orm
			.select({ n: count() })
			.from(u)
			.where(and(eq(u.tenant_id, globex), like(u.email, '%cap-1000%')))
		expect(narrow.total).toBe(Number(n))
		expect(narrow.totalCapped).toBe(false)
		// A counter answers the unfiltered total exactly, however large.
		const all = await listUsers(db, { tenantId: globex })
		expect(all.total).toBeGreaterThan(COUNT_CAP + 1)
		expect(all.totalCapped).toBe(false)
	})

	it('leaves erased people out of every list but the erased one, totals included (issue 52)', async () => {
		const admin = (await findUserByEmail(db, acme, 'admin@acme.test'))!
		for (const id of ['now-1', 'now-2'])
			expect(
				await inTransaction(db, (tx) => erasePersonSteps(tx, { tenantId: acme, userId: id }, admin.id)),
			).toBeTruthy()
		const u = db.t.users
		const people = await db.orm.select().from(u).where(eq(u.tenant_id, acme))
		const alive = people.filter((p) => !isErasedEmail(p.email))
		const cases = [
			[{}, alive],
			[{ role: 'student' as const }, alive.filter((p) => p.role === 'student')],
			[{ status: 'unverified' as const }, alive.filter((p) => !p.email_verified_at)],
			[{ status: 'deactivated' as const }, alive.filter((p) => p.deactivated_at)],
			[{ status: 'active' as const }, alive.filter((p) => !p.deactivated_at)],
			[{ q: 'now-' }, alive.filter((p) => p.email.startsWith('now-'))],
			[{ status: 'erased' as const }, people.filter((p) => isErasedEmail(p.email))],
		] as const
		for (const [filters, expected] of cases) {
			const seen: string[] = []
			let page = await listUsers(db, { tenantId: acme, ...filters })
			// Counters (the first four) hold the erased too: the total takes them off again.
			expect(page.total, JSON.stringify(filters)).toBe(expected.length)
			for (;;) {
				seen.push(...page.rows.map((r) => r.id))
				if (!page.next) break
				page = await listUsers(db, { tenantId: acme, ...filters, after: page.next })
			}
			expect(seen.sort(), JSON.stringify(filters)).toEqual(expected.map((p) => p.id).sort())
		}
		expect(
			cases
				.at(-1)![1]
				.map((p) => p.id)
				.sort(),
		).toEqual(['now-1', 'now-2'])
	})
})
