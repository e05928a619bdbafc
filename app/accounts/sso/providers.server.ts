import type { RequestContext } from '#app/context.ts'
import { adminAudit, type AuditActor } from '#app/platform/audit.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { RefusedTarget } from '#app/platform/public-address.server.ts'
import { auditSteps, type AuditAction } from '#db/audit.ts'
import {
	createIdentityProviderSteps,
	deleteIdentityProviderSteps,
	domainsClaimedElsewhere,
	findIdentityProvider,
	listIdentityProviders,
	newProviderId,
	setIdentityProviderEnabledSteps,
	updateIdentityProviderSteps,
	type IdentityProvider,
	type ProviderValues,
} from '#db/identity-providers.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { createHash } from 'node:crypto'
import { callbackPath, discover, issuerAllowed } from './oidc.server.ts'
import { newSpKeys, readIdpMetadata, samlPaths, spEntityId } from './saml.server.ts'
import { openSecret, sealSecret } from './secret-box.server.ts'

/** Who changes a tenant's providers: a signed-in admin on the tenant's host. */
export interface ProviderActor extends AuditActor {
	ctx: RequestContext
}

/** What the admin form gives (the route's schema parsed it). */
export interface ProviderForm {
	label: string
	issuer: string
	clientId: string
	/** Blank on an edit: the stored secret stays. */
	clientSecret?: string
	scopes: string
	domains: string[]
	requireSso: boolean
	roleClaim?: string
	courseAdminValues: string[]
	tenantAdminValues: string[]
}

/** What the SAML form gives: the IdP's metadata instead of an issuer and a client. */
export interface SamlProviderForm {
	label: string
	/** Blank on an edit: the stored entity id, SSO URL and certificates stay. */
	metadataXml?: string
	domains: string[]
	requireSso: boolean
	roleClaim?: string
	courseAdminValues: string[]
	tenantAdminValues: string[]
}

type SaveOutcome =
	| { ok: true; id: string }
	| { ok: false; field: 'issuer' | 'clientSecret' | 'domains' | 'metadataXml' | null; message: string }
	| { ok: false; missing: true }

/** A provider as the admin page shows it: never its secret, sealed or not. */
function providerView(ctx: Pick<RequestContext, 'origin'>, p: IdentityProvider) {
	return {
		id: p.id,
		kind: p.kind,
		label: p.label,
		enabled: p.enabled,
		issuer: p.issuer,
		clientId: p.client_id ?? '',
		scopes: p.scopes,
		domains: p.domains,
		requireSso: p.require_sso,
		roleClaim: p.role_claim ?? '',
		courseAdminValues: p.role_map.course_admin ?? [],
		tenantAdminValues: p.role_map.tenant_admin ?? [],
		redirectUri: `${ctx.origin}${callbackPath(p.id)}`,
		saml:
			p.kind === 'saml'
				? {
						ssoUrl: p.saml_sso_url ?? '',
						entityId: spEntityId(ctx.origin, p.id),
						acsUrl: `${ctx.origin}${samlPaths(p.id).acs}`,
						metadataUrl: `${ctx.origin}${samlPaths(p.id).metadata}`,
					}
				: null,
	}
}

export async function tenantProviders(ctx: RequestContext, tenant: Tenant) {
	return (await listIdentityProviders(ctx.db, tenant.id)).map((p) => providerView(ctx, p))
}

export const ssoConfigured = (ctx: Pick<RequestContext, 'env'>) => Boolean(ctx.env.SSO_ENCRYPTION_KEY)

function storedSecret(ctx: RequestContext, p: IdentityProvider) {
	const key = ctx.env.SSO_ENCRYPTION_KEY
	if (!key || !p.client_secret_sealed) return null
	return openSecret(key, { tenantId: p.tenant_id, providerId: p.id }, p.client_secret_sealed)
}

/** What the audit row says of a provider: never its secret. */
const auditMetadata = (form: ProviderForm, secretChanged: boolean) => ({
	label: form.label,
	issuer: form.issuer,
	clientId: form.clientId,
	domains: form.domains,
	requireSso: form.requireSso,
	roleClaim: form.roleClaim ?? null,
	secretChanged,
})

/** Whether a failure (openid-client wraps what the fetch threw) was the address check's refusal. */
function refusedAddress(error: unknown): boolean {
	if (error instanceof RefusedTarget) return true
	return error instanceof Error && error.cause !== undefined && refusedAddress(error.cause)
}

/**
 * The discovery check of a save: the provider answers for this issuer (openid-client's check), on
 * a public address (its fetch refuses any other, decision 0079).
 */
async function checkDiscovery(ctx: RequestContext, form: ProviderForm, secret: string) {
	if (!issuerAllowed(ctx.env, form.issuer)) return 'adminSettings.signIn.errors.issuerScheme'
	try {
		await discover(ctx.env, form.issuer, form.clientId, secret)
		return null
	} catch (error) {
		log.warn('sso/discovery-failed', { issuer: form.issuer, error: describeError(error) })
		return refusedAddress(error) ? 'adminSettings.signIn.errors.issuerAddress' : 'adminSettings.signIn.errors.discovery'
	}
}

/**
 * Adds (`id` null) or changes a provider of the tenant: the secret given (or, on an edit, the
 * stored one) must open, no other provider may claim the domains, and the issuer's discovery
 * document must answer; then the row, its domains and the audit row are stored together.
 */
export async function saveProvider(actor: ProviderActor, tenant: Tenant, id: string | null, form: ProviderForm) {
	const { ctx } = actor
	const key = ctx.env.SSO_ENCRYPTION_KEY
	if (!key) return { ok: false, field: null, message: 'adminSettings.signIn.errors.noKey' } satisfies SaveOutcome
	const before = id ? await findIdentityProvider(ctx.db, tenant.id, id) : null
	if (id && before?.kind !== 'oidc') return { ok: false, missing: true } satisfies SaveOutcome
	const secret = form.clientSecret || (before ? storedSecret(ctx, before) : null)
	if (!secret)
		return { ok: false, field: 'clientSecret', message: 'adminSettings.signIn.errors.secretRequired' } as const
	const taken = await domainsClaimedElsewhere(ctx.db, tenant.id, form.domains, id)
	if (taken.length) return { ok: false, field: 'domains', message: 'adminSettings.signIn.errors.domainTaken' } as const
	const problem = await checkDiscovery(ctx, form, secret)
	if (problem) return { ok: false, field: 'issuer', message: problem } as const

	const providerId = before?.id ?? newProviderId()
	const values: ProviderValues = {
		kind: 'oidc',
		label: form.label,
		issuer: form.issuer,
		clientId: form.clientId,
		clientSecretSealed: form.clientSecret
			? sealSecret(key, { tenantId: tenant.id, providerId }, form.clientSecret)
			: null,
		scopes: form.scopes,
		enabled: before?.enabled ?? true,
		requireSso: form.requireSso,
		roleClaim: form.roleClaim || null,
		roleMap: { course_admin: form.courseAdminValues, tenant_admin: form.tenantAdminValues },
		domains: form.domains,
	}
	const action: AuditAction = before ? 'sso.provider_changed' : 'sso.provider_added'
	await inTransaction(ctx.db, function* (tx) {
		if (before) yield* updateIdentityProviderSteps(tx, before, values)
		else yield* createIdentityProviderSteps(tx, tenant.id, providerId, values)
		const target = { kind: 'identity_provider', id: providerId, tenantId: tenant.id }
		yield* auditSteps(tx, adminAudit(actor, action, target, auditMetadata(form, Boolean(form.clientSecret))))
	})
	return { ok: true, id: providerId } satisfies SaveOutcome
}

const fingerprints = (pems: string) =>
	(pems.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []).map((c) =>
		createHash('sha256').update(c).digest('hex').slice(0, 16),
	)

/**
 * Adds (`id` null) or changes a SAML provider of the tenant (decision 0077): the pasted metadata
 * (required to add; on an edit, blank keeps the stored one) must name an IdP with a redirect SSO URL
 * and a signing certificate; it must claim at least one domain (the only addresses it is trusted
 * for); a new provider gets its own SP key pair, the private key sealed.
 */
export async function saveSamlProvider(
	actor: ProviderActor,
	tenant: Tenant,
	id: string | null,
	form: SamlProviderForm,
): Promise<SaveOutcome> {
	const { ctx } = actor
	const key = ctx.env.SSO_ENCRYPTION_KEY
	if (!key) return { ok: false, field: null, message: 'adminSettings.signIn.errors.noKey' }
	const before = id ? await findIdentityProvider(ctx.db, tenant.id, id) : null
	if (id && before?.kind !== 'saml') return { ok: false, missing: true }
	if (!form.domains.length) return { ok: false, field: 'domains', message: 'adminSettings.signIn.errors.samlDomains' }
	const taken = await domainsClaimedElsewhere(ctx.db, tenant.id, form.domains, id)
	if (taken.length) return { ok: false, field: 'domains', message: 'adminSettings.signIn.errors.domainTaken' }
	let idp = before
		? { entityId: before.issuer, ssoUrl: before.saml_sso_url ?? '', certs: before.saml_idp_certs ?? '' }
		: null
	if (form.metadataXml?.trim()) {
		const read = await readIdpMetadata(ctx.env, form.metadataXml)
		if ('problem' in read)
			return { ok: false, field: 'metadataXml', message: `adminSettings.signIn.errors.${read.problem}` }
		idp = read
	}
	if (!idp) return { ok: false, field: 'metadataXml', message: 'adminSettings.signIn.errors.metadataXml' }

	const providerId = before?.id ?? newProviderId()
	const values: ProviderValues = {
		kind: 'saml',
		label: form.label,
		issuer: idp.entityId,
		clientId: '',
		clientSecretSealed: null,
		scopes: '',
		enabled: before?.enabled ?? true,
		requireSso: form.requireSso,
		roleClaim: form.roleClaim || null,
		roleMap: { course_admin: form.courseAdminValues, tenant_admin: form.tenantAdminValues },
		domains: form.domains,
		saml: { ssoUrl: idp.ssoUrl, idpCerts: idp.certs },
		samlSpKeys: before ? undefined : newSpKeys(key, tenant.id, providerId, ctx.host),
	}
	const action: AuditAction = before ? 'sso.provider_changed' : 'sso.provider_added'
	const metadata = {
		label: form.label,
		kind: 'saml',
		entityId: idp.entityId,
		ssoUrl: idp.ssoUrl,
		certificates: fingerprints(idp.certs),
		domains: form.domains,
		requireSso: form.requireSso,
		roleClaim: form.roleClaim ?? null,
	}
	await inTransaction(ctx.db, function* (tx) {
		if (before) yield* updateIdentityProviderSteps(tx, before, values)
		else yield* createIdentityProviderSteps(tx, tenant.id, providerId, values)
		const target = { kind: 'identity_provider', id: providerId, tenantId: tenant.id }
		yield* auditSteps(tx, adminAudit(actor, action, target, metadata))
	})
	return { ok: true, id: providerId }
}

/** Turns a provider of the tenant on or off (audited); false when the tenant has no such provider. */
export function setProviderEnabled(actor: ProviderActor, tenant: Tenant, id: string, enabled: boolean) {
	return inTransaction(actor.ctx.db, function* (tx) {
		const row = yield* setIdentityProviderEnabledSteps(tx, tenant.id, id, enabled)
		if (!row) return false
		const action = enabled ? 'sso.provider_enabled' : 'sso.provider_disabled'
		yield* auditSteps(tx, adminAudit(actor, action, { kind: 'identity_provider', id, tenantId: tenant.id }))
		return true
	})
}

/** Removes a provider of the tenant, its domains and the identities linked through it (audited). */
export function removeProvider(actor: ProviderActor, tenant: Tenant, id: string) {
	return inTransaction(actor.ctx.db, function* (tx) {
		const row = yield* deleteIdentityProviderSteps(tx, tenant.id, id)
		if (!row) return false
		const target = { kind: 'identity_provider', id, tenantId: tenant.id }
		yield* auditSteps(tx, adminAudit(actor, 'sso.provider_removed', target))
		return true
	})
}
