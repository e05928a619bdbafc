import { createHash } from 'node:crypto'
import * as oidc from 'openid-client'
import type { RequestContext } from '#app/context.ts'
import { requestPublic } from '#app/platform/public-address.server.ts'
import { saveLoginState, takeLoginState, type IdentityProvider } from '#db/identity-providers.ts'
import { openSecret } from './secret-box.server.ts'

/**
 * OpenID Connect with a tenant's provider through openid-client (decision 0069): discovery, PKCE
 * (S256), state and nonce; the ID token's signature, issuer, audience, expiry and nonce are
 * openid-client's checks. A sign-in under way is stored server-side (sso_login_states, one use,
 * ten minutes) and bound to the browser by a cookie holding its state.
 */
const STATE_TTL_MS = 10 * 60_000
const CONFIG_TTL_MS = 60 * 60_000
const TIMEOUT_SECONDS = 10

export type Env = RequestContext['env']

/** The redirect URI the provider is registered with: the tenant's host, the provider's own path. */
export const callbackPath = (providerId: string) => `/api/auth/sso/${providerId}/callback`

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Which issuers may be used: https always; plain http only for a loopback host outside production
 * (the tests' provider). Anything else is refused before a request is made.
 */
export function issuerAllowed(env: Pick<Env, 'NODE_ENV'>, issuer: string) {
	let url: URL
	try {
		url = new URL(issuer)
	} catch {
		return false
	}
	if (url.username || url.password || url.hash || url.search) return false
	if (url.protocol === 'https:') return true
	return url.protocol === 'http:' && env.NODE_ENV !== 'production' && LOOPBACK.has(url.hostname)
}

/** A discovery document, a key set, a token answer: none comes near this. */
const MAX_ANSWER_BYTES = 1024 * 1024

function requestBody(body: oidc.CustomFetchOptions['body']) {
	if (body === null || body === undefined || typeof body === 'string' || body instanceof Uint8Array)
		return body ?? undefined
	if (body instanceof URLSearchParams) return body.toString()
	if (body instanceof ArrayBuffer) return new Uint8Array(body)
	throw new Error('a streamed request body is not sent')
}

/**
 * Every request made for a tenant's provider (discovery, keys, token, userinfo): the issuer and the
 * endpoints its discovery document names were typed or published by others, so each connection is
 * made to a public address only, checked on the address connected to (the server's one address
 * check, decision 0079). Outside production the loopback spellings above may reach loopback (the
 * tests' provider); another spelling of loopback (`[::ffff:127.0.0.1]`, a name resolving to it) never.
 */
function publicFetch(env: Pick<Env, 'NODE_ENV'>): oidc.CustomFetch {
	return async (url, init) => {
		const target = new URL(url)
		const res = await requestPublic(target, {
			allowLoopback: env.NODE_ENV !== 'production' && LOOPBACK.has(target.hostname),
			timeoutMs: TIMEOUT_SECONDS * 1000,
			maxBytes: MAX_ANSWER_BYTES,
			method: init.method,
			headers: init.headers,
			body: requestBody(init.body),
			signal: init.signal,
		})
		const headers = new Headers()
		for (const [name, value] of Object.entries(res.headers))
			for (const v of ([] as string[]).concat(value ?? [])) headers.append(name, v)
		const empty = res.status === 204 || res.status === 304
		return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers })
	}
}

function options(env: Pick<Env, 'NODE_ENV'>, issuer: string) {
	const insecure = new URL(issuer).protocol === 'http:'
	return {
		timeout: TIMEOUT_SECONDS,
		[oidc.customFetch]: publicFetch(env),
		...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
	}
}

/** Reads the provider's discovery document (openid-client checks its issuer is this one). */
export async function discover(env: Pick<Env, 'NODE_ENV'>, issuer: string, clientId: string, secret: string) {
	if (!issuerAllowed(env, issuer)) throw new Error('issuer not allowed')
	const config = await oidc.discovery(
		new URL(issuer),
		clientId,
		secret,
		oidc.ClientSecretBasic(secret),
		options(env, issuer),
	)
	// The ID token's signature is checked against the provider's published keys even though it came
	// straight from the token endpoint (openid-client leaves that to TLS unless told).
	oidc.enableNonRepudiationChecks(config)
	return config
}

// One configuration per provider version, kept an hour: openid-client caches the provider's keys
// in it and fetches them again when a token names a key it has not seen (rotation).
const configs = new Map<string, { at: number; config: Promise<oidc.Configuration> }>()

function configuration(ctx: Pick<RequestContext, 'env'>, provider: IdentityProvider) {
	const key = `${provider.id}|${provider.updated_at.getTime()}`
	const cached = configs.get(key)
	if (cached && Date.now() - cached.at < CONFIG_TTL_MS) return cached.config
	const secret = providerSecret(ctx.env, provider)
	if (!secret || !provider.client_id) throw new Error('the provider has no readable client secret')
	const config = discover(ctx.env, provider.issuer, provider.client_id, secret)
	configs.set(key, { at: Date.now(), config })
	// A failed discovery is not kept.
	config.catch(() => configs.delete(key))
	return config
}

function providerSecret(env: Env, provider: IdentityProvider) {
	if (!env.SSO_ENCRYPTION_KEY || !provider.client_secret_sealed) return null
	return openSecret(
		env.SSO_ENCRYPTION_KEY,
		{ tenantId: provider.tenant_id, providerId: provider.id },
		provider.client_secret_sealed,
	)
}

const stateHash = (state: string) => createHash('sha256').update(`sso-state|${state}`).digest('base64url')

/** The provider's authorization URL for a new sign-in, and the state the browser's cookie keeps. */
export async function beginSignIn(ctx: RequestContext, provider: IdentityProvider, returnTo: string | null) {
	const config = await configuration(ctx, provider)
	const codeVerifier = oidc.randomPKCECodeVerifier()
	const state = oidc.randomState()
	const nonce = oidc.randomNonce()
	await saveLoginState(ctx.db, {
		stateHash: stateHash(state),
		tenantId: provider.tenant_id,
		providerId: provider.id,
		nonce,
		codeVerifier,
		returnTo,
		expiresAt: new Date(Date.now() + STATE_TTL_MS),
	})
	const url = oidc.buildAuthorizationUrl(config, {
		redirect_uri: `${ctx.origin}${callbackPath(provider.id)}`,
		scope: provider.scopes,
		state,
		nonce,
		code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
		code_challenge_method: 'S256',
	})
	return { url: url.href, state }
}

export interface OidcClaims {
	subject: string
	email: string | null
	emailVerified: boolean
	name: string | null
	/** Every claim the provider gave (ID token over userinfo), for the role mapping. */
	all: Record<string, unknown>
}

/**
 * The provider's answer on the callback: the stored sign-in of this state (this tenant, this
 * provider, one use, fresh), the code exchanged with its PKCE verifier, the ID token checked
 * (signature, iss, aud, exp, nonce), userinfo read for the same subject. Null for a state that is
 * not a sign-in under way here; throws for an answer that does not check out.
 */
export async function finishSignIn(ctx: RequestContext, provider: IdentityProvider, query: URLSearchParams) {
	const state = query.get('state')
	if (!state) return null
	const pending = await takeLoginState(ctx.db, stateHash(state), provider.tenant_id, provider.id)
	if (!pending) return null
	const config = await configuration(ctx, provider)
	// The redirect URI as registered (the origin from AUTH_URL and the host), with the provider's parameters.
	const current = new URL(`${ctx.origin}${callbackPath(provider.id)}?${query}`)
	const tokens = await oidc.authorizationCodeGrant(config, current, {
		pkceCodeVerifier: pending.codeVerifier,
		expectedState: state,
		expectedNonce: pending.nonce,
		idTokenExpected: true,
	})
	const idClaims = tokens.claims()
	if (!idClaims) throw new Error('no ID token')
	const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub).catch(() => ({}))
	const all: Record<string, unknown> = { ...info, ...idClaims }
	const claims: OidcClaims = {
		subject: idClaims.sub,
		email: typeof all.email === 'string' && all.email ? all.email : null,
		emailVerified: all.email_verified === true,
		name: typeof all.name === 'string' ? all.name : null,
		all,
	}
	return { claims, returnTo: pending.returnTo }
}
