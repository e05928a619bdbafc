import { describe, expect, it } from 'vitest'
import { course as courseShape, entry as entryShape } from '#app/content/content.ts'
import { createView } from '../../cms/strapi/src/utils/view.ts'

// The Strapi project's view of an entry's due date (cms/strapi/src/utils/view.ts), shaped as the
// local content service serves it (content-service.test.ts checks that one over HTTP; this runs the
// Strapi side without starting Strapi). Decision 0045.

const assets = { rewrite: (text: string) => text, url: () => null }
const en = {
	slug: 'c',
	listed: true,
	updatedAt: '2026-11-01T00:00:00.000Z',
	publicationDate: '2026-11-01T00:00:00.000Z',
	title: 'C',
	summary: 'S',
	description: 'D',
	modules: [
		{
			slug: 'm',
			title: 'M',
			entries: [
				{ slug: 'absolute', type: 'lesson', title: 'A', body: 'a', dueAt: '2027-01-15T16:00:00.000Z' },
				{ slug: 'relative', type: 'quiz', title: 'R', body: 'r', dueDaysAfterEnrollment: 7 },
				{
					slug: 'both',
					type: 'lesson',
					title: 'B',
					body: 'b',
					dueAt: '2027-02-01T00:00:00Z',
					dueDaysAfterEnrollment: 3,
				},
				{ slug: 'none', type: 'lesson', title: 'N', body: 'n', dueAt: null, dueDaysAfterEnrollment: null },
			],
		},
	],
}

describe('the Strapi view of due dates', () => {
	it('serves dueAt and dueDaysAfterEnrollment as `due`, dueAt first, nothing when neither is set, in every locale', () => {
		for (const locale of ['en', 'fr']) {
			const view = createView({ locale, base: 'http://cms', assets })
			const course = courseShape.parse(view.course({ en, loc: null, status: 'published' }))
			expect(Object.fromEntries(course.modules[0]!.entries.map((e) => [e.slug, e.due ?? null]))).toEqual({
				absolute: { at: '2027-01-15T16:00:00.000Z' },
				relative: { daysAfterEnrollment: 7 },
				both: { at: '2027-02-01T00:00:00.000Z' },
				none: null,
			})
			const entry = entryShape.parse(view.entry({ en, loc: null }, 'relative'))
			expect(entry.due).toEqual({ daysAfterEnrollment: 7 })
			expect('due' in (view.entry({ en, loc: null }, 'none') as object)).toBe(false)
		}
	})
})
