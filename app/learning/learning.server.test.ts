import { describe, expect, it } from 'vitest'
import type { Enrollment } from '#db/learning.ts'
import type { Submission } from '#db/submissions.ts'
import type { Course } from '../content/content.ts'
import { dashboardView, entryLocks } from './learning.server.ts'
import { type FlatEntry } from './entries.ts'

const entry = (slug: string, moduleSlug: string, index: number): FlatEntry => ({
	slug,
	type: 'lesson',
	title: slug,
	estimatedMinutes: null,
	moduleSlug,
	moduleTitle: moduleSlug,
	locale: 'en',
	moduleLocale: 'en',
	index,
})
// Two modules of two entries each.
const entries = [entry('a1', 'a', 0), entry('a2', 'a', 1), entry('b1', 'b', 2), entry('b2', 'b', 3)]
const locks = (done: string[], sequential = false) => Object.fromEntries(entryLocks(entries, new Set(done), sequential))

describe('entryLocks', () => {
	it('opens the first entry of every module and locks the rest until the earlier ones are complete', () => {
		expect(locks([])).toEqual({
			a1: null,
			a2: 'complete_previous_in_module',
			b1: null,
			b2: 'complete_previous_in_module',
		})
		expect(locks(['a1', 'b1'])).toEqual({ a1: null, a2: null, b1: null, b2: null })
	})

	it('with the sequential flag, locks every entry behind any earlier incomplete one', () => {
		expect(locks([], true)).toEqual({
			a1: null,
			a2: 'complete_previous_in_module',
			b1: 'complete_previous_in_course',
			b2: 'complete_previous_in_module',
		})
		expect(locks(['a1'], true)).toMatchObject({ a2: null, b1: 'complete_previous_in_course' })
		expect(locks(['a1', 'a2'], true)).toMatchObject({ b1: null, b2: 'complete_previous_in_module' })
	})

	it('ignores completions of entries the course does not have', () => {
		expect(locks(['zz', 'a1/../a2', ''])).toEqual(locks([]))
	})
})

describe('dashboardView', () => {
	const course: Course = {
		slug: 'web',
		status: 'published',
		listed: true,
		publishedAt: '2026-01-01T00:00:00Z',
		archivedAt: null,
		updatedAt: '2026-01-01T00:00:00Z',
		price: null,
		estimatedMinutes: null,
		title: 'Web',
		summary: '',
		entryCount: 3,
		// The course's title is served in Chinese; entry two's title fell back to English on its own.
		locale: 'zh',
		description: '',
		modules: [
			{
				slug: 'm',
				title: 'M',
				entries: ['one', 'two', 'three'].map((slug) => ({
					slug,
					type: 'lesson' as const,
					title: slug.toUpperCase(),
					estimatedMinutes: null,
					...(slug === 'two' ? { locale: 'en' as const } : {}),
				})),
			},
		],
	}
	const keys = { tenant_id: 't', user_id: 'u', course_slug: 'web' }
	const enrollment = (status: Enrollment['status']): Enrollment => ({
		...keys,
		id: 'e',
		status,
		enrolled_at: new Date(0),
		completed_at: null,
	})
	const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute))
	const progress = [
		{ ...keys, id: 'p1', entry_slug: 'one', completed_at: at(1), last_viewed_at: at(1) },
		{ ...keys, id: 'p2', entry_slug: 'two', completed_at: null, last_viewed_at: at(5) },
		{ ...keys, id: 'p3', entry_slug: 'three', completed_at: null, last_viewed_at: at(9) },
		{ ...keys, id: 'p4', course_slug: 'gone', entry_slug: 'x', completed_at: null, last_viewed_at: at(20) },
	]

	it('counts completed entries per course and resumes the latest viewed ones first', () => {
		const view = dashboardView([{ enrollment: enrollment('active'), course }], progress, [], [])
		expect(view.courses).toEqual([
			{
				slug: 'web',
				title: 'Web',
				lang: 'zh',
				status: 'active',
				passed: false,
				percent: 33,
				completedCount: 1,
				total: 3,
			},
		])
		// The stored course result (decision 0037), by course.
		const passed = dashboardView(
			[{ enrollment: enrollment('active'), course }],
			progress,
			[],
			[],
			new Map([['web', { passed: true }]]),
		)
		expect(passed.courses[0].passed).toBe(true)
		expect(view.resume.map((r) => r.href)).toEqual(['/learn/course/web/entry/three', '/learn/course/web/entry/two'])
		// Each entry title says its own language, apart from the course's.
		expect(view.resume.map((r) => [r.lang, r.courseLang])).toEqual([
			['zh', 'zh'],
			['en', 'zh'],
		])
	})

	it('offers nothing to resume in a course awaiting payment', () => {
		expect(dashboardView([{ enrollment: enrollment('pending'), course }], progress, [], []).resume).toEqual([])
	})

	const submission = (
		id: string,
		entry: string,
		status: Submission['status'],
		minute: number,
		more: Partial<Submission> = {},
	): Submission => ({
		...keys,
		id,
		entry_slug: entry,
		submission_number: 1,
		text_answer: null,
		link_url: null,
		status,
		score: null,
		max_score: null,
		passed: null,
		feedback: null,
		graded_by: null,
		graded_at: status === 'submitted' ? null : at(minute),
		submitted_at: at(0),
		due_at: null,
		late: false,
		...more,
	})

	it('lists returned and graded work newest first, once per entry, with its score and verdict', () => {
		const view = dashboardView(
			[{ enrollment: enrollment('active'), course }],
			progress,
			[],
			[
				submission('s1', 'two', 'returned', 3, { score: 3, max_score: 10 }),
				submission('s2', 'two', 'graded', 8, { submission_number: 2, score: 8, max_score: 10, passed: true }),
				submission('s3', 'three', 'returned', 5),
				submission('s4', 'gone', 'graded', 1, { course_slug: 'elsewhere', score: 2, max_score: 10, passed: false }),
			],
		)
		expect(view.work).toEqual([
			{
				key: 's2',
				href: '/learn/course/web/entry/two',
				courseSlug: 'web',
				title: 'TWO',
				lang: 'en',
				course: 'Web',
				courseLang: 'zh',
				status: 'graded',
				score: 8,
				maxScore: 10,
				passed: true,
				submissionNumber: 2,
				gradedAt: at(8).toISOString(),
			},
			expect.objectContaining({ key: 's3', status: 'returned', score: null, passed: null }),
			// A course the learner is no longer enrolled in is named by its slug.
			expect.objectContaining({
				key: 's4',
				title: 'gone',
				course: 'elsewhere',
				lang: undefined,
				courseLang: undefined,
				passed: false,
			}),
		])
	})

	it('gives no verdict on work returned for revision, and lists nothing still awaiting grading', () => {
		const view = dashboardView(
			[{ enrollment: enrollment('active'), course }],
			progress,
			[],
			[
				submission('r', 'one', 'returned', 2, { score: 4, max_score: 10, passed: false }),
				submission('w', 'two', 'submitted', 0),
			],
		)
		expect(view.work.map((w) => [w.key, w.status, w.score, w.passed])).toEqual([['r', 'returned', 4, null]])
	})
})
