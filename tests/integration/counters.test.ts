import { and, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listUsers, PAGE_SIZE } from '#db/admin.ts'
import { courseEntryStats, courseRoster } from '#db/course-roster.ts'
import { markEntryCompleteRow, putEnrollment, touchEntry } from '#db/learning.ts'
import { seedDemoData } from '#db/seed.ts'
import { noPassword, updateUser } from '#db/users.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { createUser, findTenantBySlug, recordAttempt } from '#tests/support/repository.ts'

type Row = { tenant: string; course: string; entry: string; metric: string; bucket: number; n: number; total: number }
const key = (r: Row) => `${r.tenant}|${r.course}|${r.entry}|${r.metric}|${r.bucket}`

/** What stats_counters must hold: the same aggregates counted from the specification's tables. */
async function recount(db: TestDatabase): Promise<Row[]> {
	const { users: u, enrollments: e, entry_progress: p, quiz_attempts: q } = db.t
	const [users, roles, deactivated, unverified, enrollments, enrolled, completed, attempts, numbers] =
		await Promise.all([
			db.orm.select({ tenant: u.tenant_id, n: count() }).from(u).where(isNotNull(u.tenant_id)).groupBy(u.tenant_id),
			db.orm
				.select({ tenant: u.tenant_id, role: u.role, n: count() })
				.from(u)
				.where(isNotNull(u.tenant_id))
				.groupBy(u.tenant_id, u.role),
			db.orm
				.select({ tenant: u.tenant_id, n: count() })
				.from(u)
				.where(and(isNotNull(u.tenant_id), isNotNull(u.deactivated_at)))
				.groupBy(u.tenant_id),
			db.orm
				.select({ tenant: u.tenant_id, n: count() })
				.from(u)
				.where(and(isNotNull(u.tenant_id), isNull(u.email_verified_at)))
				.groupBy(u.tenant_id),
			db.orm
				.select({ tenant: e.tenant_id, course: e.course_slug, n: count() })
				.from(e)
				.groupBy(e.tenant_id, e.course_slug),
			db.orm
				.select({ tenant: e.tenant_id, course: e.course_slug, n: count() })
				.from(e)
				.where(inArray(e.status, ['active', 'completed']))
				.groupBy(e.tenant_id, e.course_slug),
			db.orm
				.select({ tenant: p.tenant_id, course: p.course_slug, entry: p.entry_slug, n: count() })
				.from(p)
				.where(isNotNull(p.completed_at))
				.groupBy(p.tenant_id, p.course_slug, p.entry_slug),
			db.orm
				.select({
					tenant: q.tenant_id,
					course: q.course_slug,
					entry: q.entry_slug,
					n: count(),
					total: sql<number>`sum(${q.score})`,
				})
				.from(q)
				.groupBy(q.tenant_id, q.course_slug, q.entry_slug),
			db.orm
				.select({
					tenant: q.tenant_id,
					course: q.course_slug,
					entry: q.entry_slug,
					bucket: q.attempt_number,
					n: count(),
				})
				.from(q)
				.groupBy(q.tenant_id, q.course_slug, q.entry_slug, q.attempt_number),
		])
	const rows: Row[] = [
		...users.map((r) => ({ tenant: r.tenant!, course: '', entry: '', metric: 'users', bucket: 0, n: r.n, total: 0 })),
		...roles.map((r) => ({
			tenant: r.tenant!,
			course: '',
			entry: '',
			metric: `role:${r.role}`,
			bucket: 0,
			n: r.n,
			total: 0,
		})),
		...deactivated.map((r) => ({
			tenant: r.tenant!,
			course: '',
			entry: '',
			metric: 'deactivated',
			bucket: 0,
			n: r.n,
			total: 0,
		})),
		...unverified.map((r) => ({
			tenant: r.tenant!,
			course: '',
			entry: '',
			metric: 'unverified',
			bucket: 0,
			n: r.n,
			total: 0,
		})),
		...enrollments.map((r) => ({
			tenant: r.tenant,
			course: r.course,
			entry: '',
			metric: 'enrollments',
			bucket: 0,
			n: r.n,
			total: 0,
		})),
		...enrolled.map((r) => ({
			tenant: r.tenant,
			course: r.course,
			entry: '',
			metric: 'enrolled',
			bucket: 0,
			n: r.n,
			total: 0,
		})),
		...completed.map((r) => ({
			tenant: r.tenant,
			course: r.course,
			entry: r.entry,
			metric: 'completed',
			bucket: 0,
			n: r.n,
			total: 0,
		})),
		...attempts.map((r) => ({
			tenant: r.tenant,
			course: r.course,
			entry: r.entry,
			metric: 'attempts',
			bucket: 0,
			n: r.n,
			total: Number(r.total),
		})),
		...numbers.map((r) => ({
			tenant: r.tenant,
			course: r.course,
			entry: r.entry,
			metric: 'attempt_number',
			bucket: r.bucket,
			n: r.n,
			total: 0,
		})),
	]
	return rows.map((r) => ({ ...r, n: Number(r.n) })).sort((a, b) => key(a).localeCompare(key(b)))
}

async function counters(db: TestDatabase): Promise<Row[]> {
	const c = db.t.stats_counters
	const rows = await db.orm.select().from(c)
	return rows
		.filter((r) => r.n !== 0 || Number(r.total) !== 0)
		.map((r) => ({
			tenant: r.tenant_id,
			course: r.course_slug,
			entry: r.entry_slug,
			metric: r.metric,
			bucket: r.bucket,
			n: r.n,
			total: Number(r.total),
		}))
		.sort((a, b) => key(a).localeCompare(key(b)))
}

describe.each(DIALECTS)('derived counters on %s', (dialect) => {
	let db: TestDatabase
	let acme: string
	let globex: string
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
		acme = (await findTenantBySlug(db, 'acme'))!.id
		globex = (await findTenantBySlug(db, 'globex'))!.id
	})
	afterAll(() => db?.drop())

	let counter = 0
	const learner = async (tenantId: string) => {
		const user = await createUser(db, {
			tenant_id: tenantId,
			email: `counted-${++counter}@example.test`,
			name: `Counted ${counter}`,
			role: 'student',
			password_hash: noPassword(db),
		})
		return { tenantId, userId: user.id }
	}

	it('start equal to the seeded records (the migration counted what was there, the triggers the seed)', async () => {
		const expected = await recount(db)
		expect(expected.length).toBeGreaterThan(3)
		expect(await counters(db)).toEqual(expected)
	})

	it('follow inserts, upserts, status changes, re-completions and deletions', async () => {
		const a = await learner(acme)
		const b = await learner(globex)
		await putEnrollment(db, a, 'intro-to-web', 'active')
		await putEnrollment(db, b, 'intro-to-web', 'pending')
		await touchEntry(db, a, 'intro-to-web', 'what-is-http')
		await markEntryCompleteRow(db, a, 'intro-to-web', 'what-is-http')
		await markEntryCompleteRow(db, a, 'intro-to-web', 'what-is-http') // again: no double count
		await markEntryCompleteRow(db, b, 'intro-to-web', 'html-forms')
		for (const score of [40, 90])
			await recordAttempt(db, a, 'intro-to-web', 'basics-quiz', 3, {
				score,
				passed: score >= 70,
				answers: {},
				feedback: [],
			})
		await putEnrollment(db, a, 'intro-to-web', 'completed') // active → completed: still enrolled
		await putEnrollment(db, b, 'intro-to-web', 'active') // pending → active
		await putEnrollment(db, b, 'intro-to-web', 'cancelled') // active → cancelled
		const { entry_progress: p, quiz_attempts: q, users: u } = db.t
		await db.orm
			.update(p)
			.set({ completed_at: null })
			.where(and(eq(p.user_id, b.userId), eq(p.entry_slug, 'html-forms')))
		await db.orm.delete(q).where(and(eq(q.user_id, a.userId), eq(q.attempt_number, 2)))
		await updateUser(db, a.userId, { role: 'course_admin', email_verified_at: new Date() })
		await updateUser(db, b.userId, { role: 'tenant_admin' })
		await updateUser(db, b.userId, { deactivated_at: new Date() })
		await updateUser(db, b.userId, { deactivated_at: null, email_verified_at: new Date() })
		await updateUser(db, b.userId, { deactivated_at: new Date() })
		const gone = await learner(acme)
		await db.orm.delete(u).where(eq(u.id, gone.userId))
		expect(await counters(db)).toEqual(await recount(db))
	})

	it('stay exact under concurrent writes', async () => {
		const people = await Promise.all(Array.from({ length: 20 }, () => learner(acme)))
		await Promise.all(people.map((s) => putEnrollment(db, s, 'advanced-css', 'active')))
		await Promise.all([
			...people.map((s) => markEntryCompleteRow(db, s, 'advanced-css', 'grid')),
			// One learner completing the same entry in parallel: one completion.
			...Array.from({ length: 10 }, () => markEntryCompleteRow(db, people[0], 'advanced-css', 'flexbox')),
			// Parallel quiz submissions of one learner: numbers 1..3 and no more.
			...Array.from({ length: 6 }, (_, i) =>
				recordAttempt(db, people[1], 'advanced-css', 'final-quiz', 3, {
					score: 10 * i,
					passed: false,
					answers: {},
					feedback: [],
				}),
			),
		])
		expect(await counters(db)).toEqual(await recount(db))
	})

	it('feed the course dashboard the same figures as counting the rows', async () => {
		const stats = await courseEntryStats(db, acme, 'intro-to-web')
		const { entry_progress: p, quiz_attempts: q, enrollments: e } = db.t
		const completions = await db.orm
			.select({ entrySlug: p.entry_slug, completed: count() })
			.from(p)
			.where(and(eq(p.tenant_id, acme), eq(p.course_slug, 'intro-to-web'), isNotNull(p.completed_at)))
			.groupBy(p.entry_slug)
		expect(stats.completions.map((c) => ({ ...c })).sort((x, y) => x.entrySlug.localeCompare(y.entrySlug))).toEqual(
			completions
				.map((c) => ({ ...c, completed: Number(c.completed) }))
				.sort((x, y) => x.entrySlug.localeCompare(y.entrySlug)),
		)
		const [scores] = await db.orm
			.select({ average: sql<number>`avg(${q.score})`, attempts: count() })
			.from(q)
			.where(and(eq(q.tenant_id, acme), eq(q.course_slug, 'intro-to-web'), eq(q.entry_slug, 'basics-quiz')))
		const quiz = stats.scores.find((s) => s.entrySlug === 'basics-quiz')!
		expect(quiz.attempts).toBe(Number(scores.attempts))
		expect(quiz.average).toBeCloseTo(Number(scores.average), 6)
		const [enrolled] = await db.orm
			.select({ n: count() })
			.from(e)
			.where(and(eq(e.tenant_id, acme), eq(e.course_slug, 'intro-to-web'), inArray(e.status, ['active', 'completed'])))
		expect(stats.enrolled).toBe(Number(enrolled.n))
	})

	it('give the users list and the roster the totals that counting the rows gives', async () => {
		const u = db.t.users
		const where = {
			all: undefined,
			student: eq(u.role, 'student'),
			course_admin: eq(u.role, 'course_admin'),
			active: isNull(u.deactivated_at),
			deactivated: isNotNull(u.deactivated_at),
			unverified: isNull(u.email_verified_at),
		}
		const filters = {
			all: {},
			student: { role: 'student' },
			course_admin: { role: 'course_admin' },
			active: { status: 'active' },
			deactivated: { status: 'deactivated' },
			unverified: { status: 'unverified' },
		} as const
		for (const [name, filter] of Object.entries(filters)) {
			const [{ n }] = await db.orm
				.select({ n: count() })
				.from(u)
				.where(and(eq(u.tenant_id, acme), where[name as keyof typeof where]))
			expect((await listUsers(db, { tenantId: acme, ...filter })).total, name).toBe(Number(n))
		}
		const e = db.t.enrollments
		const [{ n }] = await db.orm
			.select({ n: count() })
			.from(e)
			.where(and(eq(e.tenant_id, acme), eq(e.course_slug, 'intro-to-web')))
		expect((await courseRoster(db, acme, 'intro-to-web', 1)).total).toBe(Number(n))
	})
})

// A course's roster reads the progress and attempts of a page's learners, or of every learner for the
// export, as one list parameter (decision 0109): past a page and past the 999 parameters SQLite once
// allowed a statement, on both databases, each learner's rows and only theirs.
describe.each(DIALECTS)('a course roster of 1,100 learners on %s', (dialect) => {
	let db: TestDatabase
	let acme: string
	const N = 1_100
	const ids = Array.from({ length: N }, (_, i) => `roster-${i}`)
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
		acme = (await findTenantBySlug(db, 'acme'))!.id
		const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000)
		for (let from = 0; from < N; from += 100) {
			const batch = ids.slice(from, from + 100).map((id, k) => ({ id, i: from + k }))
			await db.orm.insert(db.t.users).values(
				batch.map(({ id, i }) => ({
					id,
					tenant_id: acme,
					email: `${id}@acme.test`,
					name: `Roster ${i}`,
					role: 'student' as const,
					password_hash: '',
					created_at: at(i),
					updated_at: at(i),
				})),
			)
			await db.orm.insert(db.t.enrollments).values(
				batch.map(({ id, i }) => ({
					id: `e-${id}`,
					tenant_id: acme,
					user_id: id,
					course_slug: 'intro-to-web',
					status: 'active' as const,
					enrolled_at: at(i),
				})),
			)
			// Every second learner has finished the first lesson.
			await db.orm.insert(db.t.entry_progress).values(
				batch
					.filter(({ i }) => i % 2 === 0)
					.map(({ id, i }) => ({
						id: `p-${id}`,
						tenant_id: acme,
						user_id: id,
						course_slug: 'intro-to-web',
						entry_slug: 'what-is-http',
						completed_at: at(i),
						last_viewed_at: at(i),
					})),
			)
		}
	}, 60_000)
	afterAll(() => db?.drop())

	it('reads every learner for the export and one page’s learners for the dashboard', async () => {
		const all = await courseRoster(db, acme, 'intro-to-web')
		const ours = new Set(ids)
		expect(all.roster.filter((r) => ours.has(r.userId))).toHaveLength(N)
		expect(all.total).toBe(all.roster.length)
		const finished = all.progress.filter((p) => ours.has(p.userId) && p.entrySlug === 'what-is-http')
		expect(new Set(finished.map((p) => p.userId)).size).toBe(N / 2)

		const page = await courseRoster(db, acme, 'intro-to-web', 3)
		const shown = page.roster.map((r) => r.userId)
		expect(shown).toEqual(all.roster.slice(2 * PAGE_SIZE, 3 * PAGE_SIZE).map((r) => r.userId))
		const onPage = new Set(shown)
		expect(page.progress.every((p) => onPage.has(p.userId))).toBe(true)
		expect(page.progress).toEqual(expect.arrayContaining(all.progress.filter((p) => onPage.has(p.userId))))
		expect(page.progress).toHaveLength(all.progress.filter((p) => onPage.has(p.userId)).length)
	})
})
