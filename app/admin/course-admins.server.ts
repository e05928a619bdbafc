import type { AuditInput } from '#db/audit.ts'
import { auditSteps } from '#db/audit.ts'
import type { Database } from '#db/client.ts'
import { revokeAssignmentSteps } from '#db/admin.ts'
import { assignCourseAdminSteps } from '#db/learning.ts'
import { inTransaction } from '#db/transaction.ts'
import { updateUserSteps } from '#db/users.ts'

export { courseAssignments } from '#db/admin.ts'

/**
 * Ends a course_admin's assignment, the sessions whose claims list the course, and writes the audit
 * row, together: a failure half way leaves the assignment as it was, and the same post then revokes
 * it. False when there was no such assignment.
 */
export function revokeCourseAdmin(
	db: Database,
	tenantId: string,
	courseSlug: string,
	userId: string,
	audit: AuditInput,
) {
	return inTransaction(db, function* (tx) {
		if (!(yield* revokeAssignmentSteps(tx, tenantId, courseSlug, userId))) return false
		yield* updateUserSteps(tx, userId, {}, { bumpTokenVersion: true })
		yield* auditSteps(tx, audit)
		return true
	})
}

/** The assignment, the sessions' end (their claims list the courses) and the audit row, together. */
export function assignCourseAdmin(
	db: Database,
	learner: { tenantId: string; userId: string },
	courseSlug: string,
	assignedBy: string,
	audit: AuditInput,
) {
	return inTransaction(db, function* (tx) {
		yield* assignCourseAdminSteps(tx, learner, courseSlug, assignedBy)
		yield* updateUserSteps(tx, learner.userId, {}, { bumpTokenVersion: true })
		yield* auditSteps(tx, audit)
	})
}
