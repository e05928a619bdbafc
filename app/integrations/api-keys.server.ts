import { createHash, randomBytes } from 'node:crypto'
import type { SubmissionResult } from '@conform-to/react'
import { data, redirect } from 'react-router'
import { z } from 'zod'
import { auditSteps } from '#db/audit.ts'
import {
	apiKeyByHash,
	apiKeysOf,
	insertApiKeySteps,
	revokeApiKeySteps,
	touchApiKey,
	type ApiKey,
} from '#db/api-keys.ts'
import { API_KEY_SCOPES, type ApiKeyScope } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserById, type User } from '#db/users.ts'
import type { RequestContext } from '#app/context.ts'
import { apiKeySession } from '../accounts/session.server.ts'
import type { AdminScope } from '../admin/admin.server.ts'
import { localePath } from '../i18n/locales.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { askToConfirm, confirmed, formErrorResult } from '../platform/forms.server.ts'
import { withNotice } from '../platform/notices.ts'
import { nameField } from '../platform/validation.ts'

/*
 * A tenant's API keys (issue 49, decision 0071) and the platform's, for tenant management (a super
 * admin's, tenant null: decision 0087). The secret is shown once, when it is made; only its SHA-256
 * is stored, beside its first characters (`prefix`) that the admin page lists it by. A key acts with
 * its creator's authority: it stops working when they are deactivated or no longer administer the
 * site (the platform: no longer super admin), as well as when it is revoked.
 */

/**
 * `lmsk_` (a site's key) or `lmsp_` (the platform's) then 32 base64url characters (24 random bytes):
 * what a secret scanner can recognise, and which kind a leaked one is.
 */
const KEY_PATTERN = /^lms[kp]_[A-Za-z0-9_-]{32}$/
const PREFIX_LENGTH = 13

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

export { apiKeysOf }

/** A key as the key pages list it (never its hash). */
export function keyListView(key: ApiKey) {
	return {
		id: key.id,
		name: key.name,
		prefix: key.prefix,
		scope: key.scope,
		course: key.course_slug,
		createdAt: key.created_at.toISOString(),
		lastUsedAt: key.last_used_at?.toISOString() ?? null,
		lastUsedIp: key.last_used_ip,
		revokedAt: key.revoked_at?.toISOString() ?? null,
	}
}
export type KeyListItem = ReturnType<typeof keyListView>

export interface NewKeyInput {
	name: string
	scope: ApiKeyScope
	courseSlug: string | null
}

/**
 * A new key of the tenant (null: a platform key) and its audit row (never the secret) together; the
 * secret is returned to be shown once.
 */
export async function createApiKey(scope: AdminScope, tenant: Tenant | null, input: NewKeyInput) {
	const secret = `${tenant ? 'lmsk' : 'lmsp'}_${randomBytes(24).toString('base64url')}`
	const tenantId = tenant?.id ?? null
	const key = await inTransaction(scope.ctx.db, function* (tx) {
		const row = yield* insertApiKeySteps(tx, {
			tenantId,
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
				{ kind: 'api_key', id: row.id, tenantId },
				{ name: row.name, scope: row.scope, courseSlug: row.course_slug, prefix: row.prefix },
			),
		)
		return row
	})
	return { key, secret }
}

/** Revokes a live key of this tenant (null: of the platform) with its audit row; false when there was none. */
export async function revokeApiKey(scope: AdminScope, tenant: Tenant | null, id: string) {
	const tenantId = tenant?.id ?? null
	const revoked = await inTransaction(scope.ctx.db, function* (tx) {
		const row = yield* revokeApiKeySteps(tx, tenantId, id)
		if (row)
			yield* auditSteps(
				tx,
				adminAudit(
					scope,
					'api_key.revoked',
					{ kind: 'api_key', id: row.id, tenantId },
					{ name: row.name, prefix: row.prefix },
				),
			)
		return row
	})
	return Boolean(revoked)
}

// --- The key pages' actions (/admin/settings/api for a site, /admin/tenants/api for the platform) ---

/** The create and revoke forms of a key page; a site's page adds its course field. */
export const keyFormSchemas = {
	create: z.object({
		intent: z.literal('create'),
		name: z.string({ error: 'adminSettings.apiKeys.nameRequired' }).pipe(nameField),
		scope: z.enum(API_KEY_SCOPES),
	}),
	revoke: z.object({ intent: z.literal('revoke'), id: z.string().min(1).max(64), ...confirmed }),
}

/** The new key's answer: its secret in this answer only (never stored, logged or put in a URL). */
export async function createKeyAnswer(
	scope: AdminScope,
	tenant: Tenant | null,
	input: NewKeyInput,
	reply: SubmissionResult<string[]>,
) {
	const { key, secret } = await createApiKey(scope, tenant, input)
	return data(
		{ result: reply, created: { name: key.name, secret } },
		{ status: 201, headers: { 'cache-control': 'no-store' } },
	)
}

/** Revoking asks first; then the key is revoked with its audit row, and the page shows its notice. */
export async function revokeKeyAnswer(
	scope: AdminScope,
	tenant: Tenant | null,
	input: z.infer<typeof keyFormSchemas.revoke>,
	page: string,
) {
	const notLive = () => data({ result: formErrorResult('adminSettings.apiKeys.notLive') }, { status: 409 })
	const key = (await apiKeysOf(scope.ctx.db, tenant?.id ?? null)).find((k) => k.id === input.id)
	if (!key || key.revoked_at) return notLive()
	if (!input.confirmed)
		return askToConfirm({
			question: 'adminSettings.apiKeys.confirmRevoke',
			button: 'adminSettings.apiKeys.revokeButton',
			values: { name: key.name },
			fields: { intent: 'revoke', id: key.id },
		})
	if (!(await revokeApiKey(scope, tenant, key.id))) return notLive()
	return redirect(localePath(scope.ctx.locale, withNotice(page, 'apiKeyRevoked')))
}

/** Why a request carries no usable key; each is a 401 with one sentence (which of them is never told). */
export type KeyRefusal = 'missing' | 'invalid'

/** Who calls: the key, its tenant (null: a platform key), and the admin scope its creator's pages would have. */
export interface ApiCaller {
	key: ApiKey
	tenant: Tenant | null
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
 * The caller of an API request on this host, or why not. A site's key works on its site's host only,
 * a platform key on the platform's (apex) host only. Another's key, a revoked or unknown one, and a
 * key whose creator may no longer administer its site (or the platform) are all `invalid`: the answer
 * does not tell which.
 */
export async function apiCaller(ctx: RequestContext, request: Request): Promise<ApiCaller | KeyRefusal> {
	const secret = bearer(request.headers.get('authorization'))
	if (secret === '') return 'missing'
	if (!secret || !KEY_PATTERN.test(secret)) return 'invalid'
	const key = await apiKeyByHash(ctx.db, hashSecret(secret))
	const tenant = ctx.tenant
	if (!key || key.revoked_at || !key.created_by || key.tenant_id !== (tenant?.id ?? null)) return 'invalid'
	const creator = await findUserById(ctx.db, key.created_by)
	const administers =
		creator &&
		!creator.deactivated_at &&
		(creator.role === 'super_admin' ||
			(tenant !== null && creator.role === 'tenant_admin' && creator.tenant_id === tenant.id))
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
