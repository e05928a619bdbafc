import type { RequestContext } from '#app/context.ts'
import { auditSteps } from '#db/audit.ts'
import { revokeSessionSteps } from '#db/sessions.ts'
import { inTransaction } from '#db/transaction.ts'
import { sessionFromProofSteps } from '../accounts/auth.server.ts'
import type { CurrentSession } from '../accounts/session.server.ts'
import { adminAudit } from '../platform/audit.server.ts'

// Impersonation (spec, Authentication 12): each switch of session and its audit row, together.

/** The target's session, named after the super_admin session it starts from, and its audit row; null when the proof fails. */
export function startImpersonation(
	ctx: RequestContext,
	session: CurrentSession,
	target: { id: string; tenantId: string },
	proof: string,
) {
	return inTransaction(ctx.db, function* (tx) {
		const started = yield* sessionFromProofSteps(tx, ctx, target.id, proof, { impersonatorSessionId: session.id })
		if (started)
			yield* auditSteps(
				tx,
				adminAudit(
					{ session },
					'auth.impersonate.start',
					{ kind: 'user', id: target.id, tenantId: target.tenantId },
					{ impersonatorId: session.user.id },
				),
			)
		return started
	})
}

/** The super_admin's session back, both impersonation sessions ended and the audit row; null when the proof fails. */
export function stopImpersonation(
	ctx: RequestContext,
	session: CurrentSession,
	origin: NonNullable<CurrentSession['impersonator']>,
	proof: string,
) {
	return inTransaction(ctx.db, function* (tx) {
		const restored = yield* sessionFromProofSteps(tx, ctx, origin.userId, proof, { role: 'super_admin' })
		if (!restored) return null
		yield* revokeSessionSteps(tx, session.id)
		yield* revokeSessionSteps(tx, origin.sessionId)
		yield* auditSteps(tx, {
			actorUserId: origin.userId,
			action: 'auth.impersonate.stop',
			targetKind: 'user',
			targetId: session.user.id,
			tenantId: ctx.tenant?.id ?? null,
			metadata: { impersonatorId: origin.userId },
		})
		return restored
	})
}
