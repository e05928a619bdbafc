import { auditSteps, type AuditInput } from '#db/audit.ts'
import type { Database } from '#db/client.ts'
import { setCourseFlagsSteps } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'

/** A course's flags and their audit row, together. */
export function saveCourseFlags(
	db: Database,
	tenantId: string,
	courseSlug: string,
	flags: Record<string, boolean>,
	audit: AuditInput,
) {
	return inTransaction(db, function* (tx) {
		yield* setCourseFlagsSteps(tx, tenantId, courseSlug, flags)
		yield* auditSteps(tx, audit)
	})
}
