import { and, desc, eq, getTableColumns, isNotNull, max, sql } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { step, type Tx } from './transaction.ts'
import { entryRow, inScope, isParam, type Scope } from './learning.ts'
import { isLate } from './due-dates.ts'

// A learner's quiz attempts: the reads of an entry's attempts and the
// recent ones, and recording one within the entry's limit as the steps of one transaction. The
// enrollment and progress they belong to are db/learning.ts.

export type QuizAttempt = Database['t']['quiz_attempts']['$inferSelect']

export async function listAttempts(db: Database, scope: Scope, courseSlug: string, entrySlug: string) {
	return attemptsAt(db).execute({ ...scope, courseSlug, entrySlug })
}
const attemptsAt = preparedFor((db) => {
	const { quiz_attempts: q, quiz_attempt_dues: d } = db.t
	return db.orm
		.select({ ...getTableColumns(q), due_at: d.due_at, late: d.late })
		.from(q)
		.leftJoin(d, eq(d.attempt_id, q.id))
		.where(inScope(q, isParam(q.course_slug, 'courseSlug'), isParam(q.entry_slug, 'entrySlug')))
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
		.where(inScope(q, isNotNull(q.submitted_at)))
		.orderBy(desc(q.submitted_at))
		.limit(sql.placeholder('limit'))
		.prepare('recent_attempts_of')
})

export interface AttemptInput {
	/** The attempt row's id, derived from the submission (see recordAttemptSteps). */
	id?: string
	score: number
	passed: boolean
	answers: Record<string, unknown>
	feedback: unknown[]
	startedAt?: Date
	/** The quiz's due date in force for the learner now (decision 0045): stored with whether the attempt is late. */
	dueAt?: Date | null
}

/**
 * Stores the next attempt: number = highest so far + 1, refused past
 * maxAttempts. The unique key (user, tenant, course, entry, attempt_number)
 * makes concurrent submissions that picked the same number collide in the
 * database; the loser re-reads and tries the next number. So numbers stay
 * exactly 1..n with no gaps, and never exceed maxAttempts. `input.id`, when
 * given, names the submission (derived from the form's submission key): a
 * submission already stored is answered with its attempt (`replayed`), so a
 * learner who was told it failed, or pressed twice, never spends a second
 * attempt on it. Null when no attempts remain.
 */
export function* recordAttemptSteps(
	db: Tx,
	scope: Scope,
	courseSlug: string,
	entrySlug: string,
	maxAttempts: number,
	input: AttemptInput,
) {
	const q = db.t.quiz_attempts
	const where = and(
		eq(q.tenant_id, scope.tenantId),
		eq(q.user_id, scope.userId),
		eq(q.course_slug, courseSlug),
		eq(q.entry_slug, entrySlug),
	)
	function* stored() {
		if (!input.id) return null
		const [row] = yield* step(
			db.orm
				.select()
				.from(q)
				.where(and(where, eq(q.id, input.id)))
				.limit(1),
		)
		return row ?? null
	}
	const earlier = yield* stored()
	if (earlier) return { attempt: earlier, replayed: true }
	// Each lost race means another attempt was stored, so this ends within maxAttempts + 1 rounds.
	for (let round = 0; round <= maxAttempts; round++) {
		const [{ highest }] = yield* step(
			db.orm
				.select({ highest: max(q.attempt_number) })
				.from(q)
				.where(where),
		)
		const next = (highest ?? 0) + 1
		if (next > maxAttempts) return null
		const now = new Date()
		const [row] = yield* step(
			db.orm
				.insert(q)
				.values({
					...entryRow(scope, courseSlug, entrySlug),
					...(input.id ? { id: input.id } : {}),
					attempt_number: next,
					score: input.score,
					passed: input.passed,
					answers_json: input.answers,
					feedback_json: input.feedback,
					started_at: input.startedAt ?? now,
					submitted_at: now,
				})
				.onConflictDoNothing()
				.returning(),
		)
		if (row) {
			// As a hand-in's lateness (recordSubmissionSteps): written with the attempt, later extensions do not rewrite it.
			if (input.dueAt)
				yield* step(
					db.orm
						.insert(db.t.quiz_attempt_dues)
						.values({
							attempt_id: row.id,
							tenant_id: scope.tenantId,
							due_at: input.dueAt,
							late: isLate(input.dueAt, now),
						})
						.returning({ id: db.t.quiz_attempt_dues.attempt_id }),
				)
			return { attempt: row, replayed: false }
		}
		// The same submission, stored meanwhile by its twin (a double press).
		const twin = yield* stored()
		if (twin) return { attempt: twin, replayed: true }
	}
	return null
}
