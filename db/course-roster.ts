import { desc, eq, isNotNull, sql } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { PAGE_SIZE, tenantCounter } from './admin.ts'
import { inCourse, inListParam, listParam } from './learning.ts'

/*
 * What a course's admin pages read of its learners (app/admin/course-analytics.server.ts): the roster
 * page by page with their progress and attempts, and the per-entry counts. Prepared, as the learner
 * pages' reads are (issue 47): a course with 10,000 learners shows its dashboard within the budget of
 * a page, and building the same SQL on every view was a fifth of its work.
 */

/** No page: every enrollment (the CSV export); any LIMIT both databases take as a number. */
const ALL = Number.MAX_SAFE_INTEGER

/**
 * A page of a course's roster (every enrollment when `page` is omitted, for
 * the CSV export) with the progress and quiz attempts of just those learners.
 */
export async function courseRoster(db: Database, tenantId: string, courseSlug: string, page?: number) {
	const course = { tenantId, courseSlug }
	const [roster, total] = await Promise.all([
		rosterPage(db).execute({ ...course, limit: page ? PAGE_SIZE : ALL, offset: page ? (page - 1) * PAGE_SIZE : 0 }),
		tenantCounter(db, tenantId, 'enrollments', courseSlug),
	])
	if (roster.length === 0) return { roster, progress: [], attempts: [], total }
	const learners = {
		...course,
		userIds: listParam(
			db,
			roster.map((r) => r.userId),
		),
	}
	const [progress, attempts] = await Promise.all([progressOf(db).execute(learners), attemptsOf(db).execute(learners)])
	return { roster, progress, attempts, total }
}

const rosterPage = preparedFor((db) => {
	const { enrollments: e, users: u } = db.t
	return db.orm
		.select({
			userId: u.id,
			name: u.name,
			email: u.email,
			status: e.status,
			enrolledAt: e.enrolled_at,
			completedAt: e.completed_at,
		})
		.from(e)
		.innerJoin(u, eq(u.id, e.user_id))
		.where(inCourse(e))
		.orderBy(desc(e.enrolled_at), desc(e.id))
		.limit(sql.placeholder('limit'))
		.offset(sql.placeholder('offset'))
		.prepare('roster_page')
})
const progressOf = preparedFor((db) => {
	const p = db.t.entry_progress
	return db.orm
		.select({ userId: p.user_id, entrySlug: p.entry_slug })
		.from(p)
		.where(inCourse(p, isNotNull(p.completed_at), inListParam(db, p.user_id, 'userIds')))
		.prepare('roster_progress')
})
const attemptsOf = preparedFor((db) => {
	const { quiz_attempts: q, quiz_attempt_dues: d } = db.t
	return db.orm
		.select({ userId: q.user_id, entrySlug: q.entry_slug, score: q.score, passed: q.passed, late: d.late })
		.from(q)
		.leftJoin(d, eq(d.attempt_id, q.id))
		.where(inCourse(q, inListParam(db, q.user_id, 'userIds')))
		.prepare('roster_attempts')
})

/**
 * Per-entry counts of a course, read from stats_counters (kept by triggers on
 * every write): one small read however many learners the course has.
 */
export async function courseEntryStats(db: Database, tenantId: string, courseSlug: string) {
	const rows = await courseCounters(db).execute({ tenantId, courseSlug })
	const of = (metric: string) => rows.filter((r) => r.metric === metric && r.n > 0)
	return {
		completions: of('completed').map((r) => ({ entrySlug: r.entry_slug, completed: r.n })),
		scores: of('attempts').map((r) => ({ entrySlug: r.entry_slug, average: Number(r.total) / r.n, attempts: r.n })),
		distribution: of('attempt_number').map((r) => ({ entrySlug: r.entry_slug, attemptNumber: r.bucket, n: r.n })),
		enrolled: of('enrolled').reduce((sum, r) => sum + r.n, 0),
	}
}
const courseCounters = preparedFor((db) => {
	const c = db.t.stats_counters
	return db.orm.select().from(c).where(inCourse(c)).prepare('course_counters')
})
