import { sql } from 'drizzle-orm'
import { boolean, check, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { SSO_PROVIDER_KINDS, type SsoMappedRole, sqlList } from '../values.ts'
import { ts, id, tenantId } from './core.ts'

// School sign-in: identity providers, their domains, sign-ins under way, SAML replays seen.
// The same tables as db/schema/sqlite/sso.ts (db/schema/pg.ts says how the two are kept equal).

/**
 * A tenant's identity providers (issue 48, decision 0069). `kind` tells OpenID Connect from the
 * protocols that join later (SAML); an OIDC row has its client id and secret (CHECK). The secret is
 * AES-256-GCM under SSO_ENCRYPTION_KEY (app/accounts/sso/secret-box.server.ts), never plain text.
 * role_map: the values of `role_claim` that give course_admin or tenant_admin at each sign-in.
 */
export const identity_providers = pgTable(
	'identity_providers',
	{
		id: id(),
		tenant_id: tenantId(),
		kind: text('kind', { enum: SSO_PROVIDER_KINDS }).notNull(),
		label: text('label').notNull(),
		enabled: boolean('enabled').notNull().default(true),
		issuer: text('issuer').notNull(),
		client_id: text('client_id'),
		client_secret_sealed: text('client_secret_sealed'),
		scopes: text('scopes').notNull().default('openid email profile'),
		require_sso: boolean('require_sso').notNull().default(false),
		role_claim: text('role_claim'),
		// SAML (kind 'saml'; `issuer` holds the IdP's entity id): where AuthnRequests go, the IdP's
		// signing certificates (PEM, one or more for rollover), and this provider's own SP key pair
		// (the certificate published in the SP metadata, the private key sealed like a client secret).
		saml_sso_url: text('saml_sso_url'),
		saml_idp_certs: text('saml_idp_certs'),
		saml_sp_cert: text('saml_sp_cert'),
		saml_sp_key_sealed: text('saml_sp_key_sealed'),
		role_map: jsonb('role_map').$type<Partial<Record<SsoMappedRole, string[]>>>().notNull().default({}),
		created_at: ts('created_at').notNull().defaultNow(),
		updated_at: ts('updated_at').notNull().defaultNow(),
	},
	(t) => [
		index('identity_providers_tenant_idx').on(t.tenant_id),
		check('identity_providers_kind_check', sql.raw(`kind IN (${sqlList(SSO_PROVIDER_KINDS)})`)),
		check(
			'identity_providers_oidc_client_check',
			sql.raw(`kind <> 'oidc' OR (client_id IS NOT NULL AND client_secret_sealed IS NOT NULL)`),
		),
		check(
			'identity_providers_saml_check',
			sql.raw(
				`kind <> 'saml' OR (saml_sso_url IS NOT NULL AND saml_idp_certs IS NOT NULL AND saml_sp_cert IS NOT NULL AND saml_sp_key_sealed IS NOT NULL)`,
			),
		),
	],
)

/** The email domains a provider claims: one provider per domain in a tenant (the unique key). */
export const identity_provider_domains = pgTable(
	'identity_provider_domains',
	{
		tenant_id: tenantId(),
		provider_id: text('provider_id')
			.notNull()
			.references(() => identity_providers.id, { onDelete: 'cascade' }),
		domain: text('domain').notNull(),
	},
	(t) => [
		primaryKey({ columns: [t.tenant_id, t.domain] }),
		index('identity_provider_domains_provider_idx').on(t.provider_id),
	],
)

/**
 * A sign-in under way with a tenant's provider (decision 0069): the SHA-256 of its state, bound to
 * the tenant and the provider, with the PKCE verifier, the nonce and the return path; the callback
 * deletes it (one use) and refuses it past expires_at. For SAML (decision 0077) the state is the
 * RelayState, `nonce` the AuthnRequest's ID (the answer's InResponseTo) and code_verifier empty.
 */
export const sso_login_states = pgTable(
	'sso_login_states',
	{
		state_hash: text('state_hash').primaryKey(),
		tenant_id: tenantId(),
		provider_id: text('provider_id')
			.notNull()
			.references(() => identity_providers.id, { onDelete: 'cascade' }),
		nonce: text('nonce').notNull(),
		code_verifier: text('code_verifier').notNull(),
		return_to: text('return_to'),
		expires_at: ts('expires_at').notNull(),
	},
	(t) => [index('sso_login_states_expires_idx').on(t.expires_at)],
)

/**
 * The SAML replay cache (decision 0077), shared by every process through the database: the ID of
 * each assertion a provider's ACS accepted, kept until the assertion expires. The key refuses a
 * second use of one assertion, whichever process receives it.
 */
export const saml_assertions_seen = pgTable(
	'saml_assertions_seen',
	{
		tenant_id: tenantId(),
		provider_id: text('provider_id')
			.notNull()
			.references(() => identity_providers.id, { onDelete: 'cascade' }),
		assertion_id: text('assertion_id').notNull(),
		expires_at: ts('expires_at').notNull(),
	},
	(t) => [
		primaryKey({ columns: [t.provider_id, t.assertion_id] }),
		index('saml_assertions_seen_expires_idx').on(t.expires_at),
	],
)
