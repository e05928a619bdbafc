// A test-only OAuth 2.0 authorization server speaking the Google (OpenID
// userinfo) and GitHub (REST user and emails) dialects, so the end-to-end
// suites run the real redirect, code exchange with PKCE and profile calls.
// It answers 404 unless NODE_ENV=test. The consent page lets a test choose
// the profile, including a missing or unverified email.
import { readForm } from '#app/platform/forms.server.ts'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { getRequestContext } from '#app/context.ts'
import { isProvider, type Provider } from '#app/accounts/oauth.server.ts'
import type { Env } from '#app/platform/env.server.ts'
import type { Route } from './+types/api.test-idp.$.ts'
import { escapeHtml as esc } from '#app/platform/html.ts'

interface Profile {
	sub: string
	email: string
	email_verified: boolean
	name: string
	picture: string
}
interface Grant {
	provider: Provider
	clientId: string
	redirectUri: string
	challenge: string
	profile: Profile
	expires: number
}

// Process memory is enough: the server that issues a code is the one that redeems it.
const codes = new Map<string, Grant>()
const accessTokens = new Map<string, { provider: Provider; profile: Profile; expires: number }>()

const notFound = () => new Response('Not found', { status: 404 })
const oauthError = (error: string, status = 400) =>
	Response.json({ error }, { status, headers: { 'cache-control': 'no-store' } })
const random = () => randomBytes(24).toString('base64url')

function clientOf(env: Env, provider: Provider) {
	return provider === 'google'
		? { id: env.AUTH_GOOGLE_ID, secret: env.AUTH_GOOGLE_SECRET }
		: { id: env.AUTH_GITHUB_ID, secret: env.AUTH_GITHUB_SECRET }
}

function parse(splat: string | undefined) {
	const [provider, ...rest] = (splat ?? '').split('/')
	return isProvider(provider) ? { provider, endpoint: rest.join('/') } : null
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
	const { env } = getRequestContext(context)
	const target = parse(params['*'])
	if (env.NODE_ENV !== 'test' || !target) return notFound()
	const url = new URL(request.url)
	if (target.endpoint === 'authorize') return consentPage(env, target.provider, url.searchParams)

	const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1]
	const grant = token ? accessTokens.get(token) : undefined
	if (!grant || grant.provider !== target.provider || grant.expires < Date.now())
		return oauthError('invalid_token', 401)
	const p = grant.profile
	switch (`${target.provider}/${target.endpoint}`) {
		case 'google/userinfo':
			return Response.json({
				sub: p.sub,
				name: p.name,
				picture: p.picture || undefined,
				...(p.email ? { email: p.email, email_verified: p.email_verified } : {}),
			})
		case 'github/user':
			return Response.json({
				id: Number(p.sub) || p.sub,
				login: p.sub,
				name: p.name,
				avatar_url: p.picture || null,
				email: null,
			})
		case 'github/user/emails':
			return Response.json(
				p.email ? [{ email: p.email, primary: true, verified: p.email_verified, visibility: 'private' }] : [],
			)
		default:
			return notFound()
	}
}

export async function action({ request, context, params }: Route.ActionArgs) {
	const { env } = getRequestContext(context)
	const target = parse(params['*'])
	if (env.NODE_ENV !== 'test' || !target) return notFound()
	const form = await readForm(request)
	const field = (name: string) => String(form.get(name) ?? '')
	if (target.endpoint === 'authorize') return grantConsent(env, target.provider, field)
	if (target.endpoint === 'token') return exchangeCode(env, target.provider, request, field)
	return notFound()
}

function consentPage(env: Env, provider: Provider, query: URLSearchParams) {
	const client = clientOf(env, provider)
	if (
		query.get('client_id') !== client.id ||
		query.get('response_type') !== 'code' ||
		!query.get('redirect_uri') ||
		!query.get('code_challenge')
	) {
		return new Response('invalid authorization request', { status: 400 })
	}
	const hidden = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method']
		.map((name) => `<input type="hidden" name="${name}" value="${esc(query.get(name) ?? '')}">`)
		.join('')
	const input = (name: string, label: string, value: string) =>
		`<p><label>${label} <input name="${name}" value="${esc(value)}"></label></p>`
	const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head><body>
<main><h1>Test identity provider (${provider})</h1><form method="post">${hidden}
${input('sub', 'Subject', '1001')}${input('email', 'Email', 'oauth.learner@example.com')}
<p><label><input type="checkbox" name="email_verified" value="true" checked> Email verified</label></p>
${input('name', 'Name', 'OAuth Learner')}${input('picture', 'Picture', '')}
<p><button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></p></form></main></body></html>`
	return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
}

function grantConsent(env: Env, provider: Provider, field: (name: string) => string) {
	if (field('client_id') !== clientOf(env, provider).id || field('code_challenge_method') !== 'S256')
		return new Response('invalid request', { status: 400 })
	const back = new URL(field('redirect_uri'))
	back.searchParams.set('state', field('state'))
	if (field('decision') !== 'allow') {
		back.searchParams.set('error', 'access_denied')
		return redirectTo(back)
	}
	const code = random()
	codes.set(code, {
		provider,
		clientId: field('client_id'),
		redirectUri: field('redirect_uri'),
		challenge: field('code_challenge'),
		profile: {
			sub: field('sub'),
			email: field('email'),
			email_verified: field('email_verified') === 'true',
			name: field('name'),
			picture: field('picture'),
		},
		expires: Date.now() + 60_000,
	})
	back.searchParams.set('code', code)
	return redirectTo(back)
}

function exchangeCode(env: Env, provider: Provider, request: Request, field: (name: string) => string) {
	const client = clientOf(env, provider)
	const basic = /^Basic (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1]
	const [id, secret] = basic
		? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
		: [field('client_id'), field('client_secret')]
	if (id !== client.id || !equal(secret ?? '', client.secret ?? '')) return oauthError('invalid_client', 401)
	const grant = codes.get(field('code'))
	codes.delete(field('code'))
	const verifier = createHash('sha256').update(field('code_verifier')).digest('base64url')
	if (
		field('grant_type') !== 'authorization_code' ||
		!grant ||
		grant.expires < Date.now() ||
		grant.provider !== provider ||
		grant.clientId !== id ||
		grant.redirectUri !== field('redirect_uri') ||
		!equal(verifier, grant.challenge)
	) {
		return oauthError('invalid_grant')
	}
	const accessToken = random()
	accessTokens.set(accessToken, { provider, profile: grant.profile, expires: Date.now() + 300_000 })
	return Response.json(
		{ access_token: accessToken, token_type: 'Bearer', expires_in: 300, scope: '' },
		{ headers: { 'cache-control': 'no-store' } },
	)
}

// (Response.redirect's headers are immutable; the server adds security headers.)
const redirectTo = (url: URL) => new Response(null, { status: 302, headers: { location: url.href } })

function equal(a: string, b: string) {
	const x = Buffer.from(a)
	const y = Buffer.from(b)
	return x.length === y.length && timingSafeEqual(x, y)
}
