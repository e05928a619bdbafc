import { auditSteps } from '#db/audit.ts'
import { isErasedEmail } from '#db/data-rights.ts'
import { erasePersonSteps } from '#db/erasure.ts'
import { findScopedUser } from '#db/admin.ts'
import { inTransaction } from '#db/transaction.ts'
import { withdrawInvitationsSteps } from '#app/accounts/invitations.server.ts'
import { fileStore } from '#app/learning/hand-in.server.ts'
import { log } from '#app/platform/log.server.ts'
import type { AdminScope } from './admin.server.ts'
import { adminAudit } from '../platform/audit.server.ts'

/*
 * Erasure of a person (decision 0044): their address and names go from every table, their files
 * from the store, their access ends; the records other people need (scores behind a course's
 * statistics, a certificate's revoked status, the audit trail) stay under an id that names no one.
 */

export type ErasureRefusal = 'self' | 'platform' | 'erased'

/** Why this admin may not erase this person, judged on the page; null when they may. */
export function erasureRefusal(
	scope: Pick<AdminScope, 'session'>,
	target: { id: string; role: string; email: string },
): ErasureRefusal | null {
	if (target.id === scope.session.user.id) return 'self'
	if (target.role === 'super_admin') return 'platform'
	if (isErasedEmail(target.email)) return 'erased'
	return null
}

/**
 * The person of this tenant an admin may look at for erasure: a user of the tenant (another
 * tenant's, a platform account or a malformed id is not found).
 */
export async function erasureTarget(scope: AdminScope & { tenant: { id: string } }, id: string) {
	const target = await findScopedUser(scope.ctx.db, scope.tenant.id, id)
	if (!target || target.tenant_id !== scope.tenant.id || target.role === 'super_admin') return null
	return target
}

/**
 * Erases the person in one transaction with its audit rows; false when, at that moment, the actor
 * may no longer erase them (demoted, deactivated) or someone erased them first. The files' bodies
 * leave the store after the commit (the database store's went with their rows).
 */
export async function erasePerson(scope: AdminScope, who: { tenantId: string; userId: string }) {
	const { ctx } = scope
	const actorId = scope.session.user.id
	const done = await inTransaction(ctx.db, function* (tx) {
		const erased = yield* erasePersonSteps(tx, who, actorId)
		if (!erased) return null
		// What they left pending as an inviter is withdrawn as on deactivation (decision 0032).
		const withdrawn = yield* withdrawInvitationsSteps(tx, { invitedBy: who.userId }, (row) =>
			adminAudit(
				scope,
				'invitation.revoked',
				{ kind: 'invitation', id: row.id, tenantId: row.tenant_id },
				{ role: row.role, courseSlug: row.course_slug, reason: 'inviter_deactivated' },
			),
		)
		for (const id of erased.certificates)
			yield* auditSteps(
				tx,
				adminAudit(
					scope,
					'certificate.revoked',
					{ kind: 'certificate', id, tenantId: who.tenantId },
					{ reason: 'erased' },
				),
			)
		// Counts only: the row says that someone was erased and by whom, never who they were.
		const counts = {
			files: erased.files.length,
			certificates: erased.certificates.length,
			invitations: erased.invitations + withdrawn.length,
		}
		yield* auditSteps(
			tx,
			adminAudit(scope, 'user.erased', { kind: 'user', id: who.userId, tenantId: who.tenantId }, counts),
		)
		return erased
	})
	if (!done) return false
	const store = fileStore(ctx)
	for (const id of done.files) await store.delete(id)
	log.info('user/erased', { tenantId: who.tenantId, userId: who.userId, files: done.files.length })
	return true
}
