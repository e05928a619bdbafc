import { describe, expect, it } from 'vitest'
import type { Quiz } from './content.ts'
import { gradeQuiz, normalizeAnswer } from './quiz.server.ts'

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
