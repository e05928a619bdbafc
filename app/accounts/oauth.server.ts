import { createCookie } from 'react-router'
import { OAuth2Strategy } from 'remix-auth-oauth2'
import { z } from 'zod'
import type { RequestContext } from '#app/context.ts'
import { findLinkedUserIdSteps, linkIdentitySteps } from '#db/oauth.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'
import { createUserSteps, findUserByEmailSteps, findUserByIdSteps, noPassword } from '#db/users.ts'
import { proveMailboxSteps } from './auth.server.ts'
import { newSessionSteps } from './session.server.ts'
import { readCookie } from '../platform/canonical.server.ts'
import type { Env } from '../platform/env.server.ts'

const PROVIDERS = ['google', 'github'] as const
// The picture a provider gave for the signed-in user (the avatar route), as the repository reads it.
export { findProviderPicture } from '#db/oauth.ts'

export type Provider = (typeof PROVIDERS)[number]

export const PROVIDER_LABELS: Record<Provider, string> = { google: 'Google', github: 'GitHub' }

/** What we keep of a provider's profile, whatever its shape. */
export interface ExternalProfile {
	provider: Provider
	subject: string
	email: string | null
	emailVerified: boolean
	name: string | null
	picture: string | null
}

type RefusalReason =
	| 'oauth_tenant_unknown'
	| 'oauth_tenant_suspended'
	| 'oauth_email_missing'
	| 'oauth_email_unverified'
	| 'oauth_account_deactivated'

interface Endpoints {
	authorize: string
	token: string
	/** Google: the OpenID userinfo; GitHub: the REST API base. */
	profile: string
}

const REAL_ENDPOINTS: Record<Provider, Endpoints> = {
	google: {
		authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
		token: 'https://oauth2.googleapis.com/token',
		profile: 'https://openidconnect.googleapis.com/v1/userinfo',
	},
	github: {
		authorize: 'https://github.com/login/oauth/authorize',
		token: 'https://github.com/login/oauth/access_token',
		profile: 'https://api.github.com',
	},
}

const SCOPES: Record<Provider, string[]> = {
	google: ['openid', 'email', 'profile'],
	github: ['read:user', 'user:email'],
}

function credentials(env: Env, provider: Provider) {
	const id = provider === 'google' ? env.AUTH_GOOGLE_ID : env.AUTH_GITHUB_ID
	const secret = provider === 'google' ? env.AUTH_GOOGLE_SECRET : env.AUTH_GITHUB_SECRET
	return id && secret ? { id, secret } : null
}

export function isProvider(value: unknown): value is Provider {
	return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value)
}

/** Providers whose button shows: both variables set, and only on a tenant host (spec, Authentication 4). */
export function enabledProviders(ctx: Pick<RequestContext, 'env' | 'tenant'>): Provider[] {
	if (!ctx.tenant) return []
	return PROVIDERS.filter((p) => credentials(ctx.env, p))
}

/**
 * In test mode the providers talk to the test identity provider served by
 * this app (routes/api.test-idp.$.ts) on the apex host and the port of the
 * request, so the end-to-end suites run the real redirect, code exchange and
 * profile calls on loopback.
 */
function testIdpOrigin(request: Request) {
	const { port } = new URL(request.url)
	return `http://localhost${port ? `:${port}` : ''}`
}

function endpoints(ctx: RequestContext, request: Request, provider: Provider): Endpoints {
	if (ctx.env.NODE_ENV !== 'test') return REAL_ENDPOINTS[provider]
	const base = `${testIdpOrigin(request)}/api/test-idp/${provider}`
	return {
		authorize: `${base}/authorize`,
		token: `${base}/token`,
		profile: provider === 'google' ? `${base}/userinfo` : base,
	}
}

const OAUTH_COOKIE = 'lms_oauth'

/** The remix-auth-oauth2 strategy for this provider on this host (the redirect URI is per host). */
export function createStrategy(ctx: RequestContext, request: Request, provider: Provider) {
	const creds = credentials(ctx.env, provider)
	if (!creds) return null
	const urls = endpoints(ctx, request, provider)
	return new OAuth2Strategy<ExternalProfile>(
		{
			cookie: {
				name: OAUTH_COOKIE,
				path: '/api/auth',
				sameSite: 'Lax',
				httpOnly: true,
				maxAge: 600,
				...(ctx.origin.startsWith('https:') ? { secure: true as const } : {}),
			},
			clientId: creds.id,
			clientSecret: creds.secret,
			authorizationEndpoint: urls.authorize,
			tokenEndpoint: urls.token,
			redirectURI: `${ctx.origin}/api/auth/callback/${provider}`,
			scopes: SCOPES[provider],
		},
		({ tokens }) => fetchProfile(provider, urls.profile, tokens.accessToken()),
	)
}

/** Set-Cookie values that clear the state and return-path cookies once the callback has used them. */
export const clearOAuthCookies = [
	`${OAUTH_COOKIE}=; Path=/api/auth; Max-Age=0; HttpOnly; SameSite=Lax`,
	'lms_oauth_next=; Path=/api/auth; Max-Age=0; HttpOnly; SameSite=Lax',
]

/** Where to return after the provider's callback; read back by readOAuthReturn. */
export const oauthReturnCookie = createCookie('lms_oauth_next', {
	path: '/api/auth',
	maxAge: 600,
	httpOnly: true,
	sameSite: 'lax',
})

/** The return path as the sign-in button's post set it (readCookie: one, in our spelling), else null; callers check it with safeCallbackUrl. */
export async function readOAuthReturn(request: Request): Promise<unknown> {
	const read = readCookie(request.headers.get('cookie'), 'lms_oauth_next', { signed: false })
	return read.state === 'ok' ? oauthReturnCookie.parse(read.header) : null
}

const googleProfile = z.object({
	sub: z.string().min(1),
	email: z.string().optional(),
	email_verified: z.union([z.boolean(), z.literal('true'), z.literal('false')]).optional(),
	name: z.string().optional(),
	picture: z.string().optional(),
})
const githubUser = z.object({
	id: z.union([z.number(), z.string()]),
	login: z.string(),
	name: z.string().nullish(),
	avatar_url: z.string().nullish(),
})
const githubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }))

async function getJson(url: string, accessToken: string) {
	const response = await fetch(url, {
		headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'user-agent': 'lms' },
		signal: AbortSignal.timeout(10_000),
	})
	if (!response.ok) throw new Error(`profile request failed with ${response.status}`)
	return response.json()
}

async function fetchProfile(provider: Provider, url: string, accessToken: string): Promise<ExternalProfile> {
	if (provider === 'google') {
		const p = googleProfile.parse(await getJson(url, accessToken))
		return {
			provider,
			subject: p.sub,
			email: p.email || null,
			emailVerified: p.email_verified === true || p.email_verified === 'true',
			name: p.name || null,
			picture: p.picture || null,
		}
	}
	const [user, emails] = await Promise.all([
		getJson(`${url}/user`, accessToken),
		getJson(`${url}/user/emails`, accessToken),
	])
	const u = githubUser.parse(user)
	const primary = githubEmails.parse(emails).find((e) => e.primary) ?? null
	return {
		provider,
		subject: String(u.id),
		email: primary?.email || null,
		emailVerified: primary?.verified === true,
		name: u.name || u.login,
		picture: u.avatar_url || null,
	}
}

/**
 * The spec's rules 4.1 to 4.5 applied to a returned profile on this host:
 * the user to sign in, or the reason for refusing. Identities belong to one
 * tenant; the same external account elsewhere makes an independent user. As
 * steps, so that the user, the link and the session are stored together.
 */
function* resolveExternalUserSteps(tx: Tx, ctx: RequestContext, profile: ExternalProfile) {
	const refuse = (reason: RefusalReason) => ({ reason }) as { reason: RefusalReason }
	const tenant = ctx.tenant
	if (!tenant) return refuse('oauth_tenant_unknown')
	if (tenant.status !== 'active') return refuse('oauth_tenant_suspended')
	if (!profile.email) return refuse('oauth_email_missing')
	if (!profile.emailVerified) return refuse('oauth_email_unverified')

	return yield* linkedUserSteps(tx, ctx, tenant.id, {
		provider: profile.provider,
		subject: profile.subject,
		email: profile.email,
		name: profile.name,
		avatarUrl: profile.picture,
	})
}

/**
 * The user an external identity signs in (rules 4.3 to 4.5, for the platform's providers and a
 * tenant's own): the one linked to it, else the tenant's user of its verified address, else a new
 * student; a deactivated one refused. The address counts as proved, and the identity is linked.
 */
export function* linkedUserSteps(
	tx: Tx,
	ctx: RequestContext,
	tenantId: string,
	identity: { provider: string; subject: string; email: string; name?: string | null; avatarUrl: string | null },
) {
	const linkedId = yield* findLinkedUserIdSteps(tx, tenantId, identity.provider, identity.subject)
	const linked = linkedId ? yield* findUserByIdSteps(tx, linkedId) : null
	let user = linked ?? (yield* findUserByEmailSteps(tx, tenantId, identity.email))
	let created = false
	if (user?.deactivated_at) return { reason: 'oauth_account_deactivated' } as { reason: RefusalReason }
	if (!user) {
		const name = identity.name?.trim().slice(0, 100) || identity.email.split('@')[0]
		// A concurrent callback may have created the user first: then use theirs.
		user =
			(yield* createUserSteps(tx, {
				tenant_id: tenantId,
				email: identity.email,
				name,
				role: 'student',
				password_hash: noPassword(ctx.db),
				locale: ctx.locale,
				email_verified_at: new Date(),
			})) ?? (yield* findUserByEmailSteps(tx, tenantId, identity.email))
		if (!user) throw new Error('external sign-in could not create the user')
		created = true
	} else {
		// The provider proved the address (rule 4.3): verified, and a password set before that dropped.
		user = yield* proveMailboxSteps(tx, user, 'other')
	}
	yield* linkIdentitySteps(tx, {
		tenantId,
		userId: user.id,
		provider: identity.provider,
		subject: identity.subject,
		avatarUrl: identity.avatarUrl,
	})
	return { user, created }
}

/** The user (created or linked), the identity link and the session, together; or the refusal's reason. */
export function signInExternal(ctx: RequestContext, profile: ExternalProfile) {
	return inTransaction(ctx.db, function* (tx) {
		const resolved = yield* resolveExternalUserSteps(tx, ctx, profile)
		if ('reason' in resolved) return resolved
		const session = yield* newSessionSteps(tx, ctx, resolved.user)
		if (!session) throw new Error('session could not be stored')
		return { created: resolved.created, session }
	})
}
