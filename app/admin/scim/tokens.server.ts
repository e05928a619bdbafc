import { auditSteps } from '#db/audit.ts'
import {
	deleteGroupMappingSteps,
	findLiveScimToken,
	insertGroupMappingSteps,
	insertScimTokenSteps,
	listGroupMappings,
	listScimTokens,
	revokeScimTokenSteps,
	touchScimToken,
	type ScimToken,
} from '#db/scim.ts'
import type { ScimGroupRole } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import type { RequestContext } from '#app/context.ts'
import { hashToken, newRawToken } from '../../accounts/tokens.server.ts'
import { adminAudit } from '../../platform/audit.server.ts'
import type { AdminScope } from '../admin.server.ts'
import type { Acting } from '../users.server.ts'

// A tenant admin's SCIM tokens and group mappings (/admin/settings/scim, decision 0070), and the
// token check of every /scim/v2 request.

export { listGroupMappings, listScimTokens }

const TOKEN_FORM = /^scim_[A-Za-z0-9_-]{43}$/

const tenantSubject = (tenant: Tenant) => ({ kind: 'tenant', id: tenant.id, tenantId: tenant.id })

/** A new token for the tenant: returned once, only its SHA-256 kept; audited without it. */
export async function createScimToken(scope: AdminScope, tenant: Tenant, label: string) {
	const raw = `scim_${newRawToken()}`
	const row = await inTransaction(scope.ctx.db, function* (tx) {
		const created = yield* insertScimTokenSteps(tx, {
			tenantId: tenant.id,
			label,
			tokenHash: hashToken(raw),
			createdBy: scope.session.user.id,
		})
		yield* auditSteps(
			tx,
			adminAudit(scope, 'scim.token_created', tenantSubject(tenant), { tokenId: created.id, label }),
		)
		return created
	})
	return { raw, id: row.id }
}

/** Revokes one of the tenant's tokens; false when it is not the tenant's or was revoked already. */
export function revokeScimToken(scope: AdminScope, tenant: Tenant, id: string) {
	return inTransaction(scope.ctx.db, function* (tx) {
		const row = yield* revokeScimTokenSteps(tx, tenant.id, id)
		if (row)
			yield* auditSteps(
				tx,
				adminAudit(scope, 'scim.token_revoked', tenantSubject(tenant), { tokenId: row.id, label: row.label }),
			)
		return Boolean(row)
	})
}

export type MappingTarget = { role: ScimGroupRole; courseSlug: string | null } | { role: null; courseSlug: string }

/** A mapping of a group's name to a role or an enrollment; false when that name is mapped already. */
export function createGroupMapping(scope: AdminScope, tenant: Tenant, displayName: string, target: MappingTarget) {
	return inTransaction(scope.ctx.db, function* (tx) {
		const row = yield* insertGroupMappingSteps(tx, {
			tenantId: tenant.id,
			displayName,
			role: target.role,
			courseSlug: target.courseSlug,
			createdBy: scope.session.user.id,
		})
		if (row)
			yield* auditSteps(
				tx,
				adminAudit(scope, 'scim.mapping_created', tenantSubject(tenant), {
					group: displayName,
					role: target.role,
					courseSlug: target.courseSlug,
				}),
			)
		return Boolean(row)
	})
}

export function deleteGroupMapping(scope: AdminScope, tenant: Tenant, id: string) {
	return inTransaction(scope.ctx.db, function* (tx) {
		const row = yield* deleteGroupMappingSteps(tx, tenant.id, id)
		if (row)
			yield* auditSteps(
				tx,
				adminAudit(scope, 'scim.mapping_deleted', tenantSubject(tenant), {
					group: row.display_name,
					role: row.role,
					courseSlug: row.course_slug,
				}),
			)
		return Boolean(row)
	})
}

/** A SCIM request's actor: the token, acting for the admin who made it. */
export interface ScimActor extends Acting {
	ctx: RequestContext
	tenant: Tenant
	token: ScimToken
}

/**
 * The token of an `Authorization: Bearer` header, live in this host's tenant; null for anything
 * else (no header, another scheme, a malformed, unknown, revoked or other tenant's token).
 */
export async function authenticateScim(ctx: RequestContext, tenant: Tenant, authorization: string | null) {
	const raw = /^Bearer ([^\s]+)$/i.exec(authorization ?? '')?.[1]
	if (!raw || !TOKEN_FORM.test(raw)) return null
	const token = await findLiveScimToken(ctx.db, tenant.id, hashToken(raw))
	if (!token) return null
	await touchScimToken(ctx.db, token.id)
	const actor: ScimActor = {
		ctx,
		tenant,
		token,
		session: { user: { id: token.created_by }, impersonator: null, via: { via: 'scim', viaId: token.id } },
	}
	return actor
}
