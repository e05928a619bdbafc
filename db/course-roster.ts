import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm'
import type { Database } from './client.ts'
import { PAGE_SIZE, tenantCounter } from './admin.ts'

/*
 * What a course's admin pages read of its learners (app/admin/course-analytics.server.ts): the roster
 * page by page with their progress and attempts, and the per-entry counts.
 */

/**
 * A page of a course's roster (every enrollment when `page` is omitted, for
 * the CSV export) with the progress and quiz attempts of just those learners.
 */
export async function courseRoster(db: Database, tenantId: string, courseSlug: string, page?: number) {
	const { enrollments: e, users: u, entry_progress: p, quiz_attempts: q, quiz_attempt_dues: d } = db.t
	const where = and(eq(e.tenant_id, tenantId), eq(e.course_slug, courseSlug))
	const query = db.orm
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
		.where(where)
		.orderBy(desc(e.enrolled_at), desc(e.id))
	const [roster, [{ total }]] = await Promise.all([
		page ? query.limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE) : query,
		tenantCounter(db, tenantId, 'enrollments', courseSlug).then((total) => [{ total }]),
	])
	const ids = roster.map((r) => r.userId)
	if (ids.length === 0) return { roster, progress: [], attempts: [], total: Number(total) }
	// Chunks keep the IN lists within SQLite's parameter limit for a full export.
	const chunks = Array.from({ length: Math.ceil(ids.length / 500) }, (_, i) => ids.slice(i * 500, i * 500 + 500))
	const [progress, attempts] = await Promise.all([
		Promise.all(
			chunks.map((chunk) =>
				db.orm
					.select({ userId: p.user_id, entrySlug: p.entry_slug })
					.from(p)
					.where(
						and(
							eq(p.tenant_id, tenantId),
							eq(p.course_slug, courseSlug),
							isNotNull(p.completed_at),
							inArray(p.user_id, chunk),
						),
					),
			),
		),
		Promise.all(
			chunks.map((chunk) =>
				db.orm
					.select({ userId: q.user_id, entrySlug: q.entry_slug, score: q.score, passed: q.passed, late: d.late })
					.from(q)
					.leftJoin(d, eq(d.attempt_id, q.id))
					.where(and(eq(q.tenant_id, tenantId), eq(q.course_slug, courseSlug), inArray(q.user_id, chunk))),
			),
		),
	])
	return { roster, progress: progress.flat(), attempts: attempts.flat(), total: Number(total) }
}

/**
 * Per-entry counts of a course, read from stats_counters (kept by triggers on
 * every write): one small read however many learners the course has.
 */
export async function courseEntryStats(db: Database, tenantId: string, courseSlug: string) {
	const c = db.t.stats_counters
	const rows = await db.orm
		.select()
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.course_slug, courseSlug)))
	const of = (metric: string) => rows.filter((r) => r.metric === metric && r.n > 0)
	return {
		completions: of('completed').map((r) => ({ entrySlug: r.entry_slug, completed: r.n })),
		scores: of('attempts').map((r) => ({ entrySlug: r.entry_slug, average: Number(r.total) / r.n, attempts: r.n })),
		distribution: of('attempt_number').map((r) => ({ entrySlug: r.entry_slug, attemptNumber: r.bucket, n: r.n })),
		enrolled: of('enrolled').reduce((sum, r) => sum + r.n, 0),
	}
}
