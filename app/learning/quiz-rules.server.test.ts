import { describe, expect, it } from 'vitest'
import type { Course, QuizPublic } from '../content/content.ts'
import { drawForAttempt } from './quiz-rules.server.ts'

const options = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, text: id.toUpperCase() }))
const quiz: QuizPublic = {
	maxAttempts: 3,
	passingScore: 70,
	questions: [
		...['q1', 'q2', 'q3', 'q4', 'q5', 'q6'].map((id) => ({
			id,
			prompt: id,
			type: 'multiple_choice' as const,
			options,
		})),
		{ id: 'q7', prompt: 'q7', type: 'true_false' as const },
	],
}
const course = { slug: 'intro-to-web' } as Course
const scope = { tenantId: 't1', userId: 'u1' }
const order = (q: QuizPublic) => q.questions.map((x) => x.id).join()
const optionOrder = (q: QuizPublic) =>
	q.questions.map((x) => (x.type === 'multiple_choice' ? x.options.map((o) => o.id).join('') : '')).join()

describe('drawForAttempt', () => {
	it('draws the same order for the same learner and attempt (a reload), keeping every question and option', () => {
		const one = drawForAttempt(quiz, scope, course, 'basics-quiz', 1)
		expect(drawForAttempt(quiz, scope, course, 'basics-quiz', 1)).toEqual(one)
		expect([...one.questions.map((x) => x.id)].sort()).toEqual(quiz.questions.map((x) => x.id))
		for (const q of one.questions)
			if (q.type === 'multiple_choice') expect(q.options.map((o) => o.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e'])
		// The quiz as served is not changed.
		expect(order(quiz)).toBe('q1,q2,q3,q4,q5,q6,q7')
	})

	it('draws afresh for the next attempt and for another learner', () => {
		const draws = [1, 2, 3, 4].map((n) => drawForAttempt(quiz, scope, course, 'basics-quiz', n))
		expect(new Set(draws.map(order)).size).toBeGreaterThan(1)
		expect(new Set(draws.map(optionOrder)).size).toBeGreaterThan(1)
		const other = drawForAttempt(quiz, { ...scope, userId: 'u2' }, course, 'basics-quiz', 1)
		expect(order(other) + optionOrder(other)).not.toBe(order(draws[0]) + optionOrder(draws[0]))
	})
})
