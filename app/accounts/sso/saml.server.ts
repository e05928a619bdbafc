import { createHash, randomBytes, X509Certificate } from 'node:crypto'
import type { CacheProvider, Profile } from '@node-saml/node-saml'
import type { RequestContext } from '#app/context.ts'
import { claimAssertion, saveLoginState, takeLoginState, type IdentityProvider } from '#db/identity-providers.ts'
import { newSigningKeyPair } from './certificate.server.ts'
import type { OidcClaims } from './oidc.server.ts'
import { openSecret, sealSecret } from './secret-box.server.ts'

/**
 * SAML 2.0 with a tenant's identity provider through @node-saml/node-saml (decision 0077). Each
 * provider has its own service-provider key pair (the AuthnRequests' signature, the certificate in
 * its SP metadata); node-saml signs the requests and checks the answers: the signature by the
 * provider's certificates (the assertion's own: `wantAssertionsSigned`), one assertion only (XML
 * signature wrapping), the audience, NotBefore/NotOnOrAfter within SKEW_MS and InResponseTo against
 * the one request of this sign-in. What node-saml leaves to us is here: the recipient and
 * destination, the issuer, and the replay cache (saml_assertions_seen, shared by every process).
 */
const STATE_TTL_MS = 10 * 60_000
/** Clocks may differ this much between the IdP and us, either way. */
export const SKEW_MS = 2 * 60_000
/** How long an assertion may be used after it was issued, whatever NotOnOrAfter says. */
const MAX_AGE_MS = 10 * 60_000

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata'

export const samlPaths = (providerId: string) => ({
	metadata: `/api/auth/saml/${providerId}/metadata`,
	acs: `/api/auth/saml/${providerId}/acs`,
})

/** Our entity id for this provider: its metadata URL on the tenant's host (stable, and fetchable). */
export const spEntityId = (origin: string, providerId: string) => `${origin}${samlPaths(providerId).metadata}`

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Where AuthnRequests may go: https, or plain http on loopback outside production (the tests' IdP). */
export function ssoUrlAllowed(env: Pick<RequestContext['env'], 'NODE_ENV'>, raw: string) {
	let url: URL
	try {
		url = new URL(raw)
	} catch {
		return false
	}
	if (url.username || url.password || url.hash) return false
	if (url.protocol === 'https:') return true
	return url.protocol === 'http:' && env.NODE_ENV !== 'production' && LOOPBACK.has(url.hostname)
}

export interface IdpMetadata {
	entityId: string
	ssoUrl: string
	/** PEM certificates, one after the other. */
	certs: string
}

export type MetadataProblem = 'metadataXml' | 'metadataSsoUrl' | 'metadataCert'

const pem = (base64: string) =>
	`-----BEGIN CERTIFICATE-----\n${(base64.replace(/\s+/g, '').match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----\n`

/**
 * The IdP's entity id, its HTTP-Redirect single sign-on URL and its signing certificates, read from
 * its metadata (an EntityDescriptor, or the first of an EntitiesDescriptor with an IdP role). Every
 * certificate must parse and be valid now; the URL must pass `ssoUrlAllowed`.
 */
export async function readIdpMetadata(
	env: Pick<RequestContext['env'], 'NODE_ENV'>,
	xml: string,
): Promise<IdpMetadata | { problem: MetadataProblem }> {
	const { parseDomFromString, xpath } = await samlXml()
	let doc: Document
	try {
		// xmldom resolves no external entities and loads nothing.
		doc = await parseDomFromString(xml)
	} catch {
		return { problem: 'metadataXml' }
	}
	const q = (local: string) => `*[local-name()='${local}' and namespace-uri()='${MD}']`
	const [entity] = xpath.selectElements(doc, `//${q('EntityDescriptor')}[${q('IDPSSODescriptor')}]`)
	const entityId = entity?.getAttribute('entityID')?.trim()
	if (!entity || !entityId || entityId.length > 500) return { problem: 'metadataXml' }
	const [idp] = xpath.selectElements(entity, `./${q('IDPSSODescriptor')}`)
	const sso = xpath
		.selectElements(idp, `./${q('SingleSignOnService')}`)
		.find((e) => e.getAttribute('Binding') === REDIRECT)
	const ssoUrl = sso?.getAttribute('Location')?.trim() ?? ''
	if (!ssoUrl || ssoUrl.length > 1000 || !ssoUrlAllowed(env, ssoUrl)) return { problem: 'metadataSsoUrl' }
	const keys = xpath
		.selectElements(idp, `./${q('KeyDescriptor')}`)
		.filter((k) => (k.getAttribute('use') ?? 'signing') === 'signing')
	const certs: string[] = []
	for (const key of keys)
		for (const node of xpath.selectElements(key, `.//*[local-name()='X509Certificate']`)) {
			const text = pem(node.textContent ?? '')
			try {
				const cert = new X509Certificate(text)
				if (new Date(cert.validTo).getTime() < Date.now()) return { problem: 'metadataCert' }
			} catch {
				return { problem: 'metadataCert' }
			}
			certs.push(text)
		}
	if (!certs.length || certs.length > 5) return { problem: 'metadataCert' }
	return { entityId, ssoUrl, certs: certs.join('') }
}

/** A new SP key pair for a provider: the certificate to publish and the private key sealed. */
export function newSpKeys(key: string, tenantId: string, providerId: string, host: string) {
	const pair = newSigningKeyPair(`${host} SAML ${providerId}`)
	return { cert: pair.certificate, keySealed: sealSecret(key, spKeyRow(tenantId, providerId), pair.privateKey) }
}

// Sealed for the row, like a client secret, with a suffix so the two can never stand for each other.
const spKeyRow = (tenantId: string, providerId: string) => ({ tenantId, providerId: `${providerId}|saml-sp-key` })

function spPrivateKey(ctx: Pick<RequestContext, 'env'>, provider: IdentityProvider) {
	const key = ctx.env.SSO_ENCRYPTION_KEY
	if (!key || !provider.saml_sp_key_sealed) return null
	return openSecret(key, spKeyRow(provider.tenant_id, provider.id), provider.saml_sp_key_sealed)
}

const certsOf = (provider: IdentityProvider) =>
	provider.saml_idp_certs?.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----\n?/g) ?? []

/**
 * node-saml and its XML reader, loaded on first use: a tenth of a second of a core to load, in
 * processes that mostly never see a SAML provider.
 */
const nodeSaml = () => import('@node-saml/node-saml')
const samlXml = () => import('@node-saml/node-saml/lib/xml.js')

/**
 * node-saml for one provider on this host. `requestId`: the one AuthnRequest an answer may be in
 * response to (the sign-in's, from its stored state); node-saml's cache is nothing more than that.
 */
async function samlFor(ctx: Pick<RequestContext, 'env' | 'origin'>, provider: IdentityProvider, requestId: string) {
	const { SAML, ValidateInResponseTo } = await nodeSaml()
	const privateKey = spPrivateKey(ctx, provider)
	if (!privateKey || !provider.saml_sso_url || !provider.saml_sp_cert)
		throw new Error('the SAML provider is incomplete')
	const issuedAt = new Date().toISOString()
	const cacheProvider: CacheProvider = {
		saveAsync: async (k, value) => (k === requestId ? { value, createdAt: Date.now() } : null),
		getAsync: async (k) => (k === requestId ? issuedAt : null),
		removeAsync: async () => null,
	}
	const entityId = spEntityId(ctx.origin, provider.id)
	return new SAML({
		issuer: entityId,
		audience: entityId,
		callbackUrl: `${ctx.origin}${samlPaths(provider.id).acs}`,
		entryPoint: provider.saml_sso_url,
		idpCert: certsOf(provider),
		idpIssuer: provider.issuer,
		privateKey,
		publicCert: provider.saml_sp_cert,
		signatureAlgorithm: 'sha256',
		wantAssertionsSigned: true,
		wantAuthnResponseSigned: false,
		acceptedClockSkewMs: SKEW_MS,
		maxAssertionAgeMs: MAX_AGE_MS,
		validateInResponseTo: ValidateInResponseTo.always,
		requestIdExpirationPeriodMs: STATE_TTL_MS,
		cacheProvider,
		generateUniqueId: () => requestId,
		identifierFormat: EMAIL_FORMAT,
		disableRequestedAuthnContext: true,
	})
}

/** This provider's SP metadata: our entity id, the ACS (HTTP-POST) and the signing certificate. */
export async function spMetadata(ctx: Pick<RequestContext, 'env' | 'origin'>, provider: IdentityProvider) {
	return (await samlFor(ctx, provider, '_metadata')).generateServiceProviderMetadata(null, provider.saml_sp_cert)
}

const stateHash = (relayState: string) => createHash('sha256').update(`saml-relay|${relayState}`).digest('base64url')

/** The IdP's URL with a signed AuthnRequest (HTTP-Redirect); its ID and the RelayState stored for one use. */
export async function beginSamlSignIn(ctx: RequestContext, provider: IdentityProvider, returnTo: string | null) {
	const requestId = `_${randomBytes(20).toString('hex')}`
	const relayState = randomBytes(24).toString('base64url')
	const url = await (await samlFor(ctx, provider, requestId)).getAuthorizeUrlAsync(relayState, undefined, {})
	await saveLoginState(ctx.db, {
		stateHash: stateHash(relayState),
		tenantId: provider.tenant_id,
		providerId: provider.id,
		nonce: requestId,
		codeVerifier: '',
		returnTo,
		expiresAt: new Date(Date.now() + STATE_TTL_MS),
	})
	return url
}

type Assertion = {
	$?: { ID?: string }
	Subject?: Array<{ SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: { Recipient?: string } }> }> }>
}

const firstString = (v: unknown): string | null =>
	typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null

const EMAIL_ATTRIBUTES = [
	'email',
	'mail',
	'urn:oid:0.9.2342.19200300.100.1.3',
	'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
]
const NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name']

/** The person the profile names: the NameID when it is an email address, or an email attribute. */
function claimsOf(provider: IdentityProvider, profile: Profile): OidcClaims {
	const attributes = (profile.attributes ?? {}) as Record<string, unknown>
	const fromNameId = profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : null
	const email = (fromNameId ?? EMAIL_ATTRIBUTES.map((a) => firstString(attributes[a])).find(Boolean) ?? null)?.trim()
	const name = NAME_ATTRIBUTES.map((a) => firstString(attributes[a])).find(Boolean) ?? null
	const domain = email ? email.slice(email.lastIndexOf('@') + 1).toLowerCase() : null
	return {
		subject: profile.nameID,
		email: email || null,
		// SAML says nothing of verification: the provider vouches for the addresses of the domains it
		// claims here, and for no other (an address elsewhere is refused as unverified).
		emailVerified: Boolean(domain && provider.domains.includes(domain)),
		name,
		all: attributes,
	}
}

/**
 * The IdP's POST to the ACS: the sign-in its RelayState names (this tenant, this provider, one use,
 * fresh), the response checked by node-saml against that sign-in's request ID, then the recipient
 * and destination (our ACS), the issuer (this provider), and the assertion recorded as used. Null
 * for a RelayState that is no sign-in under way here; throws for an answer that does not check out.
 */
export async function finishSamlSignIn(ctx: RequestContext, provider: IdentityProvider, form: FormData) {
	const relayState = form.get('RelayState')
	const samlResponse = form.get('SAMLResponse')
	if (typeof relayState !== 'string' || typeof samlResponse !== 'string' || !relayState || relayState.length > 200)
		return null
	const pending = await takeLoginState(ctx.db, stateHash(relayState), provider.tenant_id, provider.id)
	if (!pending) return null
	const acs = `${ctx.origin}${samlPaths(provider.id).acs}`
	const { profile } = await (
		await samlFor(ctx, provider, pending.nonce)
	).validatePostResponseAsync({
		SAMLResponse: samlResponse,
	})
	if (!profile) throw new Error('no assertion')
	if (profile.issuer !== provider.issuer) throw new Error('assertion from another issuer')
	// The response's Destination is outside the assertion's signature; when it is there it must name us too.
	const response = await (await samlXml()).parseDomFromString(Buffer.from(samlResponse, 'base64').toString('utf8'))
	const destination = response.documentElement.getAttribute('Destination')
	if (destination && destination !== acs) throw new Error('response for another destination')
	// The signed assertion (node-saml's, from the verified XML): its bearer confirmation's Recipient.
	const assertion = (profile.getAssertion?.() as { Assertion?: Assertion } | undefined)?.Assertion
	const recipients = (assertion?.Subject?.[0]?.SubjectConfirmation ?? []).map(
		(c) => c.SubjectConfirmationData?.[0]?.$?.Recipient,
	)
	if (!recipients.length || recipients.some((r) => r !== acs)) throw new Error('assertion for another recipient')
	const assertionId = assertion?.$?.ID
	if (!assertionId || assertionId.length > 200) throw new Error('assertion without an ID')
	const first = await claimAssertion(ctx.db, {
		tenantId: provider.tenant_id,
		providerId: provider.id,
		assertionId,
		expiresAt: new Date(Date.now() + MAX_AGE_MS + SKEW_MS),
	})
	if (!first) throw new Error('assertion replayed')
	return { claims: claimsOf(provider, profile), returnTo: pending.returnTo }
}
