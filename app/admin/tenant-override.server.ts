import type { RequestContext } from '#app/context.ts'
import { auditSteps } from '#db/audit.ts'
import { proofUsed } from '#db/sessions.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { sessionFromProofSteps } from '../accounts/auth.server.ts'
import { proofHash } from '../accounts/session.server.ts'
import { proofString, type Proof } from '../platform/canonical.server.ts'

/** Whether the tenant override's proof has already made a session (a replayed link). */
export function overrideProofUsed(ctx: RequestContext, proof: Proof) {
	return proofUsed(ctx.db, proofHash(proofString(proof)))
}

/** The super_admin's session on the tenant's host and its audit row, together; null when the proof no longer holds. */
export function enterTenant(ctx: RequestContext, tenant: Pick<Tenant, 'id'>, userId: string, proof: Proof) {
	return inTransaction(ctx.db, function* (tx) {
		const session = yield* sessionFromProofSteps(tx, ctx, userId, proofString(proof), { role: 'super_admin' })
		if (!session) return null
		yield* auditSteps(tx, {
			actorUserId: session.user.id,
			action: 'auth.tenant_override',
			targetKind: 'tenant',
			targetId: tenant.id,
			tenantId: tenant.id,
		})
		return session
	})
}
