import { load } from 'cheerio'
import type { Stack } from './stack.ts'

/** A SCIM token made the way a tenant admin makes one: the page's form, the token read from its answer (shown once). */
export async function createScimToken(stack: Stack, admin: string, host: string, label = 'Entra ID') {
	const b = await stack.signIn(admin, host)
	const res = await b.post('/admin/settings/scim', { intent: 'create-token', label })
	if (res.status !== 200) throw new Error(`token form answered ${res.status}`)
	const token = load(res.text)('#scim-token').text().trim()
	if (!token.startsWith('scim_')) throw new Error('no token in the answer')
	return { token, browser: b }
}

/** A SCIM client as an identity provider is one: a bearer token, application/scim+json bodies. */
export function scimClient(stack: Stack, host: string, token: string) {
	const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
		const res = await stack.request(host, `/scim/v2${path}`, {
			method,
			headers: {
				authorization: `Bearer ${token}`,
				accept: 'application/scim+json',
				...(body !== undefined ? { 'content-type': 'application/scim+json; charset=utf-8' } : {}),
				...headers,
			},
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		})
		return { ...res, data: res.text ? (JSON.parse(res.text) as Record<string, any>) : null }
	}
	return {
		get: (path: string) => call('GET', path),
		post: (path: string, body: unknown) => call('POST', path, body),
		put: (path: string, body: unknown) => call('PUT', path, body),
		patch: (path: string, body: unknown) => call('PATCH', path, body),
		delete: (path: string) => call('DELETE', path),
		call,
	}
}

export type ScimClient = ReturnType<typeof scimClient>

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'

/** A user as Microsoft Entra ID creates one (its provisioning service's POST /Users). */
export function entraUser(email: string, externalId: string) {
	return {
		schemas: [USER, ENTERPRISE],
		externalId,
		userName: email,
		active: true,
		displayName: 'Emma Entra',
		emails: [{ primary: true, type: 'work', value: email }],
		name: { formatted: 'Emma Entra', familyName: 'Entra', givenName: 'Emma' },
		[ENTERPRISE]: { department: 'Teaching' },
	}
}

/** A user as Okta creates one. */
export function oktaUser(email: string) {
	return {
		schemas: [USER],
		userName: email,
		name: { givenName: 'Otto', familyName: 'Okta' },
		emails: [{ primary: true, value: email, type: 'work' }],
		displayName: 'Otto Okta',
		locale: 'en-US',
		externalId: `00u${email.length}okta`,
		groups: [],
		password: 'never-stored-1!',
		active: true,
	}
}

export const filterUserName = (email: string) => `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`
