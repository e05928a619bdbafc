import type { RequestContext } from '#app/context.ts'
import { recordAttempt, type QuizAttempt, type Scope } from '#db/learning.ts'
import { readContent } from './cms.server.ts'
import type { Course, Quiz } from './content.ts'
import { markEntryComplete } from './learning.server.ts'

/**
 * Short answers match when equal after Unicode NFKC, trimming, lower-casing
 * and collapsing inner whitespace: " The  FORM " matches "the form".
 */
export function normalizeAnswer(value: string) {
	return value.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ')
}

export interface QuestionFeedback {
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

export interface AttemptResult extends Grade {
	attemptNumber: number
	attemptsRemaining: number
}

export function attemptResult(attempt: QuizAttempt, maxAttempts: number, totalCount: number): AttemptResult {
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

export type SubmitOutcome = { kind: 'graded'; result: AttemptResult } | { kind: 'exhausted' } | { kind: 'not_a_quiz' }

/**
 * submitQuizAttempt for an enrolled learner on an open entry (the caller
 * checks both): grades against the quiz fetched fresh from the content
 * service, stores the next sequential attempt, and completes the entry when
 * passed or when this was the last allowed attempt.
 */
export async function submitQuizAttempt(ctx: RequestContext, scope: Scope, course: Course, entrySlug: string, answers: Record<string, string | undefined>): Promise<SubmitOutcome> {
	const entry = await readContent(`quiz ${course.slug}/${entrySlug}`, () => ctx.cms.uncached.entry(ctx.site, course.slug, entrySlug, ctx.locale))
	const quiz = entry?.type === 'quiz' ? entry.quiz : null
	if (!quiz) return { kind: 'not_a_quiz' }
	const grade = gradeQuiz(quiz, answers)
	const stored: Record<string, string> = {}
	for (const q of quiz.questions) stored[q.id] = (answers[q.id] ?? '').slice(0, 500)
	const attempt = await recordAttempt(ctx.db, scope, course.slug, entrySlug, quiz.maxAttempts, {
		score: grade.score,
		passed: grade.passed,
		answers: stored,
		feedback: grade.perQuestionFeedback,
	})
	if (!attempt) return { kind: 'exhausted' }
	if (attempt.passed || attempt.attempt_number === quiz.maxAttempts) await markEntryComplete(ctx, scope, course, entrySlug)
	return { kind: 'graded', result: attemptResult(attempt, quiz.maxAttempts, quiz.questions.length) }
}
