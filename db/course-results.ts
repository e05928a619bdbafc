import { and, asc, eq, sql } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { auditSteps, type AuditInput } from './audit.ts'
import { newId } from './ids.ts'
import { inCourse, inListParam, inScope, isParam, listParam, moveEnrollmentSteps, type Scope } from './learning.ts'
import type { SecondChanceKind } from './schema/values.ts'
import { runSteps, step, type Tx } from './transaction.ts'
import { webhookEventSteps } from './webhooks.ts'

// Course results and second chances (decision 0037). Written once for both dialects, as steps of
// the caller's transaction: a result is settled in the transaction of the write that changes it.

export type CoursePass = Database['t']['course_passes']['$inferSelect']

/** What a learner's result is judged from: their rows in one course, read inside the settling transaction. */
export interface Standing {
	completed: Set<string>
	attempts: { entrySlug: string; score: number; passed: boolean }[]
	submissions: {
		entrySlug: string
		number: number
		status: string
		score: number | null
		maxScore: number | null
		passed: boolean | null
	}[]
}

export function* standingSteps(db: Tx, scope: Scope, courseSlug: string) {
	const p = db.t.entry_progress
	const q = db.t.quiz_attempts
	const s = db.t.assignment_submissions
	const progress = yield* step(
		db.orm
			.select({ entrySlug: p.entry_slug, completedAt: p.completed_at })
			.from(p)
			.where(and(eq(p.tenant_id, scope.tenantId), eq(p.user_id, scope.userId), eq(p.course_slug, courseSlug))),
	)
	const attempts = yield* step(
		db.orm
			.select({ entrySlug: q.entry_slug, score: q.score, passed: q.passed })
			.from(q)
			.where(and(eq(q.tenant_id, scope.tenantId), eq(q.user_id, scope.userId), eq(q.course_slug, courseSlug))),
	)
	const submissions = yield* step(
		db.orm
			.select(submissionScoreColumns(s))
			.from(s)
			.where(and(eq(s.tenant_id, scope.tenantId), eq(s.user_id, scope.userId), eq(s.course_slug, courseSlug)))
			.orderBy(asc(s.submission_number)),
	)
	return {
		completed: new Set(progress.filter((r) => r.completedAt).map((r) => r.entrySlug)),
		attempts,
		submissions,
	} satisfies Standing
}

/**
 * Read outside a write (a page): the same rows. A page that has read the course's progress already
 * passes its completed entries, and only the scores are read (prepared: the course home reads them on
 * every view, issue 47).
 */
export async function readStanding(
	db: Database,
	scope: Scope,
	courseSlug: string,
	completed?: ReadonlySet<string>,
): Promise<Standing> {
	if (!completed) return runSteps(db, (tx) => standingSteps(tx, scope, courseSlug))
	const [attempts, submissions] = await Promise.all([
		attemptScores(db).execute({ ...scope, courseSlug }),
		submissionScores(db).execute({ ...scope, courseSlug }),
	])
	return { completed: new Set(completed), attempts, submissions }
}
/** What a standing reads of each hand-in, in a write's steps and in the page's prepared read alike. */
function submissionScoreColumns(s: Database['t']['assignment_submissions']) {
	return {
		entrySlug: s.entry_slug,
		number: s.submission_number,
		status: s.status,
		score: s.score,
		maxScore: s.max_score,
		passed: s.passed,
	}
}

const attemptScores = preparedFor((db) => {
	const q = db.t.quiz_attempts
	return db.orm
		.select({ entrySlug: q.entry_slug, score: q.score, passed: q.passed })
		.from(q)
		.where(inScope(q, isParam(q.course_slug, 'courseSlug')))
		.prepare('attempt_scores')
})
const submissionScores = preparedFor((db) => {
	const s = db.t.assignment_submissions
	return db.orm
		.select(submissionScoreColumns(s))
		.from(s)
		.where(inScope(s, isParam(s.course_slug, 'courseSlug')))
		.orderBy(asc(s.submission_number))
		.prepare('submission_scores')
})

/**
 * Stores the learner's result, one row per (tenant, user, course) held by the unique key; the first
 * pass keeps its time. Answers whether this write made the course passed (it was not before).
 */
export function* putCoursePassSteps(
	db: Tx,
	scope: Scope,
	courseSlug: string,
	result: { passed: boolean; average: number | null },
	at = new Date(),
) {
	const c = db.t.course_passes
	const [before] = yield* step(
		db.orm
			.select({ passed: c.passed })
			.from(c)
			.where(and(eq(c.tenant_id, scope.tenantId), eq(c.user_id, scope.userId), eq(c.course_slug, courseSlug)))
			.limit(1),
	)
	yield* step(
		db.orm
			.insert(c)
			.values({
				id: newId(),
				tenant_id: scope.tenantId,
				user_id: scope.userId,
				course_slug: courseSlug,
				passed: result.passed,
				average: result.average,
				passed_at: result.passed ? at : null,
				updated_at: at,
			})
			.onConflictDoUpdate({
				target: [c.tenant_id, c.user_id, c.course_slug],
				set: {
					passed: result.passed,
					average: result.average,
					passed_at: sql`coalesce(${c.passed_at}, excluded.passed_at)`,
					updated_at: at,
				},
			})
			.returning({ id: c.id }),
	)
	const newlyPassed = result.passed && !before?.passed
	if (newlyPassed)
		yield* webhookEventSteps(db, scope.tenantId, 'course.passed', {
			userId: scope.userId,
			courseSlug,
			average: result.average,
			passedAt: at.toISOString(),
		})
	return { newlyPassed }
}

/** The stored results of these learners of a course (a roster page, the export), by user id. */
export async function coursePasses(db: Database, tenantId: string, courseSlug: string, userIds: string[]) {
	if (userIds.length === 0) return new Map<string, CoursePass>()
	const rows = await passesOfLearners(db).execute({ tenantId, courseSlug, userIds: listParam(db, userIds) })
	return new Map(rows.map((r) => [r.user_id, r]))
}
const passesOfLearners = preparedFor((db) => {
	const c = db.t.course_passes
	return db.orm
		.select()
		.from(c)
		.where(inCourse(c, inListParam(db, c.user_id, 'userIds')))
		.prepare('passes_of_learners')
})

/** One learner's stored results in every course, by course slug (the dashboard, the admin user page). */
export async function learnerPasses(db: Database, scope: Scope) {
	const rows = await passesOf(db).execute({ ...scope })
	return new Map(rows.map((r) => [r.course_slug, r]))
}
const passesOf = preparedFor((db) => {
	const c = db.t.course_passes
	return db.orm.select().from(c).where(inScope(c)).prepare('passes_of')
})

/** The second chances of one learner in one course, oldest first (the staff page's history). */
export async function secondChancesOf(db: Database, scope: Scope, courseSlug: string) {
	const g = db.t.second_chances
	return db.orm
		.select()
		.from(g)
		.where(and(eq(g.tenant_id, scope.tenantId), eq(g.user_id, scope.userId), eq(g.course_slug, courseSlug)))
		.orderBy(asc(g.created_at))
}

/** What the learner's second chances on one entry add up to: extra quiz attempts, and the hand-in after which an assignment was last reopened. */
export function* entryAllowanceSteps(db: Tx, scope: Scope, courseSlug: string, entrySlug: string) {
	const g = db.t.second_chances
	const [row] = yield* step(
		db.orm
			.select({
				extra: sql<number>`coalesce(sum(${g.extra_attempts}), 0)`.mapWith(Number),
				reopenedAfter:
					sql<number>`coalesce(max(case when ${g.kind} = 'assignment_reopen' then ${g.after_number} end), 0)`.mapWith(
						Number,
					),
			})
			.from(g)
			.where(
				and(
					eq(g.tenant_id, scope.tenantId),
					eq(g.user_id, scope.userId),
					eq(g.course_slug, courseSlug),
					eq(g.entry_slug, entrySlug),
				),
			),
	)
	return { extraAttempts: row?.extra ?? 0, reopenedAfter: row?.reopenedAfter ?? 0 }
}

/** Whether the learner has passed the quiz entry (a second chance then has nothing to reopen). */
export function* quizPassedSteps(db: Tx, scope: Scope, courseSlug: string, entrySlug: string) {
	const q = db.t.quiz_attempts
	const [passed] = yield* step(
		db.orm
			.select({ id: q.id })
			.from(q)
			.where(
				and(
					eq(q.tenant_id, scope.tenantId),
					eq(q.user_id, scope.userId),
					eq(q.course_slug, courseSlug),
					eq(q.entry_slug, entrySlug),
					eq(q.passed, true),
				),
			)
			.limit(1),
	)
	return Boolean(passed)
}

export function entryAllowance(db: Database, scope: Scope, courseSlug: string, entrySlug: string) {
	return runSteps(db, (tx) => entryAllowanceSteps(tx, scope, courseSlug, entrySlug))
}

export interface SecondChanceInput {
	/** Derived from the form's one-time key: the same form sent again is the same grant. */
	id: string
	kind: SecondChanceKind
	entrySlug: string
	extraAttempts: number
	afterNumber: number
	reason: string
	grantedBy: string
	audit: Omit<AuditInput, 'action' | 'targetKind' | 'targetId'>
}

/** Stores the grant with its audit row; null when this form already granted it (a replay). */
export function* insertSecondChanceSteps(db: Tx, scope: Scope, courseSlug: string, input: SecondChanceInput) {
	const g = db.t.second_chances
	const [row] = yield* step(
		db.orm
			.insert(g)
			.values({
				id: input.id,
				tenant_id: scope.tenantId,
				user_id: scope.userId,
				course_slug: courseSlug,
				entry_slug: input.entrySlug,
				kind: input.kind,
				extra_attempts: input.extraAttempts,
				after_number: input.afterNumber,
				reason: input.reason,
				granted_by: input.grantedBy,
			})
			.onConflictDoNothing()
			.returning(),
	)
	if (!row) return null
	yield* auditSteps(db, {
		...input.audit,
		action: input.kind === 'quiz_attempts' ? 'learner.attempts_granted' : 'learner.assignment_reopened',
		targetKind: 'user',
		targetId: scope.userId,
		metadata: {
			...input.audit.metadata,
			courseSlug,
			entrySlug: input.entrySlug,
			...(input.kind === 'quiz_attempts'
				? { extraAttempts: input.extraAttempts }
				: { afterSubmission: input.afterNumber }),
			reason: input.reason,
		},
	})
	return row
}

/**
 * Reopens a quiz entry that was complete only because its attempts ran out (no passing attempt),
 * and with it a completed enrollment (completed_at cleared, audited): a granted attempt means the
 * learner has not reached the end. Nothing when the entry was passed or not complete.
 */
export function* reopenQuizEntrySteps(db: Tx, scope: Scope, courseSlug: string, entrySlug: string, actor: string) {
	const p = db.t.entry_progress
	if (yield* quizPassedSteps(db, scope, courseSlug, entrySlug)) return false
	const reopened = yield* step(
		db.orm
			.update(p)
			.set({ completed_at: null })
			.where(
				and(
					eq(p.tenant_id, scope.tenantId),
					eq(p.user_id, scope.userId),
					eq(p.course_slug, courseSlug),
					eq(p.entry_slug, entrySlug),
					sql`${p.completed_at} is not null`,
				),
			)
			.returning({ id: p.id }),
	)
	if (reopened.length === 0) return false
	const enrollment = yield* moveEnrollmentSteps(db, scope, courseSlug, 'completed', 'active', null)
	if (enrollment) {
		yield* auditSteps(db, {
			actorUserId: actor,
			action: 'enrollment.reopened',
			targetKind: 'enrollment',
			targetId: enrollment.id,
			tenantId: scope.tenantId,
			metadata: { courseSlug, entrySlug },
		})
	}
	return true
}
