import { and, desc, eq, isNotNull, isNull, max, sql } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { newId } from './ids.ts'
import type { EnrollmentStatus } from './schema/values.ts'

export type Enrollment = Database['t']['enrollments']['$inferSelect']

export interface Scope {
	tenantId: string
	userId: string
}

/** The key columns of a new per-user, per-entry row (progress, attempts). */
function entryRow(scope: Scope, courseSlug: string, entrySlug: string) {
	return { id: newId(), tenant_id: scope.tenantId, user_id: scope.userId, course_slug: courseSlug, entry_slug: entrySlug }
}

export async function findEnrollment(db: Database, scope: Scope, courseSlug: string) {
	const [row] = await enrollmentOf(db).execute({ ...scope, courseSlug })
	return row ?? null
}
const enrollmentOf = preparedFor((db) => {
	const e = db.t.enrollments
	return db.orm
		.select()
		.from(e)
		.where(and(eq(e.tenant_id, sql.placeholder('tenantId')), eq(e.user_id, sql.placeholder('userId')), eq(e.course_slug, sql.placeholder('courseSlug'))))
		.limit(1)
		.prepare('enrollment_of')
})

export async function listEnrollments(db: Database, scope: Scope) {
	return enrollmentsOf(db).execute({ ...scope })
}
const enrollmentsOf = preparedFor((db) => {
	const e = db.t.enrollments
	return db.orm
		.select()
		.from(e)
		.where(and(eq(e.tenant_id, sql.placeholder('tenantId')), eq(e.user_id, sql.placeholder('userId'))))
		.prepare('enrollments_of')
})

/** Sets the enrollment's status, creating the one row (tenant, user, course) if needed. */
export async function putEnrollment(db: Database, scope: Scope, courseSlug: string, status: EnrollmentStatus) {
	const now = new Date()
	const [row] = await db.orm
		.insert(db.t.enrollments)
		.values({ id: newId(), tenant_id: scope.tenantId, user_id: scope.userId, course_slug: courseSlug, status, enrolled_at: now })
		.onConflictDoUpdate({
			target: [db.t.enrollments.tenant_id, db.t.enrollments.user_id, db.t.enrollments.course_slug],
			set: { status },
		})
		.returning()
	return row
}

/**
 * Enrolls with the one row per (tenant, user, course): inserts an active row,
 * or revives a cancelled one (enrolled_at bumped, completed_at cleared).
 * `changed` is true only for the request that actually wrote, so concurrent
 * duplicates write one row and one audit event.
 */
export async function enrollActive(db: Database, scope: Scope, courseSlug: string, now = new Date()) {
	const e = db.t.enrollments
	const [created] = await db.orm
		.insert(e)
		.values({ id: newId(), tenant_id: scope.tenantId, user_id: scope.userId, course_slug: courseSlug, status: 'active', enrolled_at: now })
		.onConflictDoNothing({ target: [e.tenant_id, e.user_id, e.course_slug] })
		.returning()
	if (created) return { enrollment: created, change: 'created' as const }
	const [revived] = await db.orm
		.update(e)
		.set({ status: 'active', enrolled_at: now, completed_at: null })
		.where(and(eq(e.tenant_id, scope.tenantId), eq(e.user_id, scope.userId), eq(e.course_slug, courseSlug), eq(e.status, 'cancelled')))
		.returning()
	if (revived) return { enrollment: revived, change: 'reactivated' as const }
	return { enrollment: (await findEnrollment(db, scope, courseSlug))!, change: null }
}

/** Moves an active enrollment to completed once: its id when this call did it, else null. */
export async function completeEnrollment(db: Database, scope: Scope, courseSlug: string, at = new Date()) {
	const e = db.t.enrollments
	const [row] = await db.orm
		.update(e)
		.set({ status: 'completed', completed_at: at })
		.where(and(eq(e.tenant_id, scope.tenantId), eq(e.user_id, scope.userId), eq(e.course_slug, courseSlug), eq(e.status, 'active')))
		.returning({ id: e.id })
	return row?.id ?? null
}

export type EntryProgress = Database['t']['entry_progress']['$inferSelect']

/** The user's progress rows in one course. */
export async function listProgress(db: Database, scope: Scope, courseSlug: string) {
	return progressIn(db).execute({ ...scope, courseSlug })
}
const progressIn = preparedFor((db) => {
	const p = db.t.entry_progress
	return db.orm
		.select()
		.from(p)
		.where(and(eq(p.tenant_id, sql.placeholder('tenantId')), eq(p.user_id, sql.placeholder('userId')), eq(p.course_slug, sql.placeholder('courseSlug'))))
		.prepare('progress_in')
})

/** The user's progress rows in every course. */
export async function listAllProgress(db: Database, scope: Scope) {
	return allProgress(db).execute({ ...scope })
}
const allProgress = preparedFor((db) => {
	const p = db.t.entry_progress
	return db.orm
		.select()
		.from(p)
		.where(and(eq(p.tenant_id, sql.placeholder('tenantId')), eq(p.user_id, sql.placeholder('userId'))))
		.prepare('all_progress')
})

/** Records that the entry was just viewed, keeping any completion. */
export async function touchEntry(db: Database, scope: Scope, courseSlug: string, entrySlug: string, at = new Date()) {
	const p = db.t.entry_progress
	await db.orm
		.insert(p)
		.values({ ...entryRow(scope, courseSlug, entrySlug), last_viewed_at: at })
		.onConflictDoUpdate({ target: [p.user_id, p.tenant_id, p.course_slug, p.entry_slug], set: { last_viewed_at: at } })
}

export type QuizAttempt = Database['t']['quiz_attempts']['$inferSelect']

export async function listAttempts(db: Database, scope: Scope, courseSlug: string, entrySlug: string) {
	return attemptsAt(db).execute({ ...scope, courseSlug, entrySlug })
}
const attemptsAt = preparedFor((db) => {
	const q = db.t.quiz_attempts
	return db.orm
		.select()
		.from(q)
		.where(
			and(
				eq(q.tenant_id, sql.placeholder('tenantId')),
				eq(q.user_id, sql.placeholder('userId')),
				eq(q.course_slug, sql.placeholder('courseSlug')),
				eq(q.entry_slug, sql.placeholder('entrySlug')),
			),
		)
		.orderBy(q.attempt_number)
		.prepare('attempts_at')
})

export async function recentAttempts(db: Database, scope: Scope, limit = 5) {
	return recentAttemptsOf(db).execute({ ...scope, limit })
}
const recentAttemptsOf = preparedFor((db) => {
	const q = db.t.quiz_attempts
	return db.orm
		.select()
		.from(q)
		.where(and(eq(q.tenant_id, sql.placeholder('tenantId')), eq(q.user_id, sql.placeholder('userId')), isNotNull(q.submitted_at)))
		.orderBy(desc(q.submitted_at))
		.limit(sql.placeholder('limit'))
		.prepare('recent_attempts_of')
})

export interface AttemptInput {
	score: number
	passed: boolean
	answers: Record<string, unknown>
	feedback: unknown[]
	startedAt?: Date
}

/**
 * Stores the next attempt: number = highest so far + 1, refused past
 * maxAttempts. The unique key (user, tenant, course, entry, attempt_number)
 * makes concurrent submissions that picked the same number collide in the
 * database; the loser re-reads and tries the next number. So numbers stay
 * exactly 1..n with no gaps, and never exceed maxAttempts. Returns null when
 * no attempts remain.
 */
export async function recordAttempt(db: Database, scope: Scope, courseSlug: string, entrySlug: string, maxAttempts: number, input: AttemptInput) {
	const q = db.t.quiz_attempts
	const where = and(eq(q.tenant_id, scope.tenantId), eq(q.user_id, scope.userId), eq(q.course_slug, courseSlug), eq(q.entry_slug, entrySlug))
	// Each lost race means another attempt was stored, so this ends within maxAttempts + 1 rounds.
	for (let round = 0; round <= maxAttempts; round++) {
		const [{ highest }] = await db.orm.select({ highest: max(q.attempt_number) }).from(q).where(where)
		const next = (highest ?? 0) + 1
		if (next > maxAttempts) return null
		const now = new Date()
		const [row] = await db.orm
			.insert(q)
			.values({
				...entryRow(scope, courseSlug, entrySlug),
				attempt_number: next,
				score: input.score,
				passed: input.passed,
				answers_json: input.answers,
				feedback_json: input.feedback,
				started_at: input.startedAt ?? now,
				submitted_at: now,
			})
			.onConflictDoNothing({ target: [q.user_id, q.tenant_id, q.course_slug, q.entry_slug, q.attempt_number] })
			.returning()
		if (row) return row
	}
	return null
}

export async function markEntryCompleteRow(db: Database, scope: Scope, courseSlug: string, entrySlug: string, at = new Date()) {
	const { entry_progress: p } = db.t
	const [row] = await db.orm
		.insert(p)
		.values({ ...entryRow(scope, courseSlug, entrySlug), completed_at: at, last_viewed_at: at })
		.onConflictDoUpdate({ target: [p.user_id, p.tenant_id, p.course_slug, p.entry_slug], set: { completed_at: at } })
		.returning()
	return row
}

export async function assignCourseAdmin(db: Database, scope: Scope, courseSlug: string, assignedBy: string | null) {
	const { course_admin_assignments: a } = db.t
	await db.orm
		.insert(a)
		.values({ id: newId(), tenant_id: scope.tenantId, user_id: scope.userId, course_slug: courseSlug, assigned_by: assignedBy })
		.onConflictDoNothing({ target: [a.user_id, a.tenant_id, a.course_slug] })
}

export async function assignedCourseSlugs(db: Database, scope: Scope) {
	const { course_admin_assignments: a } = db.t
	const rows = await db.orm
		.select({ slug: a.course_slug })
		.from(a)
		.where(and(eq(a.tenant_id, scope.tenantId), eq(a.user_id, scope.userId)))
	return rows.map((r) => r.slug)
}

/** Removes every course assignment of the user in the tenant (a course_admin given another role); the course slugs removed. */
export async function removeCourseAssignments(db: Database, scope: Scope) {
	const { course_admin_assignments: a } = db.t
	const rows = await db.orm
		.delete(a)
		.where(and(eq(a.tenant_id, scope.tenantId), eq(a.user_id, scope.userId)))
		.returning({ slug: a.course_slug })
	return rows.map((r) => r.slug)
}
