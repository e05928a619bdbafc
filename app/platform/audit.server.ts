import type { AuditAction, AuditInput } from '#db/audit.ts'

/**
 * Who acted, as a signed-in session says it (accounts' CurrentSession has this shape): written here so
 * that accounts (a learner's own changes) and admin (every admin action) both reach the audit row from
 * below, without one room importing the other.
 */
export interface AuditActor {
	session: { user: { id: string }; impersonator: { userId: string } | null }
}

/** The audit row of an admin action; the impersonator, when there is one, goes into the metadata. */
export function adminAudit(
	scope: AuditActor,
	action: AuditAction,
	target: { kind: string; id: string | null; tenantId: string | null },
	metadata: Record<string, unknown> = {},
): AuditInput {
	const impersonator = scope.session.impersonator?.userId
	return {
		actorUserId: scope.session.user.id,
		action,
		targetKind: target.kind,
		targetId: target.id,
		tenantId: target.tenantId,
		metadata: impersonator ? { ...metadata, impersonatorId: impersonator } : metadata,
	}
}
