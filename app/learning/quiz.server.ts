import { jobSite } from '#app/platform/jobs.server.ts'
import { awardCertificate } from '#app/certificates/award.server.ts'
import type { RequestContext } from '#app/context.ts'
import { entryAllowanceSteps } from '#db/course-results.ts'
import { completeEntrySteps, type Scope } from '#db/learning.ts'
import { recordAttemptSteps, type QuizAttempt } from '#db/quiz-attempts.ts'
import { idFromFormKey } from '#db/ids.ts'
import { inTransaction } from '#db/transaction.ts'
import { readContent } from '../content/cms.server.ts'
import type { Course, Quiz, ShowAnswers } from '../content/content.ts'
import { ruleEntries, settleResultSteps } from './course-result.server.ts'
import { tags } from './learning.server.ts'
import { entryDueAtSteps } from './due-dates.server.ts'
import { flattenEntries } from './entries.ts'

/**
 * Short answers match when equal after Unicode NFKC, trimming, lower-casing
 * and collapsing inner whitespace: " The  FORM " matches "the form".
 */
export function normalizeAnswer(value: string) {
	return value.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ')
}

interface QuestionFeedback {
	questionId: string
	correct: boolean
	explanation: string
}

export interface Grade {
	score: number
	passed: boolean
	correctCount: number
	totalCount: number
	perQuestionFeedback: QuestionFeedback[]
}

/** Grades answers (question id → submitted value) against the server-only quiz. */
export function gradeQuiz(quiz: Quiz, answers: Record<string, string | undefined>): Grade {
	const perQuestionFeedback = quiz.questions.map((q) => {
		const given = answers[q.id] ?? ''
		const correct =
			q.type === 'multiple_choice'
				? given === q.correctOptionId
				: q.type === 'true_false'
					? given === String(q.correct)
					: q.acceptedAnswers.some((a) => normalizeAnswer(a) === normalizeAnswer(given))
		return { questionId: q.id, correct, explanation: q.explanation }
	})
	const correctCount = perQuestionFeedback.filter((f) => f.correct).length
	const totalCount = quiz.questions.length
	const score = Math.round((correctCount / totalCount) * 100)
	return { score, passed: score >= quiz.passingScore, correctCount, totalCount, perQuestionFeedback }
}

interface AttemptResult extends Grade {
	attemptNumber: number
	attemptsRemaining: number
}

/** The stored attempt as submitQuizAttempt returns it: attemptsRemaining is as of that attempt. */
function attemptResult(attempt: QuizAttempt, maxAttempts: number, totalCount: number): AttemptResult {
	const perQuestionFeedback = attempt.feedback_json as QuestionFeedback[]
	return {
		score: attempt.score,
		passed: attempt.passed,
		correctCount: perQuestionFeedback.filter((f) => f.correct).length,
		totalCount,
		perQuestionFeedback,
		attemptNumber: attempt.attempt_number,
		attemptsRemaining: Math.max(0, maxAttempts - attempt.attempt_number),
	}
}

/** The older `revealAnswers` values as the rule they meant (decision 0054). */
const FROM_REVEAL = {
	after_pass_or_last_attempt: 'after_last_attempt',
	never: 'never',
	always: 'after_each_attempt',
} as const satisfies Record<NonNullable<Quiz['revealAnswers']>, ShowAnswers>

/** When a quiz shows its answers: `showAnswers`, else the older `revealAnswers`, else after the last attempt. */
export function showAnswersRule(quiz: Pick<Quiz, 'showAnswers' | 'revealAnswers'>): ShowAnswers {
	return quiz.showAnswers ?? (quiz.revealAnswers ? FROM_REVEAL[quiz.revealAnswers] : 'after_last_attempt')
}

/**
 * Whether the learner may now see the quiz's correct answers and explanations, from their current
 * state (every attempt so far, their attempts allowed, their due date), not from the attempt being
 * looked at (decisions 0022, 0054). `after_last_attempt` is the older default: once an attempt
 * passed or every attempt is used. `after_due_date`: once the learner's due date (extensions
 * included) is past; a quiz without one never shows them. Until then feedback says only right or
 * wrong, so a failed attempt does not hand over the answers for the next.
 */
export function answersRevealed(
	quiz: Pick<Quiz, 'showAnswers' | 'revealAnswers' | 'maxAttempts'>,
	attempts: readonly { passed: boolean }[],
	dueAt: Date | null = null,
	now = new Date(),
): boolean {
	const passed = attempts.some((a) => a.passed)
	switch (showAnswersRule(quiz)) {
		case 'never':
			return false
		case 'after_each_attempt':
			return attempts.length > 0
		case 'after_passing':
			return passed
		case 'after_due_date':
			return dueAt !== null && dueAt.getTime() <= now.getTime()
		case 'after_last_attempt':
			return passed || attempts.length >= quiz.maxAttempts
	}
}

interface QuestionReview {
	questionId: string
	/** What the learner sent, as stored: an option id, `true`/`false`, or the text typed ('' for none). */
	given: string
	correct: boolean
	/** Only when revealed: the correct option id, `true`/`false`, or the first accepted answer. */
	correctAnswer?: string
	/** Only when revealed: the question's explanation, in the locale the quiz is served in now. */
	explanation?: string
}

/** One stored attempt as the entry page shows it. Nothing in it gives an answer away unless `revealed`. */
export interface AttemptReview {
	attemptNumber: number
	submittedAt: string
	score: number
	passed: boolean
	correctCount: number
	totalCount: number
	questions: QuestionReview[]
}

function correctAnswerOf(question: Quiz['questions'][number]) {
	if (question.type === 'multiple_choice') return question.correctOptionId
	if (question.type === 'true_false') return String(question.correct)
	return question.acceptedAnswers[0]
}

/**
 * A stored attempt for the page: the learner's answers and right or wrong per question as graded
 * then, plus the correct answer and explanation from the quiz as served now only when `revealed`
 * (answersRevealed).
 */
export function reviewAttempt(quiz: Quiz, attempt: QuizAttempt, revealed: boolean): AttemptReview {
	const feedback = attempt.feedback_json as QuestionFeedback[]
	const answers = (attempt.answers_json ?? {}) as Record<string, unknown>
	const questions = feedback.map((f): QuestionReview => {
		const given = typeof answers[f.questionId] === 'string' ? (answers[f.questionId] as string) : ''
		const question = revealed ? quiz.questions.find((q) => q.id === f.questionId) : undefined
		return question
			? {
					questionId: f.questionId,
					given,
					correct: f.correct,
					correctAnswer: correctAnswerOf(question),
					explanation: question.explanation,
				}
			: { questionId: f.questionId, given, correct: f.correct }
	})
	return {
		attemptNumber: attempt.attempt_number,
		submittedAt: (attempt.submitted_at ?? attempt.started_at).toISOString(),
		score: attempt.score,
		passed: attempt.passed,
		correctCount: feedback.filter((f) => f.correct).length,
		totalCount: feedback.length,
		questions,
	}
}

/**
 * Staff trying a quiz in preview (decision 0026): graded like an attempt, against the quiz fetched
 * fresh from the content service, and answered with every correct answer and explanation, since
 * staff preview to check the content, not to learn it. Nothing is stored: no attempt, no
 * progress, no audit row. Null when the entry is not a quiz.
 */
export async function previewQuizAttempt(
	ctx: RequestContext,
	course: Course,
	entrySlug: string,
	answers: Record<string, string | undefined>,
	now = new Date(),
): Promise<AttemptReview | null> {
	const entry = await readContent(`quiz ${course.slug}/${entrySlug}`, () =>
		ctx.cms.uncached.entry(ctx.site, course.slug, entrySlug, ctx.locale),
	)
	const quiz = entry?.type === 'quiz' ? entry.quiz : null
	if (!quiz) return null
	const grade = gradeQuiz(quiz, answers)
	return {
		// Not an attempt of anyone's: it has no number.
		attemptNumber: 0,
		submittedAt: now.toISOString(),
		score: grade.score,
		passed: grade.passed,
		correctCount: grade.correctCount,
		totalCount: grade.totalCount,
		questions: quiz.questions.map((q, i) => ({
			questionId: q.id,
			given: (answers[q.id] ?? '').slice(0, 500),
			correct: grade.perQuestionFeedback[i].correct,
			correctAnswer: correctAnswerOf(q),
			explanation: q.explanation,
		})),
	}
}

export type SubmitOutcome = { kind: 'graded'; result: AttemptResult } | { kind: 'exhausted' } | { kind: 'not_a_quiz' }

/**
 * submitQuizAttempt for an enrolled learner on an open entry (the caller
 * checks both): grades against the quiz fetched fresh from the content
 * service, then in one transaction stores the next sequential attempt and,
 * when it passed or was the last allowed one, completes the entry (and the
 * enrollment when that was the last entry): an attempt is never stored
 * without the completion it earns. A submission sent again is answered with
 * the attempt it already made.
 */
export async function submitQuizAttempt(
	ctx: RequestContext,
	scope: Scope,
	course: Course,
	entrySlug: string,
	answers: Record<string, string | undefined>,
	submissionKey?: unknown,
): Promise<SubmitOutcome> {
	const entry = await readContent(`quiz ${course.slug}/${entrySlug}`, () =>
		ctx.cms.uncached.entry(ctx.site, course.slug, entrySlug, ctx.locale),
	)
	const quiz = entry?.type === 'quiz' ? entry.quiz : null
	if (!quiz) return { kind: 'not_a_quiz' }
	const grade = gradeQuiz(quiz, answers)
	const stored: Record<string, string> = {}
	for (const q of quiz.questions) stored[q.id] = (answers[q.id] ?? '').slice(0, 500)
	const all = flattenEntries(course).map((e) => e.slug)
	const rule = await ruleEntries(ctx, course)
	const outcome = await inTransaction(ctx.db, function* (tx) {
		const input = {
			id: idFromFormKey('quiz-attempt', scope, course.slug, entrySlug, submissionKey),
			score: grade.score,
			passed: grade.passed,
			answers: stored,
			feedback: grade.perQuestionFeedback,
		}
		// Staff's second chances add attempts (decision 0037): read in this transaction, so a grant and an attempt never miss each other.
		const { extraAttempts } = yield* entryAllowanceSteps(tx, scope, course.slug, entrySlug)
		const maxAttempts = quiz.maxAttempts + extraAttempts
		// Late like a hand-in (issue 52): against the due date in force in this transaction.
		const dueAt = yield* entryDueAtSteps(tx, scope, course, entrySlug)
		const recorded = yield* recordAttemptSteps(tx, scope, course.slug, entrySlug, maxAttempts, { ...input, dueAt })
		if (!recorded) return null
		const { attempt, replayed } = recorded
		if (replayed) return { recorded, maxAttempts, settled: { newlyPassed: false } }
		if (attempt.passed || attempt.attempt_number >= maxAttempts) {
			yield* completeEntrySteps(tx, scope, course.slug, all, entrySlug)
		}
		const settled = yield* settleResultSteps(tx, jobSite(ctx), scope, course, rule)
		return { recorded, maxAttempts, settled }
	})
	if (!outcome) return { kind: 'exhausted' }
	ctx.tags.revalidate([tags.course(course.slug), tags.progress(scope.userId)])
	await awardCertificate(ctx, scope, course, outcome.settled)
	return {
		kind: 'graded',
		result: attemptResult(outcome.recorded.attempt, outcome.maxAttempts, quiz.questions.length),
	}
}
