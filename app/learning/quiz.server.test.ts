import { describe, expect, it } from 'vitest'
import type { Quiz } from '../content/content.ts'
import type { QuizAttempt } from '#db/quiz-attempts.ts'
import { answersRevealed, gradeQuiz, normalizeAnswer, reviewAttempt } from './quiz.server.ts'

const quiz: Quiz = {
	maxAttempts: 3,
	passingScore: 67,
	questions: [
		{
			id: 'q1',
			type: 'multiple_choice',
			prompt: 'Which?',
			explanation: 'B is right.',
			options: [
				{ id: 'a', text: 'A' },
				{ id: 'b', text: 'B' },
			],
			correctOptionId: 'b',
		},
		{ id: 'q2', type: 'true_false', prompt: 'True?', explanation: 'It is false.', correct: false },
		{ id: 'q3', type: 'short_answer', prompt: 'Name it', explanation: 'The form.', acceptedAnswers: ['The Form'] },
	],
}

describe('gradeQuiz', () => {
	it('scores every question type and passes at the passing score', () => {
		const grade = gradeQuiz(quiz, { q1: 'b', q2: 'false', q3: '  the   FORM ' })
		expect(grade).toMatchObject({ score: 100, passed: true, correctCount: 3, totalCount: 3 })
		expect(grade.perQuestionFeedback.map((f) => f.correct)).toEqual([true, true, true])
	})

	it('rounds the score and compares it with the passing score', () => {
		expect(gradeQuiz(quiz, { q1: 'b', q2: 'false', q3: 'no' })).toMatchObject({ score: 67, passed: true })
		expect(gradeQuiz(quiz, { q1: 'b', q2: 'true', q3: 'no' })).toMatchObject({ score: 33, passed: false })
	})

	it('counts missing, hostile and look-alike answers as wrong', () => {
		const cases: Record<string, string | undefined>[] = [
			{},
			{ q1: 'B', q2: 'False', q3: '' },
			{ q1: 'b ', q2: '0', q3: 'the form.' },
			{ q1: "b' OR 1=1 --", q2: 'false\u0000', q3: '<script>the form</script>' },
			{ q1: '__proto__', q2: 'constructor', q3: 'toString' },
		]
		for (const answers of cases) expect(gradeQuiz(quiz, answers).correctCount).toBe(0)
	})

	it('never counts an answer to another question', () => {
		expect(gradeQuiz(quiz, { q2: 'b', q3: 'false', q1: 'the form' }).correctCount).toBe(0)
	})
})

describe('normalizeAnswer', () => {
	it('folds Unicode compatibility forms, case and inner whitespace', () => {
		expect(normalizeAnswer('\uFF34he\u00A0 Ｆｏｒｍ ')).toBe('the form')
	})
})

describe('answersRevealed', () => {
	const failed = { passed: false }
	const passed = { passed: true }

	it('by default withholds answers after a failed attempt while attempts remain', () => {
		expect(answersRevealed(quiz, [])).toBe(false)
		expect(answersRevealed(quiz, [failed])).toBe(false)
		expect(answersRevealed(quiz, [failed, failed])).toBe(false)
		expect(answersRevealed({ ...quiz, revealAnswers: 'after_pass_or_last_attempt' }, [failed])).toBe(false)
	})

	it('by default reveals once an attempt passed or every attempt is used', () => {
		expect(answersRevealed(quiz, [passed])).toBe(true)
		expect(answersRevealed(quiz, [failed, passed])).toBe(true)
		// A pass stays a pass: a later failed retake does not hide the answers again.
		expect(answersRevealed(quiz, [passed, failed])).toBe(true)
		expect(answersRevealed(quiz, [failed, failed, failed])).toBe(true)
		expect(answersRevealed({ ...quiz, maxAttempts: 1 }, [failed])).toBe(true)
	})

	it('follows never and always', () => {
		expect(answersRevealed({ ...quiz, revealAnswers: 'never' }, [passed, failed, failed])).toBe(false)
		expect(answersRevealed({ ...quiz, revealAnswers: 'always' }, [failed])).toBe(true)
	})

	it('reads showAnswers before the older revealAnswers (decision 0054)', () => {
		expect(answersRevealed({ ...quiz, revealAnswers: 'always', showAnswers: 'never' }, [failed])).toBe(false)
		expect(answersRevealed({ ...quiz, showAnswers: 'after_each_attempt' }, [])).toBe(false)
		expect(answersRevealed({ ...quiz, showAnswers: 'after_each_attempt' }, [failed])).toBe(true)
		expect(answersRevealed({ ...quiz, showAnswers: 'after_last_attempt' }, [failed, failed])).toBe(false)
		expect(answersRevealed({ ...quiz, showAnswers: 'after_last_attempt' }, [failed, failed, failed])).toBe(true)
		// After passing: a failed run of every attempt shows nothing.
		expect(answersRevealed({ ...quiz, showAnswers: 'after_passing' }, [failed, failed, failed])).toBe(false)
		expect(answersRevealed({ ...quiz, showAnswers: 'after_passing' }, [failed, passed])).toBe(true)
	})

	it('after the due date: the learner’s own due date, passed; never without one', () => {
		const rule = { ...quiz, showAnswers: 'after_due_date' as const }
		const due = new Date('2026-12-01T09:00:00Z')
		expect(answersRevealed(rule, [failed, failed, failed], due, new Date('2026-12-01T08:59:59Z'))).toBe(false)
		expect(answersRevealed(rule, [], due, new Date('2026-12-01T09:00:00Z'))).toBe(true)
		expect(answersRevealed(rule, [passed, failed, failed], null, new Date('2030-01-01T00:00:00Z'))).toBe(false)
	})
})

describe('reviewAttempt', () => {
	const answers = { q1: 'a', q2: 'false', q3: 'the form' }
	const grade = gradeQuiz(quiz, answers)
	const attempt = {
		attempt_number: 1,
		score: grade.score,
		passed: grade.passed,
		answers_json: answers,
		feedback_json: grade.perQuestionFeedback,
		started_at: new Date('2026-11-25T08:00:00Z'),
		submitted_at: new Date('2026-11-25T08:05:00Z'),
	} as unknown as QuizAttempt

	it('keeps the answers and says only right or wrong when not revealed', () => {
		const review = reviewAttempt(quiz, attempt, false)
		expect(review).toMatchObject({ attemptNumber: 1, score: 67, correctCount: 2, totalCount: 3 })
		expect(review.submittedAt).toBe('2026-11-25T08:05:00.000Z')
		expect(review.questions).toEqual([
			{ questionId: 'q1', given: 'a', correct: false },
			{ questionId: 'q2', given: 'false', correct: true },
			{ questionId: 'q3', given: 'the form', correct: true },
		])
		const serialized = JSON.stringify(review)
		for (const secret of ['B is right', 'It is false', 'The form.', 'The Form', '"b"'])
			expect(serialized).not.toContain(secret)
	})

	it('adds the correct answers and explanations when revealed', () => {
		expect(reviewAttempt(quiz, attempt, true).questions).toEqual([
			{ questionId: 'q1', given: 'a', correct: false, correctAnswer: 'b', explanation: 'B is right.' },
			{ questionId: 'q2', given: 'false', correct: true, correctAnswer: 'false', explanation: 'It is false.' },
			{ questionId: 'q3', given: 'the form', correct: true, correctAnswer: 'The Form', explanation: 'The form.' },
		])
	})
})
