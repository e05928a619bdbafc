import { createHash, randomBytes } from 'node:crypto'
import { auditSteps } from '#db/audit.ts'
import {
	apiKeyByHash,
	insertApiKeySteps,
	revokeApiKeySteps,
	tenantApiKeys,
	touchApiKey,
	type ApiKey,
} from '#db/api-keys.ts'
import type { ApiKeyScope } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserById, type User } from '#db/users.ts'
import type { RequestContext } from '#app/context.ts'
import { apiKeySession } from '../accounts/session.server.ts'
import type { AdminScope } from '../admin/admin.server.ts'
import { adminAudit } from '../platform/audit.server.ts'

/*
 * A tenant's API keys (issue 49, decision 0071). The secret is shown once, when it is made; only its
 * SHA-256 is stored, beside its first characters (`prefix`) that the admin page lists it by. A key
 * acts with its creator's authority: it stops working when they are deactivated or no longer
 * administer the site, as well as when it is revoked.
 */

/** `lmsk_` then 32 base64url characters (24 random bytes): what a secret scanner can recognise. */
const KEY_PATTERN = /^lmsk_[A-Za-z0-9_-]{32}$/
const PREFIX_LENGTH = 13

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

export { tenantApiKeys }

export interface NewKeyInput {
	name: string
	scope: ApiKeyScope
	courseSlug: string | null
}

/** A new key and its audit row (never the secret) together; the secret is returned to be shown once. */
export async function createApiKey(scope: AdminScope, tenant: Tenant, input: NewKeyInput) {
	const secret = `lmsk_${randomBytes(24).toString('base64url')}`
	const key = await inTransaction(scope.ctx.db, function* (tx) {
		const row = yield* insertApiKeySteps(tx, {
			tenantId: tenant.id,
			name: input.name,
			scope: input.scope,
			courseSlug: input.courseSlug,
			prefix: secret.slice(0, PREFIX_LENGTH),
			secretHash: hashSecret(secret),
			createdBy: scope.session.user.id,
		})
		yield* auditSteps(
			tx,
			adminAudit(
				scope,
				'api_key.created',
				{ kind: 'api_key', id: row.id, tenantId: tenant.id },
				{ name: row.name, scope: row.scope, courseSlug: row.course_slug, prefix: row.prefix },
			),
		)
		return row
	})
	return { key, secret }
}

/** Revokes a live key of this tenant with its audit row; false when there was none. */
export async function revokeApiKey(scope: AdminScope, tenant: Tenant, id: string) {
	const revoked = await inTransaction(scope.ctx.db, function* (tx) {
		const row = yield* revokeApiKeySteps(tx, tenant.id, id)
		if (row)
			yield* auditSteps(
				tx,
				adminAudit(
					scope,
					'api_key.revoked',
					{ kind: 'api_key', id: row.id, tenantId: tenant.id },
					{ name: row.name, prefix: row.prefix },
				),
			)
		return row
	})
	return Boolean(revoked)
}

/** Why a request carries no usable key; each is a 401 with one sentence (which of them is never told). */
export type KeyRefusal = 'missing' | 'invalid'

/** Who calls: the key, its tenant, and the admin scope its creator's pages would have. */
export interface ApiCaller {
	key: ApiKey
	tenant: Tenant
	creator: User
	scope: AdminScope
}

/** The bearer secret of an Authorization header; '' when there is none, null when it is not one. */
function bearer(header: string | null) {
	if (header === null) return ''
	const match = /^Bearer +(\S+) *$/i.exec(header)
	return match ? match[1] : null
}

/**
 * The caller of an API request on this host, or why not. Another tenant's key, a revoked or unknown
 * one, and a key whose creator may no longer administer this site are all `invalid`: the answer does
 * not tell which.
 */
export async function apiCaller(ctx: RequestContext, request: Request): Promise<ApiCaller | KeyRefusal> {
	const secret = bearer(request.headers.get('authorization'))
	if (secret === '') return 'missing'
	if (!secret || !KEY_PATTERN.test(secret)) return 'invalid'
	const key = await apiKeyByHash(ctx.db, hashSecret(secret))
	const tenant = ctx.tenant
	if (!key || !tenant || key.revoked_at || key.tenant_id !== tenant.id || !key.created_by) return 'invalid'
	const creator = await findUserById(ctx.db, key.created_by)
	const administers =
		creator &&
		!creator.deactivated_at &&
		(creator.role === 'super_admin' || (creator.role === 'tenant_admin' && creator.tenant_id === tenant.id))
	if (!creator || !administers) return 'invalid'
	const session = await apiKeySession(ctx, creator, key.id)
	return { key, tenant, creator, scope: { ctx, session, tenant, isSuper: creator.role === 'super_admin' } }
}

/** The key's last use: when and from where (at most once a minute). */
export function recordUse(ctx: RequestContext, key: ApiKey) {
	return touchApiKey(ctx.db, key.id, ctx.clientIp || null)
}

/** The secrets anyone put in a URL: refused whatever else the request says (a URL ends up in logs). */
export function keyInUrl(url: URL) {
	for (const [name, value] of url.searchParams)
		if (KEY_PATTERN.test(value) || /^(api_?key|key|token|access_token|authorization)$/i.test(name)) return true
	return false
}
