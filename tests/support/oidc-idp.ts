import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import Provider from 'oidc-provider'
import { freePort } from './http.ts'

/**
 * A real OpenID provider (panva's oidc-provider, certified) on loopback for the single sign-on tests
 * (decision 0069). Logins need no form: `signInAs` follows an authorization URL as the browser
 * would, as the account given, and returns the redirect back to the app. Its signing key is ours,
 * so hostile tests can have a token response carry a token re-signed with other claims
 * (`tamperIdToken`) or signed with another key (`forgeSignature`).
 */
export interface IdpAccount {
	sub: string
	email?: string
	email_verified?: boolean
	name?: string
	groups?: string[]
}

export const IDP_CLIENT = { id: 'lms-test-client', secret: 'lms-test-client-secret-0123456789' }
export const IDP_OTHER_CLIENT = { id: 'lms-other-client', secret: 'lms-other-client-secret-0123456789' }

// Any tenant host's single sign-on callback on loopback: the app's redirect URIs carry a provider id made at runtime.
const CALLBACK = /^http:\/\/[a-z0-9-]+\.localhost:\d+\/api\/auth\/sso\/[^/?#]+\/callback$/

export async function startOidcProvider() {
	const port = await freePort()
	const issuer = `http://127.0.0.1:${port}`
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
	const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'idp-key-1', alg: 'RS256', use: 'sig' }
	const accounts = new Map<string, IdpAccount>()
	let current: string | null = null
	const hooks: { idToken: ((claims: JWTPayload) => JWTPayload) | null; forge: boolean } = {
		idToken: null,
		forge: false,
	}

	const client = (c: typeof IDP_CLIENT) => ({
		client_id: c.id,
		client_secret: c.secret,
		redirect_uris: ['http://acme.localhost/api/auth/sso/placeholder/callback'],
		grant_types: ['authorization_code'],
		response_types: ['code'],
	})
	const provider = new Provider(issuer, {
		clients: [client(IDP_CLIENT), client(IDP_OTHER_CLIENT)],
		jwks: { keys: [jwk] },
		cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
		claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
		features: { devInteractions: { enabled: false } },
		findAccount: (_ctx: unknown, sub: string) => {
			const account = accounts.get(sub)
			return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined
		},
		// Consent is not what these tests are about: every client gets the scopes it asks for.
		loadExistingGrant: async (ctx: GrantContext) => {
			const grant = new ctx.oidc.provider.Grant({
				clientId: ctx.oidc.client.clientId,
				accountId: ctx.oidc.session.accountId,
			})
			grant.addOIDCScope('openid email profile')
			await grant.save()
			return grant
		},
		interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
	})
	provider.Client.prototype.redirectUriAllowed = (uri: string) => CALLBACK.test(uri)
	const handle = provider.callback()

	const server = createServer((req, res) => {
		if (req.url?.startsWith('/interaction/')) return void login(req, res)
		if (req.url?.startsWith('/token')) interceptTokens(res)
		handle(req, res)
	})
	async function login(req: IncomingMessage, res: ServerResponse) {
		if (!current) {
			res.statusCode = 400
			return res.end('no account chosen')
		}
		await provider.interactionFinished(req, res, { login: { accountId: current } }, { mergeWithLastSubmission: false })
	}
	function interceptTokens(res: ServerResponse) {
		if (!hooks.idToken && !hooks.forge) return
		const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse
		res.end = ((chunk?: unknown) => {
			const body = JSON.parse(String(chunk)) as Record<string, unknown>
			if (typeof body.id_token !== 'string') return end(chunk)
			void resign(body.id_token).then((token) => {
				const text = JSON.stringify({ ...body, id_token: token })
				res.setHeader('content-length', Buffer.byteLength(text))
				end(text)
			})
			return res
		}) as ServerResponse['end']
	}
	async function resign(token: string) {
		const decoded = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as JWTPayload
		const claims = hooks.idToken ? hooks.idToken(decoded) : decoded
		const key = hooks.forge ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey : privateKey
		return signJwt(claims, key)
	}
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))

	return {
		issuer,
		/** Adds or replaces an account the provider knows. */
		account(account: IdpAccount) {
			accounts.set(account.sub, account)
		},
		/** The account the next login at the provider's interaction (a real browser's) signs in as. */
		loginAs(sub: string) {
			current = sub
		},
		/** Re-signs every ID token of the token endpoint's answers with these claims (null: leave them). */
		tamperIdToken(edit: ((claims: JWTPayload) => JWTPayload) | null) {
			hooks.idToken = edit
		},
		/** Signs every ID token with a key the provider does not publish (same kid). */
		forgeSignature(on: boolean) {
			hooks.forge = on
		},
		/**
		 * Follows the authorization URL as a browser would, signed in as `sub`, and returns where the
		 * provider sends the browser back (the app's callback with code and state).
		 */
		async signInAs(authorizationUrl: string, sub: string) {
			current = sub
			const jar = new Map<string, string>()
			let url = authorizationUrl
			for (let hop = 0; hop < 10; hop++) {
				if (!url.startsWith(issuer)) return url
				const res = await fetch(url, {
					redirect: 'manual',
					headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
				})
				for (const c of res.headers.getSetCookie()) {
					const [pair] = c.split(';')
					const at = pair.indexOf('=')
					jar.set(pair.slice(0, at), pair.slice(at + 1))
				}
				const location = res.headers.get('location')
				if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`)
				url = new URL(location, url).href
			}
			throw new Error('too many redirects at the provider')
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

type JWTPayload = Record<string, unknown>

/** An RS256 JWS of the claims with the provider's key id (the provider signs its own the same way). */
function signJwt(claims: JWTPayload, key: KeyObject) {
	const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
	const input = `${part({ alg: 'RS256', kid: 'idp-key-1', typ: 'JWT' })}.${part(claims)}`
	return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`
}

interface GrantContext {
	oidc: {
		provider: {
			Grant: new (o: { clientId: string; accountId: string }) => {
				addOIDCScope(s: string): void
				save(): Promise<string>
			}
		}
		client: { clientId: string }
		session: { accountId: string }
	}
}

export type OidcIdp = Awaited<ReturnType<typeof startOidcProvider>>
