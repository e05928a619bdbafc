import { and, count, eq, ne, sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { step, type Tx } from './transaction.ts'

/*
 * Seats of a paid course (issue 52, decision 0065). A tenant admin may give a course a number of
 * seats, kept in the tenant's feature_flags_json as `courses.<slug>.seats`. A seat is an enrollment
 * that is not cancelled (pending, active or completed: a learner who finished keeps the seat the
 * organisation granted; a cancellation frees it). Counted from the enrollments each time, so no
 * counter can drift from them.
 */

/** The most seats a course can be given: far above any class, and well inside an integer. */
export const MAX_SEATS = 1_000_000

/** The seat limit in a tenant's feature_flags_json for the course, or null (no limit). */
export function seatLimitOf(flags: unknown, courseSlug: string): number | null {
	const courses = (flags as { courses?: Record<string, { seats?: unknown }> } | null)?.courses
	const seats = courses && Object.hasOwn(courses, courseSlug) ? courses[courseSlug]?.seats : undefined
	return typeof seats === 'number' && Number.isInteger(seats) && seats >= 0 && seats <= MAX_SEATS ? seats : null
}

/** Enrollments that hold a seat of the course: every one not cancelled. */
function holding(db: Tx, tenantId: string, courseSlug: string) {
	const e = db.t.enrollments
	return and(eq(e.tenant_id, tenantId), eq(e.course_slug, courseSlug), ne(e.status, 'cancelled'))
}

/** The seats of the course in use (for the course's pages). */
export async function seatsUsed(db: Database, tenantId: string, courseSlug: string) {
	const [row] = await db.orm
		.select({ n: count() })
		.from(db.t.enrollments)
		.where(holding(db, tenantId, courseSlug))
	return Number(row?.n ?? 0)
}

/** The advisory lock class of a course's seats (db/submissions.ts has 727002, db/migrations.ts 727001). */
const SEAT_LOCK_CLASS = 727003

/**
 * Whether the learner may have a seat of the course now, in the caller's transaction, before it
 * enrolls them: `full` when the course has a limit, the learner holds no seat yet, and every seat is
 * taken; else null (a learner already holding one takes no new seat). The limit is read from the
 * tenant's row in this transaction, so a limit saved a moment before counts. Without a learner (an
 * invitation being sent): whether any seat is free.
 *
 * On PostgreSQL the transactions that take a seat of one course run one at a time from here to
 * their commit (an advisory lock): under read committed the count and the insert are separate
 * statements, and without the lock two requests for the last seat would both count one free and
 * both enroll. Each statement after the lock sees what the one before it committed. SQLite needs
 * none: its write transactions run one at a time (BEGIN IMMEDIATE).
 */
export function* seatRefusalSteps(db: Tx, learner: { tenantId: string; userId: string | null }, courseSlug: string) {
	const { tenants: t, enrollments: e } = db.t
	// Only a transaction that takes a seat locks: an invitation being sent takes none (a read).
	if (db.dialect === 'pg' && learner.userId)
		yield* step(
			db.orm.execute(
				sql`select pg_advisory_xact_lock(${SEAT_LOCK_CLASS}, hashtext(${`${learner.tenantId}\n${courseSlug}`}))`,
			),
		)
	const [tenant] = yield* step(
		db.orm.select({ flags: t.feature_flags_json }).from(t).where(eq(t.id, learner.tenantId)).limit(1),
	)
	const limit = seatLimitOf(tenant?.flags ?? null, courseSlug)
	if (limit === null) return null
	const where = holding(db, learner.tenantId, courseSlug)
	if (learner.userId) {
		const [mine] = yield* step(
			db.orm
				.select({ id: e.id })
				.from(e)
				.where(and(where, eq(e.user_id, learner.userId)))
				.limit(1),
		)
		if (mine) return null
	}
	const [used] = yield* step(db.orm.select({ n: count() }).from(e).where(where))
	return Number(used?.n ?? 0) >= limit ? ({ full: true, limit } as const) : null
}
