import type { AuditAction, AuditInput } from '#db/audit.ts'

/**
 * How an action came when not through a person's own session, written the same way in every audit
 * row: a SCIM token, an API key (each acting as its creator) or a tenant's single sign-on provider,
 * and which one.
 */
export interface AuditVia {
	via: 'scim' | 'api' | 'sso'
	viaId?: string
}

/**
 * Who acted, as a signed-in session says it (accounts' CurrentSession has this shape): written here so
 * that accounts (a learner's own changes) and admin (every admin action) both reach the audit row from
 * below, without one room importing the other.
 */
export interface AuditActor {
	session: { user: { id: string }; impersonator: { userId: string } | null; via?: AuditVia }
}

/** The audit row of an admin action; the impersonator, when there is one, goes into the metadata. */
export function adminAudit(
	scope: AuditActor,
	action: AuditAction,
	target: { kind: string; id: string | null; tenantId: string | null },
	metadata: Record<string, unknown> = {},
): AuditInput {
	const impersonator = scope.session.impersonator?.userId
	// A SCIM token or an API key acts as its creator (decisions 0070, 0071): the row names it too.
	if (scope.session.via) metadata = { ...metadata, ...scope.session.via }
	return {
		actorUserId: scope.session.user.id,
		action,
		targetKind: target.kind,
		targetId: target.id,
		tenantId: target.tenantId,
		metadata: impersonator ? { ...metadata, impersonatorId: impersonator } : metadata,
	}
}
