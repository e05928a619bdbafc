import { auditSteps } from '#db/audit.ts'
import type { User } from '#db/users.ts'
import { inTransaction } from '#db/transaction.ts'
import { enqueueSteps, type JobSite } from '../platform/jobs.server.ts'
import { adminAudit, type AdminScope } from './admin.server.ts'

export { COUNT_CAP, findScopedUser, listUsers } from '#db/admin.ts'

/** An admin's resend of a user's verification mail: the audit row and the mail's job together (decision 0033). */
export function resendVerification(scope: AdminScope, target: Pick<User, 'id' | 'tenant_id'>, site: JobSite) {
	return inTransaction(scope.ctx.db, function* (tx) {
		yield* enqueueSteps(tx, 'mail.verification', { ...site, userId: target.id })
		yield* auditSteps(
			tx,
			adminAudit(scope, 'user.verification_resent', { kind: 'user', id: target.id, tenantId: target.tenant_id }),
		)
	})
}
