import { auditSteps, type AuditInput } from '#db/audit.ts'
import type { Database } from '#db/client.ts'
import { setCourseFlagsSteps } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'

import { seatLimitOf, seatsUsed } from '#db/seats.ts'
import type { Tenant } from '#db/tenants.ts'
import { isPaid, type Course } from '../content/content.ts'

export { MAX_SEATS } from '#db/seats.ts'

/** A paid course's seats (decision 0065): how many are in use and its limit (null: none); null for a free course. */
export async function courseSeats(db: Database, tenant: Tenant, course: Course) {
	if (!isPaid(course)) return null
	return {
		used: await seatsUsed(db, tenant.id, course.slug),
		limit: seatLimitOf(tenant.feature_flags_json, course.slug),
	}
}

/** A course's flags and their audit row, together. */
export function saveCourseFlags(
	db: Database,
	tenantId: string,
	courseSlug: string,
	flags: Record<string, boolean | number | null>,
	audit: AuditInput,
) {
	return inTransaction(db, function* (tx) {
		yield* setCourseFlagsSteps(tx, tenantId, courseSlug, flags)
		yield* auditSteps(tx, audit)
	})
}
