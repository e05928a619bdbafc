import { and, asc, eq, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { Database } from './client.ts'
import { auditSteps } from './audit.ts'
import type { SubmissionStatus } from './schema/values.ts'
import { listSubmissions, lockLearnerEntry, type Submission } from './submissions.ts'
import { step, type Tx } from './transaction.ts'
import { webhookEventSteps } from './webhooks.ts'

// Grading (decision 0028): the course's queue, grading or returning a hand-in, and the staff who
// opted into a notice per hand-in. The hand-ins themselves are written by db/submissions.ts.

export interface WatchScope {
	tenantId: string
	userId: string
	courseSlug: string
}

export async function isWatching(db: Database, scope: WatchScope) {
	const w = db.t.submission_watchers
	const [row] = await db.orm
		.select({ userId: w.user_id })
		.from(w)
		.where(and(eq(w.tenant_id, scope.tenantId), eq(w.course_slug, scope.courseSlug), eq(w.user_id, scope.userId)))
		.limit(1)
	return Boolean(row)
}

/** Turns the notice on or off; setting what is already set changes nothing (ON CONFLICT). */
export async function setWatching(db: Database, scope: WatchScope, on: boolean) {
	const w = db.t.submission_watchers
	if (on) {
		await db.orm
			.insert(w)
			.values({ tenant_id: scope.tenantId, course_slug: scope.courseSlug, user_id: scope.userId })
			.onConflictDoNothing()
		return
	}
	await db.orm
		.delete(w)
		.where(and(eq(w.tenant_id, scope.tenantId), eq(w.course_slug, scope.courseSlug), eq(w.user_id, scope.userId)))
}

/**
 * Who is to be told of a hand-in to the course: watchers who may still grade it, read in the same
 * statement as the opt-in so that a revoked assignment, a changed role or a deactivated account
 * stops the mail at once without anyone cleaning up the watcher row.
 */
export async function submissionWatchers(db: Database, tenantId: string, courseSlug: string) {
	const w = db.t.submission_watchers
	const u = db.t.users
	const a = db.t.course_admin_assignments
	const assigned = sql`exists (select 1 from ${a} where ${a.tenant_id} = ${w.tenant_id}
		and ${a.user_id} = ${w.user_id} and ${a.course_slug} = ${w.course_slug})`
	return db.orm
		.select({ userId: u.id, email: u.email, name: u.name, locale: u.locale })
		.from(w)
		.innerJoin(u, eq(u.id, w.user_id))
		.where(
			and(
				eq(w.tenant_id, tenantId),
				eq(w.course_slug, courseSlug),
				isNull(u.deactivated_at),
				or(
					eq(u.role, 'super_admin'),
					and(eq(u.role, 'tenant_admin'), eq(u.tenant_id, tenantId)),
					and(eq(u.role, 'course_admin'), eq(u.tenant_id, tenantId), assigned),
				),
			),
		)
}

/** The submission is its learner's newest of the entry (no later number exists). */
function isNewest(db: Tx) {
	const s = db.t.assignment_submissions
	return sql`not exists (select 1 from ${s} as newer where newer.tenant_id = ${s.tenant_id}
		and newer.user_id = ${s.user_id} and newer.course_slug = ${s.course_slug}
		and newer.entry_slug = ${s.entry_slug} and newer.submission_number > ${s.submission_number})`
}

/** The newest submission per learner and entry of a course: what the grading queue and the reports list. */
export function latestOf(
	db: Database,
	tenantId: string | SQLWrapper,
	courseSlug: string | SQLWrapper,
	...more: (SQL | undefined)[]
) {
	const s = db.t.assignment_submissions
	return and(eq(s.tenant_id, tenantId), eq(s.course_slug, courseSlug), isNewest(db), ...more)
}

export interface QueueFilter {
	entrySlug?: string
	status?: SubmissionStatus
}

export interface QueueRow {
	id: string
	userId: string
	name: string | null
	email: string
	entrySlug: string
	submissionNumber: number
	status: SubmissionStatus
	score: number | null
	maxScore: number | null
	submittedAt: Date
	gradedAt: Date | null
	/** Handed in after its due date, as stored at hand-in time (decision 0045). */
	late: boolean
	/** How many of this learner's hand-ins in the course are waiting, superseded ones too until a later one is decided (only each assignment's newest is graded). */
	waiting: number
}

/**
 * A course's grading queue: each learner's newest submission per entry, awaiting grading first,
 * then oldest first (the learner who has waited longest comes first).
 */
export async function gradingQueue(
	db: Database,
	tenantId: string,
	courseSlug: string,
	filter: QueueFilter,
	limit = 200,
): Promise<QueueRow[]> {
	const s = db.t.assignment_submissions
	const u = db.t.users
	return db.orm
		.select({
			id: s.id,
			userId: s.user_id,
			name: u.name,
			email: u.email,
			entrySlug: s.entry_slug,
			submissionNumber: s.submission_number,
			status: s.status,
			score: s.score,
			maxScore: s.max_score,
			submittedAt: s.submitted_at,
			gradedAt: s.graded_at,
			late: s.late,
			// A superseded hand-in stops waiting once a later one of its assignment is graded or returned.
			waiting: sql<number>`(select count(*) from ${s} as w where w.tenant_id = ${s.tenant_id}
				and w.user_id = ${s.user_id} and w.course_slug = ${s.course_slug} and w.status = 'submitted'
				and not exists (select 1 from ${s} as d where d.tenant_id = w.tenant_id and d.user_id = w.user_id
				and d.course_slug = w.course_slug and d.entry_slug = w.entry_slug and d.status <> 'submitted'
				and d.submission_number > w.submission_number))`.mapWith(Number),
		})
		.from(s)
		.innerJoin(u, and(eq(u.id, s.user_id), eq(u.tenant_id, s.tenant_id)))
		.where(
			latestOf(
				db,
				tenantId,
				courseSlug,
				filter.entrySlug ? eq(s.entry_slug, filter.entrySlug) : undefined,
				filter.status ? eq(s.status, filter.status) : undefined,
			),
		)
		.orderBy(sql`case when ${s.status} = 'submitted' then 0 else 1 end`, asc(s.submitted_at))
		.limit(limit)
}

/** One submission of a course in the tenant, for staff; null when it is not there. */
export async function findCourseSubmission(db: Database, tenantId: string, courseSlug: string, id: string) {
	const s = db.t.assignment_submissions
	const [row] = await db.orm
		.select()
		.from(s)
		.where(and(eq(s.tenant_id, tenantId), eq(s.course_slug, courseSlug), eq(s.id, id)))
		.limit(1)
	return row ?? null
}

/** Every submission of one learner for one entry, for the grading page's history. */
export async function submissionHistory(db: Database, submission: Submission) {
	return listSubmissions(
		db,
		{ tenantId: submission.tenant_id, userId: submission.user_id },
		submission.course_slug,
		submission.entry_slug,
	)
}

export interface GradeInput {
	status: Exclude<SubmissionStatus, 'submitted'>
	score: number | null
	maxScore: number
	passed: boolean | null
	feedback: string
	gradedBy: string
}

/**
 * Grades or returns a submission, with its audit row, as steps of the caller's transaction. Only
 * the learner's newest submission, and only while it awaits grading: a second grader (or a double
 * press) finds nothing to update and is told so, and a submission handed in meanwhile is not
 * graded under the old one's name.
 */
export function* gradeSubmissionSteps(db: Tx, tenantId: string, id: string, input: GradeInput) {
	const s = db.t.assignment_submissions
	if (db.dialect === 'pg') {
		// Whose work it is (columns never updated), to wait for a hand-in of theirs under way.
		const [work] = yield* step(
			db.orm
				.select({ tenant_id: s.tenant_id, user_id: s.user_id, course_slug: s.course_slug, entry_slug: s.entry_slug })
				.from(s)
				.where(and(eq(s.tenant_id, tenantId), eq(s.id, id)))
				.limit(1),
		)
		if (!work) return null
		yield* lockLearnerEntry(db, work)
	}
	const [row] = yield* step(
		db.orm
			.update(s)
			.set({
				status: input.status,
				score: input.score,
				max_score: input.maxScore,
				passed: input.passed,
				feedback: input.feedback,
				graded_by: input.gradedBy,
				graded_at: new Date(),
			})
			.where(and(eq(s.tenant_id, tenantId), eq(s.id, id), eq(s.status, 'submitted'), isNewest(db)))
			.returning(),
	)
	if (!row) return null
	yield* webhookEventSteps(db, tenantId, 'submission.graded', {
		submission: {
			id: row.id,
			userId: row.user_id,
			courseSlug: row.course_slug,
			entrySlug: row.entry_slug,
			number: row.submission_number,
			status: row.status,
			score: row.score,
			maxScore: row.max_score,
			passed: row.passed,
			gradedAt: row.graded_at?.toISOString() ?? null,
		},
	})
	yield* auditSteps(db, {
		actorUserId: input.gradedBy,
		action: input.status === 'graded' ? 'submission.graded' : 'submission.returned',
		targetKind: 'submission',
		targetId: row.id,
		tenantId,
		metadata: {
			courseSlug: row.course_slug,
			entrySlug: row.entry_slug,
			learnerUserId: row.user_id,
			submissionNumber: row.submission_number,
			...(input.score === null ? {} : { score: input.score, maxScore: input.maxScore }),
			...(input.passed === null ? {} : { passed: input.passed }),
		},
	})
	return row
}
