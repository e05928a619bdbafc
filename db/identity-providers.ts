import { and, asc, eq, inArray, lt } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import type { SsoMappedRole, SsoProviderKind } from './schema/values.ts'
import { runSteps, step, type Tx } from './transaction.ts'

type ProviderRow = Database['t']['identity_providers']['$inferSelect']

/** A tenant's identity provider with the email domains it claims. */
export interface IdentityProvider extends ProviderRow {
	domains: string[]
}

export interface ProviderValues {
	kind: SsoProviderKind
	label: string
	issuer: string
	clientId: string
	/** The client secret sealed (app/accounts/sso/secret-box.server.ts); null on an edit keeps the stored one. */
	clientSecretSealed: string | null
	scopes: string
	enabled: boolean
	requireSso: boolean
	roleClaim: string | null
	roleMap: Partial<Record<SsoMappedRole, string[]>>
	domains: string[]
	/** SAML only (decision 0077): the IdP's SSO URL and signing certificates from its metadata. */
	saml?: { ssoUrl: string; idpCerts: string }
	/** SAML only, on creation: this provider's SP certificate and sealed private key. */
	samlSpKeys?: { cert: string; keySealed: string }
}

/** The identity-link provider name of a tenant provider in oauth_accounts (beside 'google' and 'github'). */
export const linkProviderName = (providerId: string) => `sso:${providerId}`

function* withDomainsSteps(db: Tx, tenantId: string, rows: ProviderRow[]) {
	if (!rows.length) return []
	const d = db.t.identity_provider_domains
	const domains = yield* step(
		db.orm
			.select()
			.from(d)
			.where(
				and(
					eq(d.tenant_id, tenantId),
					inArray(
						d.provider_id,
						rows.map((r) => r.id),
					),
				),
			)
			.orderBy(asc(d.domain)),
	)
	return rows.map((r) => ({ ...r, domains: domains.filter((x) => x.provider_id === r.id).map((x) => x.domain) }))
}

/** Every provider of the tenant, oldest first. */
export function listIdentityProviders(db: Database, tenantId: string): Promise<IdentityProvider[]> {
	const p = db.t.identity_providers
	return runSteps(db, function* (tx) {
		const rows = yield* step(tx.orm.select().from(p).where(eq(p.tenant_id, tenantId)).orderBy(asc(p.created_at)))
		return yield* withDomainsSteps(tx, tenantId, rows)
	})
}

/** One provider of this tenant (another tenant's id finds nothing). */
export function findIdentityProvider(db: Database, tenantId: string, id: string): Promise<IdentityProvider | null> {
	const p = db.t.identity_providers
	return runSteps(db, function* (tx) {
		const rows = yield* step(
			tx.orm
				.select()
				.from(p)
				.where(and(eq(p.tenant_id, tenantId), eq(p.id, id)))
				.limit(1),
		)
		return (yield* withDomainsSteps(tx, tenantId, rows))[0] ?? null
	})
}

/** The provider that claims this email domain in the tenant, enabled or not; null when none does. */
export async function findProviderForDomain(db: Database, tenantId: string, domain: string) {
	const d = db.t.identity_provider_domains
	const [row] = await db.orm
		.select({ providerId: d.provider_id })
		.from(d)
		.where(and(eq(d.tenant_id, tenantId), eq(d.domain, domain)))
		.limit(1)
	return row ? findIdentityProvider(db, tenantId, row.providerId) : null
}

/** The claimed domains among these that another provider of the tenant already claims. */
export async function domainsClaimedElsewhere(
	db: Database,
	tenantId: string,
	domains: string[],
	exceptId: string | null,
) {
	if (!domains.length) return []
	const d = db.t.identity_provider_domains
	const rows = await db.orm
		.select()
		.from(d)
		.where(and(eq(d.tenant_id, tenantId), inArray(d.domain, domains)))
	return rows.filter((r) => r.provider_id !== exceptId).map((r) => r.domain)
}

function* replaceDomainsSteps(db: Tx, tenantId: string, providerId: string, domains: string[]) {
	const d = db.t.identity_provider_domains
	yield* step(
		db.orm
			.delete(d)
			.where(and(eq(d.tenant_id, tenantId), eq(d.provider_id, providerId)))
			.returning({ domain: d.domain }),
	)
	if (domains.length)
		yield* step(
			db.orm
				.insert(d)
				.values(domains.map((domain) => ({ tenant_id: tenantId, provider_id: providerId, domain })))
				.returning({ domain: d.domain }),
		)
}

function columns(values: ProviderValues) {
	return {
		label: values.label,
		issuer: values.issuer,
		client_id: values.kind === 'oidc' ? values.clientId : null,
		scopes: values.scopes,
		enabled: values.enabled,
		require_sso: values.requireSso,
		role_claim: values.roleClaim,
		role_map: values.roleMap,
		updated_at: new Date(),
		...(values.clientSecretSealed ? { client_secret_sealed: values.clientSecretSealed } : {}),
		...(values.saml ? { saml_sso_url: values.saml.ssoUrl, saml_idp_certs: values.saml.idpCerts } : {}),
		...(values.samlSpKeys
			? { saml_sp_cert: values.samlSpKeys.cert, saml_sp_key_sealed: values.samlSpKeys.keySealed }
			: {}),
	}
}

/** A new provider of the tenant with its domains (the domain key refuses one another provider claims). */
export function* createIdentityProviderSteps(db: Tx, tenantId: string, id: string, values: ProviderValues) {
	const p = db.t.identity_providers
	const [row] = yield* step(
		db.orm
			.insert(p)
			.values({ id, tenant_id: tenantId, kind: values.kind, created_at: new Date(), ...columns(values) })
			.returning(),
	)
	yield* replaceDomainsSteps(db, tenantId, id, values.domains)
	return row
}

/**
 * The provider's new values, on this tenant's row only; null when there is none. A new issuer
 * drops the identities linked through the old one (another issuer's `sub` is another person).
 */
export function* updateIdentityProviderSteps(db: Tx, before: IdentityProvider, values: ProviderValues) {
	const p = db.t.identity_providers
	const [row] = yield* step(
		db.orm
			.update(p)
			.set(columns(values))
			.where(and(eq(p.tenant_id, before.tenant_id), eq(p.id, before.id)))
			.returning(),
	)
	if (!row) return null
	yield* replaceDomainsSteps(db, before.tenant_id, before.id, values.domains)
	if (before.issuer !== values.issuer) yield* unlinkIdentitiesSteps(db, before.tenant_id, before.id)
	return row
}

/** Turns the provider on or off; the row, or null when the tenant has no such provider. */
export function* setIdentityProviderEnabledSteps(db: Tx, tenantId: string, id: string, enabled: boolean) {
	const p = db.t.identity_providers
	const [row] = yield* step(
		db.orm
			.update(p)
			.set({ enabled, updated_at: new Date() })
			.where(and(eq(p.tenant_id, tenantId), eq(p.id, id)))
			.returning({ id: p.id }),
	)
	return row ?? null
}

function* unlinkIdentitiesSteps(db: Tx, tenantId: string, providerId: string) {
	const o = db.t.oauth_accounts
	yield* step(
		db.orm
			.delete(o)
			.where(and(eq(o.tenant_id, tenantId), eq(o.provider, linkProviderName(providerId))))
			.returning({ id: o.id }),
	)
}

/** Removes the provider, its domains, its sign-ins under way and the identities linked through it. */
export function* deleteIdentityProviderSteps(db: Tx, tenantId: string, id: string) {
	const { identity_providers: p, sso_login_states: s } = db.t
	yield* replaceDomainsSteps(db, tenantId, id, [])
	yield* step(
		db.orm
			.delete(s)
			.where(and(eq(s.tenant_id, tenantId), eq(s.provider_id, id)))
			.returning({ id: s.state_hash }),
	)
	yield* unlinkIdentitiesSteps(db, tenantId, id)
	const [row] = yield* step(
		db.orm
			.delete(p)
			.where(and(eq(p.tenant_id, tenantId), eq(p.id, id)))
			.returning({ id: p.id }),
	)
	return row ?? null
}

export const newProviderId = newId

export interface LoginState {
	stateHash: string
	tenantId: string
	providerId: string
	nonce: string
	codeVerifier: string
	returnTo: string | null
	expiresAt: Date
}

/** Stores a sign-in under way (and drops the expired ones). */
export async function saveLoginState(db: Database, state: LoginState) {
	const s = db.t.sso_login_states
	await runSteps(db, function* (tx) {
		yield* step(tx.orm.delete(s).where(lt(s.expires_at, new Date())).returning({ id: s.state_hash }))
		yield* step(
			tx.orm
				.insert(s)
				.values({
					state_hash: state.stateHash,
					tenant_id: state.tenantId,
					provider_id: state.providerId,
					nonce: state.nonce,
					code_verifier: state.codeVerifier,
					return_to: state.returnTo,
					expires_at: state.expiresAt,
				})
				.returning({ id: s.state_hash }),
		)
	})
}

/**
 * Takes the sign-in under way of this state, tenant and provider (one use: the row is deleted);
 * null when there is none (forged, reused, another tenant's or provider's) or it has expired.
 */
export async function takeLoginState(db: Database, stateHash: string, tenantId: string, providerId: string) {
	const s = db.t.sso_login_states
	const [row] = await runSteps(db, (tx) =>
		step(
			tx.orm
				.delete(s)
				.where(and(eq(s.state_hash, stateHash), eq(s.tenant_id, tenantId), eq(s.provider_id, providerId)))
				.returning(),
		),
	)
	if (!row || row.expires_at.getTime() < Date.now()) return null
	return { nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to }
}

/**
 * Records a provider's assertion as used (the SAML replay cache, decision 0077): true the first
 * time, false when any process recorded it before. The primary key decides, so two processes
 * receiving the same assertion at once cannot both accept it. Expired entries are dropped here.
 */
export async function claimAssertion(
	db: Database,
	entry: { tenantId: string; providerId: string; assertionId: string; expiresAt: Date },
) {
	const a = db.t.saml_assertions_seen
	return runSteps(db, function* (tx) {
		yield* step(tx.orm.delete(a).where(lt(a.expires_at, new Date())).returning({ id: a.assertion_id }))
		const rows = yield* step(
			tx.orm
				.insert(a)
				.values({
					tenant_id: entry.tenantId,
					provider_id: entry.providerId,
					assertion_id: entry.assertionId,
					expires_at: entry.expiresAt,
				})
				.onConflictDoNothing()
				.returning({ id: a.assertion_id }),
		)
		return rows.length === 1
	})
}
