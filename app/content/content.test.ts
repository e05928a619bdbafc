import { describe, expect, it } from 'vitest'
import { entry } from './content.ts'

// The assignment block of an entry as the content service sends it (decision 0027, cms/README.md):
// what the app accepts, the defaults it fills in, and what it refuses before any learner sees it.

const assignmentEntry = (assignment: unknown) => ({
	slug: 'build-a-form',
	type: 'assignment',
	courseSlug: 'intro-to-web',
	moduleSlug: 'building-for-everyone',
	title: 'Build a form',
	body: 'Build it.',
	estimatedMinutes: 30,
	locale: 'en',
	quiz: null,
	assignment,
})

/** The paths of the issues zod reports for the entry. */
const problems = (assignment: unknown) => {
	const parsed = entry.safeParse(assignmentEntry(assignment))
	return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'))
}

describe('an entry’s assignment rules', () => {
	it('takes a graded assignment with a pass mark at most the maximum, and fills the defaults', () => {
		expect(entry.parse(assignmentEntry({ graded: true, maxScore: 10, passingScore: 10 })).assignment).toEqual({
			graded: true,
			maxScore: 10,
			passingScore: 10,
		})
		expect(entry.parse(assignmentEntry({ graded: true })).assignment).toEqual({
			graded: true,
			maxScore: 100,
			passingScore: null,
		})
		// No block at all: an ungraded hand-in (assignmentRules fills in the rest).
		expect(entry.parse({ ...assignmentEntry(undefined), assignment: undefined }).assignment).toBeNull()
	})

	it('refuses a pass mark above the maximum score', () => {
		expect(problems({ graded: true, maxScore: 10, passingScore: 11 })).toEqual(['assignment.passingScore'])
		// Against the default maximum too.
		expect(problems({ graded: true, passingScore: 101 })).toEqual(['assignment.passingScore'])
	})

	it('refuses a file type it does not know, and an empty list of types', () => {
		expect(problems({ graded: false, allowedFileTypes: ['pdf', 'exe'] })).toEqual(['assignment.allowedFileTypes.1'])
		expect(problems({ graded: false, allowedFileTypes: ['html'] })).toEqual(['assignment.allowedFileTypes.0'])
		expect(problems({ graded: false, allowedFileTypes: [] })).toEqual(['assignment.allowedFileTypes'])
		expect(problems({ graded: false, allowedFileTypes: ['pdf', 'docx', 'md'] })).toEqual([])
	})

	it('refuses a maximum outside 1 to 1,000 and scores that are not whole', () => {
		expect(problems({ graded: true, maxScore: 0 })).toEqual(['assignment.maxScore'])
		expect(problems({ graded: true, maxScore: 1001 })).toEqual(['assignment.maxScore'])
		expect(problems({ graded: true, maxScore: 10, passingScore: 5.5 })).toEqual(['assignment.passingScore'])
		expect(problems({ graded: true, passingScore: -1 })).toEqual(['assignment.passingScore'])
	})
})
