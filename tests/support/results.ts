import type { Database } from '#db/client.ts'
import type { Scope } from '#db/learning.ts'
import { recordSubmissionSteps } from '#db/submissions.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserByEmail } from '#db/users.ts'
import { gradeSubmission } from '#tests/support/repository.ts'

/** The demo's graded assignments (cms/content): a row-level shortcut to "complete" must give them a passing grade too. */
export const GRADED_ASSIGNMENTS: Record<string, { maxScore: number }> = {
	'intro-to-web/build-a-form': { maxScore: 10 },
}

/**
 * A hand-in with a passing grade, stored as the hand-in and the grading page store them: what a
 * graded assignment needs to count as passed in the course result (decision 0037), for tests that
 * complete entries through rows (markEntryCompleteRow) rather than through the pages.
 */
export async function passAssignment(db: Database, scope: Scope, courseSlug: string, entrySlug: string) {
	const { maxScore } = GRADED_ASSIGNMENTS[`${courseSlug}/${entrySlug}`] ?? { maxScore: 100 }
	const recorded = await inTransaction(db, (tx) =>
		recordSubmissionSteps(tx, scope, courseSlug, entrySlug, { text: 'Handed in', link: null, fileIds: [] }),
	)
	if (recorded.kind !== 'recorded') throw new Error('the hand-in was refused')
	const grader = await findUserByEmail(db, scope.tenantId, 'author@acme.test')
	await gradeSubmission(db, scope.tenantId, recorded.submission.id, {
		status: 'graded',
		score: maxScore,
		maxScore,
		passed: true,
		feedback: 'Well done',
		gradedBy: grader?.id ?? scope.userId,
	})
}

/** Completes `entrySlug` as a row, with a passing grade when it is one of the demo's graded assignments. */
export function isGradedAssignment(courseSlug: string, entrySlug: string) {
	return `${courseSlug}/${entrySlug}` in GRADED_ASSIGNMENTS
}
