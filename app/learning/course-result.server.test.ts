import { describe, expect, it } from 'vitest'
import type { Standing } from '#db/course-results.ts'
import { evaluateResult, type RuleEntry } from './course-result.server.ts'

// The course result's rule (decision 0037), by class: each part of the rule alone, their
// combination, and what the learner is told remains.

const entry = (slug: string, type: RuleEntry['type'], graded = type === 'quiz'): RuleEntry => ({
	slug,
	title: slug,
	locale: 'en',
	type,
	graded,
})
const ENTRIES = [
	entry('lesson', 'lesson'),
	entry('quiz', 'quiz'),
	entry('graded', 'assignment', true),
	entry('ungraded', 'assignment', false),
]
const ALL = new Set(ENTRIES.map((e) => e.slug))

function standing(over: Partial<Standing> = {}): Standing {
	return { completed: ALL, attempts: [], submissions: [], ...over }
}
const attempt = (score: number, passed: boolean) => ({ entrySlug: 'quiz', score, passed })
const graded = (number: number, score: number, passed: boolean) => ({
	entrySlug: 'graded',
	number,
	status: 'graded',
	score,
	maxScore: 10,
	passed,
})

describe('evaluateResult', () => {
	it('default rule: every quiz and every graded assignment passed, on top of completion', () => {
		const ok = standing({ attempts: [attempt(33, false), attempt(80, true)], submissions: [graded(1, 7, true)] })
		expect(evaluateResult(undefined, ENTRIES, ok)).toMatchObject({ completed: true, passed: true, remaining: [] })
		// Completed because the attempts ran out (the learner): completed, not passed.
		const failed = standing({ attempts: [attempt(33, false), attempt(33, false), attempt(33, false)] })
		const r = evaluateResult(undefined, ENTRIES, failed)
		expect(r).toMatchObject({ completed: true, passed: false })
		expect(r.remaining).toEqual([
			{ kind: 'quiz', slug: 'quiz', title: 'quiz', locale: 'en', best: 33 },
			{ kind: 'assignment', slug: 'graded', title: 'graded', locale: 'en', state: 'none' },
		])
	})

	it('an ungraded assignment and lessons count only towards completion', () => {
		const r = evaluateResult(
			undefined,
			ENTRIES,
			standing({
				completed: new Set(['quiz', 'graded']),
				attempts: [attempt(90, true)],
				submissions: [graded(1, 9, true)],
			}),
		)
		expect(r).toMatchObject({ completed: false, passed: false, remaining: [{ kind: 'entries', count: 2 }] })
	})

	it('the newest grade decides, and says whether the work awaits a grade or needs a better one', () => {
		const awaiting = { entrySlug: 'graded', number: 2, status: 'submitted', score: null, maxScore: null, passed: null }
		const rows = (subs: Standing['submissions']) =>
			evaluateResult(undefined, ENTRIES, standing({ attempts: [attempt(100, true)], submissions: subs })).remaining
		expect(rows([graded(1, 3, false), awaiting])).toEqual([expect.objectContaining({ state: 'awaiting' })])
		expect(rows([graded(1, 3, false)])).toEqual([expect.objectContaining({ state: 'not_passed' })])
		// Passed, reopened, and graded again below the mark: no longer passed.
		expect(rows([graded(1, 9, true), graded(2, 3, false)])).toEqual([expect.objectContaining({ state: 'not_passed' })])
	})

	it('quizzes: false and assignments: false leave that part out; the average still counts it', () => {
		const s = standing({ attempts: [attempt(20, false)], submissions: [graded(1, 2, false)] })
		expect(evaluateResult({ quizzes: false, assignments: true, minimumAverage: null }, ENTRIES, s).remaining).toEqual([
			expect.objectContaining({ kind: 'assignment' }),
		])
		expect(evaluateResult({ quizzes: true, assignments: false, minimumAverage: null }, ENTRIES, s).remaining).toEqual([
			expect.objectContaining({ kind: 'quiz' }),
		])
		const lenient = evaluateResult({ quizzes: false, assignments: false, minimumAverage: null }, ENTRIES, s)
		expect(lenient).toMatchObject({ passed: true, average: 20 })
	})

	it('a minimum average: the quizzes’ best scores and the graded assignments’ newest grades, unscored counting 0', () => {
		const rule = { quizzes: false, assignments: false, minimumAverage: 60 }
		const s = standing({ attempts: [attempt(40, false), attempt(70, true)], submissions: [graded(1, 4, false)] })
		// (70 + 40) / 2 = 55
		expect(evaluateResult(rule, ENTRIES, s)).toMatchObject({
			passed: false,
			average: 55,
			remaining: [{ kind: 'average', average: 55, minimum: 60 }],
		})
		expect(evaluateResult(rule, ENTRIES, standing({ attempts: [attempt(70, true)] }))).toMatchObject({
			passed: false,
			average: 35,
		})
		expect(evaluateResult({ ...rule, minimumAverage: 55 }, ENTRIES, s).passed).toBe(true)
	})

	it('every part at once: all of it must hold', () => {
		const rule = { quizzes: true, assignments: true, minimumAverage: 90 }
		const s = standing({ attempts: [attempt(80, true)], submissions: [graded(1, 8, true)] })
		expect(evaluateResult(rule, ENTRIES, s).remaining).toEqual([{ kind: 'average', average: 80, minimum: 90 }])
		expect(evaluateResult({ ...rule, minimumAverage: 80 }, ENTRIES, s).passed).toBe(true)
	})

	it('a course with nothing scored passes on completion, whatever minimum it names', () => {
		const lessons = [entry('a', 'lesson'), entry('b', 'lesson')]
		const done = { completed: new Set(['a', 'b']), attempts: [], submissions: [] }
		expect(evaluateResult({ quizzes: true, assignments: true, minimumAverage: 100 }, lessons, done)).toMatchObject({
			passed: true,
			average: null,
		})
	})
})
