import { describe, expect, it } from 'vitest'
import { assignmentStanding, assignmentView } from './course-analytics.server.ts'

describe('assignmentView', () => {
	const entries = [
		{ slug: 'intro', title: 'Intro', type: 'lesson' as const },
		{ slug: 'form', title: 'Build a form', type: 'assignment' as const },
		{ slug: 'essay', title: 'Essay', type: 'assignment' as const },
	]

	it('lists assignment entries in course order, with zeros for one nobody handed in', () => {
		const view = assignmentView(entries, [
			{
				entrySlug: 'form',
				awaiting: 2,
				returned: 1,
				graded: 3,
				passed: 2,
				averageScore: 22 / 3,
				averageMax: 10,
				averageRatio: 22 / 30,
			},
		])
		expect(view).toEqual([
			{
				slug: 'form',
				title: 'Build a form',
				awaiting: 2,
				returned: 1,
				graded: 3,
				passed: 2,
				averageScore: 7.3,
				averageMax: 10,
				averagePercent: 73,
			},
			{
				slug: 'essay',
				title: 'Essay',
				awaiting: 0,
				returned: 0,
				graded: 0,
				passed: 0,
				averageScore: null,
				averageMax: null,
				averagePercent: null,
			},
		])
	})

	it('ignores figures of entries the course no longer has', () => {
		const stray = {
			awaiting: 9,
			returned: 0,
			graded: 0,
			passed: 0,
			averageScore: null,
			averageMax: null,
			averageRatio: null,
		}
		expect(assignmentView(entries, [{ entrySlug: 'gone', ...stray }]).map((a) => a.awaiting)).toEqual([0, 0])
	})
})

describe('assignmentStanding', () => {
	const latest = {
		userId: 'u',
		entrySlug: 'form',
		submissionNumber: 2,
		score: 8,
		maxScore: 10,
		passed: true,
		late: false,
	}

	it('is not_submitted without a submission', () => {
		expect(assignmentStanding('form', undefined)).toEqual({
			slug: 'form',
			status: 'not_submitted',
			score: null,
			maxScore: null,
			passed: null,
			late: false,
		})
	})

	it('carries the lateness stored with the newest hand-in', () => {
		expect(assignmentStanding('form', { ...latest, status: 'submitted', late: true }).late).toBe(true)
		expect(assignmentStanding('form', { ...latest, status: 'graded' }).late).toBe(false)
	})

	it('shows the score and verdict of a graded submission', () => {
		expect(assignmentStanding('form', { ...latest, status: 'graded' })).toEqual({
			slug: 'form',
			status: 'graded',
			score: 8,
			maxScore: 10,
			passed: true,
			late: false,
		})
	})

	it('shows a returned submission’s score without a verdict, and nothing of one awaiting grading', () => {
		expect(assignmentStanding('form', { ...latest, status: 'returned', passed: false })).toMatchObject({
			status: 'returned',
			score: 8,
			passed: null,
		})
		// A resubmission awaiting grading: a stale score from elsewhere is never shown.
		expect(assignmentStanding('form', { ...latest, status: 'submitted', passed: null })).toMatchObject({
			status: 'submitted',
			score: null,
			maxScore: null,
			passed: null,
		})
	})

	it('gives no maximum when a grade carries no score', () => {
		expect(assignmentStanding('form', { ...latest, status: 'graded', score: null, passed: null })).toMatchObject({
			score: null,
			maxScore: null,
		})
	})
})
