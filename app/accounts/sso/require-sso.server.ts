import type { RequestContext } from '#app/context.ts'
import { findProviderForDomain } from '#db/identity-providers.ts'
import { findUserById } from '#db/users.ts'
import { emailDomain } from './sign-in.server.ts'

/**
 * "Require single sign-on" (decision 0069): the enabled provider of this tenant that claims the
 * address's domain and requires its people to sign in through it, else null. Decided by the domain
 * alone, so the answer tells nothing about whether an account exists. Passwords (except a tenant
 * admin's: the break-glass way in), magic links and resets are refused for these addresses.
 */
export async function requiredProvider(ctx: Pick<RequestContext, 'db' | 'tenant'>, email: unknown) {
	if (!ctx.tenant || typeof email !== 'string' || !email.includes('@')) return null
	const provider = await findProviderForDomain(ctx.db, ctx.tenant.id, emailDomain(email.trim()))
	return provider && provider.enabled && provider.require_sso ? { id: provider.id, label: provider.label } : null
}

/** The enabled provider that claims the address's domain (required or not): where the email step sends it. */
export async function claimingProvider(ctx: Pick<RequestContext, 'db' | 'tenant'>, email: unknown) {
	if (!ctx.tenant || typeof email !== 'string' || !email.includes('@')) return null
	const provider = await findProviderForDomain(ctx.db, ctx.tenant.id, emailDomain(email.trim()))
	return provider?.enabled ? { id: provider.id, label: provider.label, required: provider.require_sso } : null
}

/** What a refused password, sign-in link or reset shows: the provider to use and the domain. */
export interface SsoRefusal {
	id: string
	label: string
	domain: string
}

export const ssoRefusal = (provider: { id: string; label: string }, email: string): SsoRefusal => ({
	id: provider.id,
	label: provider.label,
	domain: emailDomain(email),
})

/**
 * A reset link mailed before its address's domain came to require single sign-on: refused at use
 * too, except for a tenant admin (the break-glass way in). The refusal, or null to go on.
 */
export async function resetRefusal(ctx: Pick<RequestContext, 'db' | 'tenant'>, userId: string) {
	const user = await findUserById(ctx.db, userId)
	if (!user || user.role === 'tenant_admin') return null
	const provider = await requiredProvider(ctx, user.email)
	return provider ? ssoRefusal(provider, user.email) : null
}
