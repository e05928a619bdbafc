// A quiz's rules that depend on the learner (decision 0054): when its due date falls for them,
// whether they have been shown its answers (a second chance then asks staff to confirm), and the
// order its questions and options are drawn in for their next attempt.
import { createHash } from 'node:crypto'
import type { RequestContext } from '#app/context.ts'
import { entryAllowanceSteps } from '#db/course-results.ts'
import { dueExtensionSteps, enrolledAtSteps } from '#db/due-dates.ts'
import { type Scope } from '#db/learning.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { runSteps } from '#db/transaction.ts'
import { readContent } from '../content/cms.server.ts'
import type { Course, QuizPublic } from '../content/content.ts'
import { dueAtFor } from './due-dates.ts'
import { flattenEntries } from './entries.ts'
import { answersRevealed } from './quiz.server.ts'

/** The instant the entry is due for this learner (their extension, else the content's date); null: not due. */
export async function learnerDueAt(ctx: Pick<RequestContext, 'db'>, scope: Scope, course: Course, entrySlug: string) {
	const due = flattenEntries(course).find((e) => e.slug === entrySlug)?.due
	const { enrolledAt, extension } = await runSteps(ctx.db, function* (tx) {
		return {
			enrolledAt: yield* enrolledAtSteps(tx, scope, course.slug),
			extension: yield* dueExtensionSteps(tx, scope, course.slug, entrySlug),
		}
	})
	if (!due && !extension) return null
	return dueAtFor(due, enrolledAt ?? new Date(), extension)
}

/**
 * Whether the quiz's answers are shown to the learner now, by the quiz's rule as the content
 * service serves it now and the learner's attempts, allowance and due date: what a second chance
 * asks staff to confirm, and records.
 */
export async function answersShownTo(ctx: RequestContext, scope: Scope, course: Course, entrySlug: string) {
	const entry = await readContent(`quiz ${course.slug}/${entrySlug}`, () =>
		ctx.cms.uncached.entry(ctx.site, course.slug, entrySlug, ctx.locale),
	)
	if (entry?.type !== 'quiz' || !entry.quiz) return false
	const [attempts, allowance, dueAt] = await Promise.all([
		listAttempts(ctx.db, scope, course.slug, entrySlug),
		runSteps(ctx.db, (tx) => entryAllowanceSteps(tx, scope, course.slug, entrySlug)),
		learnerDueAt(ctx, scope, course, entrySlug),
	])
	const maxAttempts = entry.quiz.maxAttempts + allowance.extraAttempts
	return answersRevealed({ ...entry.quiz, maxAttempts }, attempts, dueAt)
}

/** A stable pseudo-random key of one item under one seed. */
function rank(seed: string, id: string) {
	return createHash('sha256').update(`${seed}\u0000${id}`).digest('hex')
}

function drawn<T>(items: readonly T[], seed: string, idOf: (item: T) => string) {
	return items
		.map((item) => ({ item, key: rank(seed, idOf(item)) }))
		.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
		.map((x) => x.item)
}

/**
 * The quiz as drawn for one attempt of one learner: questions and each question's options in an
 * order that follows from the learner, the entry and the attempt's number alone, so a reload shows
 * the same order and the next attempt another. Answers are still sent and graded by id.
 */
export function drawForAttempt(quiz: QuizPublic, scope: Scope, course: Course, entrySlug: string, attempt: number) {
	const seed = `${scope.tenantId}:${scope.userId}:${course.slug}:${entrySlug}:${attempt}`
	return {
		...quiz,
		questions: drawn(quiz.questions, `${seed}:q`, (q) => q.id).map((q) =>
			q.type === 'multiple_choice' ? { ...q, options: drawn(q.options, `${seed}:${q.id}`, (o) => o.id) } : q,
		),
	}
}
