import type { RequestContext } from '#app/context.ts'
import type { AuditVia } from '#app/platform/audit.server.ts'
import { auditSteps } from '#db/audit.ts'
import { linkProviderName, type IdentityProvider } from '#db/identity-providers.ts'
import type { Role, SsoMappedRole } from '#db/schema/values.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'
import { updateUserSteps } from '#db/users.ts'
import { linkedUserSteps } from '../oauth.server.ts'
import { newSessionSteps } from '../session.server.ts'
import type { OidcClaims } from './oidc.server.ts'

/**
 * The spec's external-provider rules (Authentication 4) for a tenant's own provider, then its role
 * mapping (decision 0069). Refusals are the spec's reasons, and `sso_wrong_provider` when the
 * address is in a domain another of the tenant's providers claims (an IdP mix-up or a provider
 * asserting addresses it does not own).
 */
export type SsoRefusal =
	| 'oauth_tenant_unknown'
	| 'oauth_tenant_suspended'
	| 'oauth_email_missing'
	| 'oauth_email_unverified'
	| 'oauth_account_deactivated'
	| 'sso_wrong_provider'

export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase()

/**
 * The role the provider's claim gives, or null when the provider maps no claim (the role is then
 * the tenant's to manage). tenant_admin wins over course_admin; values not listed give student.
 */
function mappedRole(provider: Pick<IdentityProvider, 'role_claim' | 'role_map'>, claims: Record<string, unknown>) {
	if (!provider.role_claim) return null
	const raw = claims[provider.role_claim]
	const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string')
	const has = (role: SsoMappedRole) => (provider.role_map[role] ?? []).some((v) => values.includes(v))
	if (has('tenant_admin')) return 'tenant_admin' as const
	if (has('course_admin')) return 'course_admin' as const
	return 'student' as const
}

function* applyRoleSteps(tx: Tx, provider: IdentityProvider, user: { id: string; role: Role }, role: Role | null) {
	// Never super_admin: a platform account is not a tenant's to map, and no claim gives it.
	if (!role || role === user.role || user.role === 'super_admin') return null
	const updated = yield* updateUserSteps(tx, user.id, { role }, { bumpTokenVersion: true })
	yield* auditSteps(tx, {
		actorUserId: null,
		action: 'user.role_changed',
		targetKind: 'user',
		targetId: user.id,
		tenantId: provider.tenant_id,
		metadata: {
			from: user.role,
			to: role,
			...({ via: 'sso', viaId: provider.id } satisfies AuditVia),
			claim: provider.role_claim,
		},
	})
	return updated
}

function* resolveSteps(tx: Tx, ctx: RequestContext, provider: IdentityProvider, claims: OidcClaims, other: string[]) {
	const refuse = (reason: SsoRefusal) => ({ reason }) as { reason: SsoRefusal }
	const tenant = ctx.tenant
	if (!tenant || tenant.id !== provider.tenant_id) return refuse('oauth_tenant_unknown')
	if (tenant.status !== 'active') return refuse('oauth_tenant_suspended')
	if (!claims.email) return refuse('oauth_email_missing')
	if (!claims.emailVerified) return refuse('oauth_email_unverified')
	if (other.includes(emailDomain(claims.email))) return refuse('sso_wrong_provider')

	const linked = yield* linkedUserSteps(tx, ctx, tenant.id, {
		provider: linkProviderName(provider.id),
		subject: claims.subject,
		email: claims.email,
		name: claims.name,
		avatarUrl: null,
	})
	if ('reason' in linked) return refuse(linked.reason)
	let { user } = linked
	const { created } = linked
	user = (yield* applyRoleSteps(tx, provider, user, mappedRole(provider, claims.all))) ?? user
	return { user, created }
}

/**
 * The user (created, linked, role mapped), the identity link and the session in one transaction; or
 * the refusal's reason, with nothing written. `otherDomains`: the domains the tenant's other
 * providers claim.
 */
export function signInWithProvider(
	ctx: RequestContext,
	provider: IdentityProvider,
	claims: OidcClaims,
	otherDomains: string[],
) {
	return inTransaction(ctx.db, function* (tx) {
		const resolved = yield* resolveSteps(tx, ctx, provider, claims, otherDomains)
		if ('reason' in resolved) return resolved
		const session = yield* newSessionSteps(tx, ctx, resolved.user)
		if (!session) throw new Error('session could not be stored')
		return { created: resolved.created, session }
	})
}
