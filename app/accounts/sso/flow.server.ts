import { createCookie } from 'react-router'
import type { RequestContext } from '#app/context.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { findIdentityProvider, listIdentityProviders, type IdentityProvider } from '#db/identity-providers.ts'
import { readCookie } from '../../platform/canonical.server.ts'
import { redirectWithSession, safeCallbackUrl } from '../auth.server.ts'
import { beginSignIn, finishSignIn, type OidcClaims } from './oidc.server.ts'
import { beginSamlSignIn, finishSamlSignIn, spMetadata } from './saml.server.ts'
import { signInWithProvider, type SsoRefusal } from './sign-in.server.ts'

/**
 * The two ends of a sign-in with a tenant's provider, as the routes call them (decision 0069): the
 * sign-in button's POST (api/auth/sso/<id>) and the provider's redirect back
 * (api/auth/sso/<id>/callback). The browser carries the state in a signed cookie of this path
 * (bound to this host and ten minutes); the database holds the rest, for one use.
 * A SAML provider (decision 0077) starts at the same button and comes back to its ACS
 * (api/auth/saml/<id>/acs): a cross-site POST carries no Lax cookie, so its RelayState alone names
 * the stored sign-in.
 */
const STATE_COOKIE = 'lms_sso'
const COOKIE_PATH = '/api/auth/sso'

function stateCookie(ctx: Pick<RequestContext, 'env' | 'origin'>) {
	return createCookie(STATE_COOKIE, {
		path: COOKIE_PATH,
		maxAge: 600,
		httpOnly: true,
		sameSite: 'lax',
		secure: ctx.origin.startsWith('https:'),
		secrets: [ctx.env.AUTH_SECRET],
	})
}

const clearState = `${STATE_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`

async function readState(ctx: RequestContext, request: Request) {
	const read = readCookie(request.headers.get('cookie'), STATE_COOKIE, { signed: true })
	if (read.state !== 'ok') return null
	const value: unknown = await stateCookie(ctx).parse(read.header)
	return typeof value === 'string' ? value : null
}

/** Where a refusal goes: the sign-in error page with the spec's reason (none: the generic one). */
function refusal(reason?: SsoRefusal) {
	return new Response(null, {
		status: 302,
		headers: { location: `/learn/sign-in/error${reason ? `?error=${reason}` : ''}`, 'set-cookie': clearState },
	})
}

/** This host's tenant's provider with this id (another tenant's id finds nothing); of a kind when given. */
async function tenantProvider(ctx: RequestContext, id: string | undefined, kind?: 'oidc' | 'saml') {
	// An id as we make them (a NUL would reach PostgreSQL as a refused parameter).
	if (!ctx.tenant || !id || !/^[\w-]{1,64}$/.test(id)) return null
	const provider = await findIdentityProvider(ctx.db, ctx.tenant.id, id)
	return provider && (!kind || provider.kind === kind) ? provider : null
}

/** The enabled provider of this host's tenant with this id (of this kind when given). */
async function enabledProvider(ctx: RequestContext, id: string | undefined, kind?: 'oidc' | 'saml') {
	const provider = await tenantProvider(ctx, id, kind)
	return provider?.enabled ? provider : null
}

/** The buttons of the tenant's sign-in page: its enabled providers. */
export async function signInButtons(ctx: RequestContext) {
	if (!ctx.tenant || !ctx.env.SSO_ENCRYPTION_KEY) return []
	const all = await listIdentityProviders(ctx.db, ctx.tenant.id)
	return all.filter((p) => p.enabled).map((p) => ({ id: p.id, label: p.label }))
}

/** The sign-in button's POST: the redirect to the provider, with the state cookie; or a refusal. */
export async function startProviderSignIn(ctx: RequestContext, providerId: string | undefined, callbackUrl: unknown) {
	if (!ctx.tenant) return refusal('oauth_tenant_unknown')
	if (ctx.tenant.status !== 'active') return refusal('oauth_tenant_suspended')
	const provider = await enabledProvider(ctx, providerId)
	if (!provider) return refusal()
	try {
		const returnTo = safeCallbackUrl(callbackUrl)
		if (provider.kind === 'saml')
			return new Response(null, { status: 302, headers: { location: await beginSamlSignIn(ctx, provider, returnTo) } })
		const { url, state } = await beginSignIn(ctx, provider, returnTo)
		return new Response(null, {
			status: 302,
			headers: { location: url, 'set-cookie': await stateCookie(ctx).serialize(state) },
		})
	} catch (error) {
		log.warn('sso/start-failed', { providerId: provider.id, error: describeError(error) })
		return refusal()
	}
}

/**
 * The provider's redirect back: the state of this browser's cookie, taken once from the database
 * for this tenant and this provider; the code exchanged and the ID token checked; then the spec's
 * rules and the role mapping. Every refusal leaves users, links and sessions as they were.
 */
export async function completeProviderSignIn(ctx: RequestContext, providerId: string | undefined, request: Request) {
	if (!ctx.tenant) return refusal('oauth_tenant_unknown')
	if (ctx.tenant.status !== 'active') return refusal('oauth_tenant_suspended')
	const provider = await enabledProvider(ctx, providerId, 'oidc')
	if (!provider) return refusal()
	const query = new URL(request.url).searchParams
	const cookieState = await readState(ctx, request)
	if (!cookieState || cookieState !== query.get('state')) return refusal()
	let finished
	try {
		finished = await finishSignIn(ctx, provider, query)
	} catch (error) {
		// A cancelled consent, a provider error, a token that does not check out: the generic refusal.
		log.warn('sso/callback-failed', { providerId: provider.id, error: describeError(error) })
		return refusal()
	}
	if (!finished) return refusal()
	const response = await signedIn(ctx, provider, finished.claims, finished.returnTo)
	response.headers.append('set-cookie', clearState)
	return response
}

/** The spec's rules and the role mapping for a checked answer; the session, or the refusal. */
async function signedIn(ctx: RequestContext, provider: IdentityProvider, claims: OidcClaims, returnTo: string | null) {
	const tenantId = provider.tenant_id
	const others = (await listIdentityProviders(ctx.db, tenantId)).filter((p) => p.id !== provider.id)
	const result = await signInWithProvider(
		ctx,
		provider,
		claims,
		others.flatMap((p) => p.domains),
	)
	if ('reason' in result) return refusal(result.reason)
	const next = result.created ? '/learn/dashboard' : returnTo
	return redirectWithSession(ctx, result.session, next)
}

/**
 * The IdP's POST to a SAML provider's ACS: the sign-in its RelayState names, the response checked
 * (saml.server.ts), then the same rules as OpenID Connect. Every refusal leaves users, links and
 * sessions as they were.
 */
export async function completeSamlSignIn(ctx: RequestContext, providerId: string | undefined, form: FormData) {
	if (!ctx.tenant) return refusal('oauth_tenant_unknown')
	if (ctx.tenant.status !== 'active') return refusal('oauth_tenant_suspended')
	const provider = await enabledProvider(ctx, providerId, 'saml')
	if (!provider) return refusal()
	let finished
	try {
		finished = await finishSamlSignIn(ctx, provider, form)
	} catch (error) {
		// A signature, audience, time, recipient or replay that does not check out: the generic refusal.
		log.warn('saml/acs-refused', { providerId: provider.id, error: describeError(error) })
		return refusal()
	}
	if (!finished) return refusal()
	return signedIn(ctx, provider, finished.claims, finished.returnTo)
}

/** A SAML provider's SP metadata on its tenant's host (enabled or not: the IdP is set up first), or 404. */
export async function samlMetadata(ctx: RequestContext, providerId: string | undefined) {
	const provider = await tenantProvider(ctx, providerId, 'saml')
	if (!provider) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } })
	let xml: string
	try {
		xml = await spMetadata(ctx, provider)
	} catch (error) {
		// The SP key does not open (SSO_ENCRYPTION_KEY missing or changed): nothing to publish.
		log.warn('saml/metadata-failed', { providerId: provider.id, error: describeError(error) })
		return new Response('Unavailable', { status: 503, headers: { 'content-type': 'text/plain' } })
	}
	return new Response(xml, {
		headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-cache' },
	})
}
