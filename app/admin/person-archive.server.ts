import { auditSteps } from '#db/audit.ts'
import { isErasedEmail } from '#db/data-rights.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { accountJobs } from '../accounts/jobs.server.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { jobSite } from '../platform/jobs.server.ts'
import type { AdminScope } from './admin.server.ts'
import { erasureTarget } from './erasure.server.ts'

/**
 * The person whose data a tenant admin may copy (decision 0063): a user of this tenant, not a
 * platform account and not erased (nothing of them is kept); null otherwise (404, as someone who is
 * not there).
 */
export async function archiveTarget(scope: AdminScope & { tenant: Tenant }, id: string) {
	const target = await erasureTarget(scope, id)
	return target && !isErasedEmail(target.email) ? target : null
}

/**
 * A copy of a person's data made by a tenant admin: its audit row and the job that tells the person,
 * together, before the archive is read (an archive given out is never unrecorded). The archive is
 * the one the person downloads themselves (accounts/data-archive.server.ts).
 */
export function recordPersonArchive(scope: AdminScope & { tenant: Tenant }, target: { id: string }) {
	const tenantId = scope.tenant.id
	return inTransaction(scope.ctx.db, function* (tx) {
		yield* accountJobs.enqueueSteps(tx, 'mail.archiveMade', { ...jobSite(scope.ctx), tenantId, userId: target.id })
		yield* auditSteps(tx, adminAudit(scope, 'user.data_exported', { kind: 'user', id: target.id, tenantId }))
	})
}
