import { and, eq, sql, type Column, type SQL } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { auditSteps } from './audit.ts'
import { newId } from './ids.ts'
import { runSteps, step, type Tx } from './transaction.ts'
import { webhookEventSteps } from './webhooks.ts'
import type { EnrollmentStatus } from './schema/values.ts'

export type Enrollment = Database['t']['enrollments']['$inferSelect']

export interface Scope {
	tenantId: string
	userId: string
}

/**
 * Where every per-user read starts (the scope's tenant, then its user) plus any further
 * conditions, as placeholders of a prepared statement that `{ ...scope }` fills.
 */
export function inScope(t: { tenant_id: Column; user_id: Column }, ...more: SQL[]) {
	return and(eq(t.tenant_id, sql.placeholder('tenantId')), eq(t.user_id, sql.placeholder('userId')), ...more)
}

/** The column equals the prepared statement's placeholder of that name. */
export function isParam(column: Column, name: string) {
	return eq(column, sql.placeholder(name))
}

/** A course of a tenant, as the placeholders `tenantId` and `courseSlug` (a course's admin reads). */
export function inCourse(t: { tenant_id: Column; course_slug: Column }, ...more: SQL[]) {
	return and(isParam(t.tenant_id, 'tenantId'), isParam(t.course_slug, 'courseSlug'), ...more)
}

/**
 * The column is one of the values of a prepared statement's list placeholder, filled with `listParam`:
 * PostgreSQL takes the array as one parameter, SQLite a JSON array that json_each reads. One statement
 * for a list of any length, within either database's limit on parameters.
 */
export function inListParam(db: Database, column: Column, name: string) {
	return db.dialect === 'pg'
		? sql`${column} = any(${sql.placeholder(name)})`
		: sql`${column} in (select value from json_each(${sql.placeholder(name)}))`
}

/** The value of an `inListParam` placeholder. */
export function listParam(db: Database, values: readonly string[]) {
	return db.dialect === 'pg' ? values : JSON.stringify(values)
}

/** The key columns of a new per-user, per-entry row (progress, attempts). */
export function entryRow(scope: Scope, courseSlug: string, entrySlug: string) {
	return {
		id: newId(),
		tenant_id: scope.tenantId,
		user_id: scope.userId,
		course_slug: courseSlug,
		entry_slug: entrySlug,
	}
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
		.where(inScope(e, isParam(e.course_slug, 'courseSlug')))
		.limit(1)
		.prepare('enrollment_of')
})

export async function listEnrollments(db: Database, scope: Scope) {
	return enrollmentsOf(db).execute({ ...scope })
}
const enrollmentsOf = preparedFor((db) => {
	const e = db.t.enrollments
	return db.orm.select().from(e).where(inScope(e)).prepare('enrollments_of')
})

/** Sets the enrollment's status, creating the one row (tenant, user, course) if needed. */
export async function putEnrollment(db: Database, scope: Scope, courseSlug: string, status: EnrollmentStatus) {
	const now = new Date()
	const [row] = await db.orm
		.insert(db.t.enrollments)
		.values({
			id: newId(),
			tenant_id: scope.tenantId,
			user_id: scope.userId,
			course_slug: courseSlug,
			status,
			enrolled_at: now,
		})
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
 * `change` is set only for the request that actually wrote, so concurrent
 * duplicates write one row (and one audit event, in the same transaction).
 */
export function* enrollSteps(db: Tx, scope: Scope, courseSlug: string, now = new Date()) {
	const e = db.t.enrollments
	const [created] = yield* step(
		db.orm
			.insert(e)
			.values({
				id: newId(),
				tenant_id: scope.tenantId,
				user_id: scope.userId,
				course_slug: courseSlug,
				status: 'active',
				enrolled_at: now,
			})
			.onConflictDoNothing({ target: [e.tenant_id, e.user_id, e.course_slug] })
			.returning(),
	)
	if (created) {
		yield* enrollmentEventSteps(db, 'enrollment.created', created)
		return { enrollment: created, change: 'created' as const }
	}
	const [revived] = yield* step(
		db.orm
			.update(e)
			.set({ status: 'active', enrolled_at: now, completed_at: null })
			.where(
				and(
					eq(e.tenant_id, scope.tenantId),
					eq(e.user_id, scope.userId),
					eq(e.course_slug, courseSlug),
					eq(e.status, 'cancelled'),
				),
			)
			.returning(),
	)
	if (revived) {
		yield* enrollmentEventSteps(db, 'enrollment.created', revived)
		return { enrollment: revived, change: 'reactivated' as const }
	}
	const [existing] = yield* step(
		db.orm
			.select()
			.from(e)
			.where(and(eq(e.tenant_id, scope.tenantId), eq(e.user_id, scope.userId), eq(e.course_slug, courseSlug)))
			.limit(1),
	)
	return { enrollment: existing, change: null }
}

/** The user's progress rows in one course. */
export async function listProgress(db: Database, scope: Scope, courseSlug: string) {
	return progressIn(db).execute({ ...scope, courseSlug })
}
const progressIn = preparedFor((db) => {
	const p = db.t.entry_progress
	return db.orm
		.select()
		.from(p)
		.where(inScope(p, isParam(p.course_slug, 'courseSlug')))
		.prepare('progress_in')
})

/** The user's progress rows in every course. */
export async function listAllProgress(db: Database, scope: Scope) {
	return allProgress(db).execute({ ...scope })
}
const allProgress = preparedFor((db) => {
	const p = db.t.entry_progress
	return db.orm.select().from(p).where(inScope(p)).prepare('all_progress')
})

/** Records that the entry was just viewed, keeping any completion (prepared: every entry view writes it). */
export async function touchEntry(db: Database, scope: Scope, courseSlug: string, entrySlug: string, at = new Date()) {
	await touchEntryOf(db).execute({ ...entryRow(scope, courseSlug, entrySlug), at })
}
const touchEntryOf = preparedFor((db) => {
	const p = db.t.entry_progress
	return (
		db.orm
			.insert(p)
			.values({
				id: sql.placeholder('id'),
				tenant_id: sql.placeholder('tenant_id'),
				user_id: sql.placeholder('user_id'),
				course_slug: sql.placeholder('course_slug'),
				entry_slug: sql.placeholder('entry_slug'),
				last_viewed_at: sql.placeholder('at'),
			})
			// The value the insert would have written (both dialects name it `excluded`).
			.onConflictDoUpdate({
				target: [p.user_id, p.tenant_id, p.course_slug, p.entry_slug],
				set: { last_viewed_at: sql`excluded.last_viewed_at` },
			})
			.prepare('touch_entry')
	)
})

function* markEntryCompleteRowSteps(db: Tx, scope: Scope, courseSlug: string, entrySlug: string, at: Date) {
	const { entry_progress: p } = db.t
	const [row] = yield* step(
		db.orm
			.insert(p)
			.values({ ...entryRow(scope, courseSlug, entrySlug), completed_at: at, last_viewed_at: at })
			.onConflictDoUpdate({ target: [p.user_id, p.tenant_id, p.course_slug, p.entry_slug], set: { completed_at: at } })
			.returning(),
	)
	return row
}

export function markEntryCompleteRow(
	db: Database,
	scope: Scope,
	courseSlug: string,
	entrySlug: string,
	at = new Date(),
) {
	return runSteps(db, (tx) => markEntryCompleteRowSteps(tx, scope, courseSlug, entrySlug, at))
}

/**
 * Completes an entry and, when that completes every entry of the course
 * (`entrySlugs`), the enrollment (active to completed, with its audit row):
 * the steps of one transaction, so a completion the learner earned is never
 * stored without what it completes.
 */
export function* completeEntrySteps(
	db: Tx,
	scope: Scope,
	courseSlug: string,
	entrySlugs: string[],
	entrySlug: string,
	at = new Date(),
) {
	const p = db.t.entry_progress
	const [before] = yield* step(
		db.orm
			.select({ completedAt: p.completed_at })
			.from(p)
			.where(
				and(
					eq(p.tenant_id, scope.tenantId),
					eq(p.user_id, scope.userId),
					eq(p.course_slug, courseSlug),
					eq(p.entry_slug, entrySlug),
				),
			)
			.limit(1),
	)
	yield* markEntryCompleteRowSteps(db, scope, courseSlug, entrySlug, at)
	if (!before?.completedAt)
		yield* webhookEventSteps(db, scope.tenantId, 'entry.completed', {
			userId: scope.userId,
			courseSlug,
			entrySlug,
			completedAt: at.toISOString(),
		})
	const rows = yield* step(
		db.orm
			.select({ entrySlug: p.entry_slug, completedAt: p.completed_at })
			.from(p)
			.where(and(eq(p.tenant_id, scope.tenantId), eq(p.user_id, scope.userId), eq(p.course_slug, courseSlug))),
	)
	const done = new Set(rows.filter((r) => r.completedAt).map((r) => r.entrySlug))
	const courseDone = entrySlugs.length > 0 && entrySlugs.every((slug) => done.has(slug))
	if (!courseDone) return { courseDone }
	const completed = yield* moveEnrollmentSteps(db, scope, courseSlug, 'active', 'completed', at)
	if (completed) {
		yield* webhookEventSteps(db, scope.tenantId, 'course.completed', {
			enrollment: { id: completed.id, userId: scope.userId, courseSlug, status: 'completed' },
			completedAt: at.toISOString(),
		})
		yield* auditSteps(db, {
			actorUserId: scope.userId,
			action: 'enrollment.completed',
			targetKind: 'enrollment',
			targetId: completed.id,
			tenantId: scope.tenantId,
			metadata: { courseSlug },
		})
	}
	return { courseDone }
}

export function* assignCourseAdminSteps(db: Tx, scope: Scope, courseSlug: string, assignedBy: string | null) {
	const { course_admin_assignments: a } = db.t
	yield* step(
		db.orm
			.insert(a)
			.values({
				id: newId(),
				tenant_id: scope.tenantId,
				user_id: scope.userId,
				course_slug: courseSlug,
				assigned_by: assignedBy,
			})
			.onConflictDoNothing({ target: [a.user_id, a.tenant_id, a.course_slug] })
			.returning({ id: a.id }),
	)
}

export function assignCourseAdmin(db: Database, scope: Scope, courseSlug: string, assignedBy: string | null) {
	return runSteps(db, (tx) => assignCourseAdminSteps(tx, scope, courseSlug, assignedBy))
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
export function* removeCourseAssignmentsSteps(db: Tx, scope: Scope) {
	const { course_admin_assignments: a } = db.t
	const rows = yield* step(
		db.orm
			.delete(a)
			.where(and(eq(a.tenant_id, scope.tenantId), eq(a.user_id, scope.userId)))
			.returning({ slug: a.course_slug }),
	)
	return rows.map((r) => r.slug)
}

/**
 * Cancels the user's enrollment in the course, whatever its status but cancelled: the read and
 * the conditional update are one transaction's steps (`inTransaction`), and the update names the
 * status it read, so of two concurrent cancellations one writes (and audits) and the other finds
 * nothing to do. Progress and attempts stay: a re-enrolled learner picks up where they were.
 * Null when there is no enrollment or it is already cancelled.
 */
export function* cancelEnrollmentSteps(db: Tx, scope: Scope, courseSlug: string) {
	const e = db.t.enrollments
	const mine = and(eq(e.tenant_id, scope.tenantId), eq(e.user_id, scope.userId), eq(e.course_slug, courseSlug))
	const [current] = yield* step(db.orm.select().from(e).where(mine).limit(1))
	if (!current || current.status === 'cancelled') return null
	const [cancelled] = yield* step(
		db.orm
			.update(e)
			.set({ status: 'cancelled' })
			.where(and(mine, eq(e.status, current.status)))
			.returning(),
	)
	if (!cancelled) return null
	yield* enrollmentEventSteps(db, 'enrollment.removed', cancelled)
	return { enrollment: cancelled, from: current.status }
}

/** An enrollment's webhook event (decision 0072): the row's ids and state. */
function* enrollmentEventSteps(db: Tx, type: 'enrollment.created' | 'enrollment.removed', e: Enrollment) {
	yield* webhookEventSteps(db, e.tenant_id, type, {
		enrollment: { id: e.id, userId: e.user_id, courseSlug: e.course_slug, status: e.status },
		enrolledAt: e.enrolled_at.toISOString(),
	})
}

/**
 * Moves a learner's enrollment in a course from one status to another, only if it is still in the
 * first (a conditional update: of two concurrent moves, one finds it): completed with its time, or
 * reopened to active. The moved row's id, or undefined when it was not in `from`.
 */
export function* moveEnrollmentSteps(
	db: Tx,
	scope: Scope,
	courseSlug: string,
	from: 'active' | 'completed',
	to: 'active' | 'completed',
	completedAt: Date | null,
) {
	const e = db.t.enrollments
	const [moved] = yield* step(
		db.orm
			.update(e)
			.set({ status: to, completed_at: completedAt })
			.where(
				and(
					eq(e.tenant_id, scope.tenantId),
					eq(e.user_id, scope.userId),
					eq(e.course_slug, courseSlug),
					eq(e.status, from),
				),
			)
			.returning({ id: e.id }),
	)
	return moved
}
