import { and, desc, eq } from 'drizzle-orm'
import type { Browser } from './client.ts'
import { IDP_CLIENT, type OidcIdp } from './oidc-idp.ts'
import type { AnswerOptions, SamlIdp, SamlUser } from './saml-idp.ts'
import type { Stack } from './stack.ts'

/** The single sign-on tests' steps (decision 0069), through the pages and routes a browser uses. */

export interface ProviderFields {
	label?: string
	clientId?: string
	clientSecret?: string
	domains?: string
	requireSso?: boolean
	roleClaim?: string
	courseAdminValues?: string
	tenantAdminValues?: string
	issuer?: string
}

/** Connects the provider through the admin page's form; returns the new provider's id. */
export async function addProvider(stack: Stack, admin: Browser, idp: OidcIdp, fields: ProviderFields = {}) {
	const { requireSso, ...rest } = fields
	const res = await admin.post('/admin/settings/sign-in', {
		intent: 'save',
		label: 'Acme University',
		issuer: idp.issuer,
		clientId: IDP_CLIENT.id,
		clientSecret: IDP_CLIENT.secret,
		scopes: 'openid email profile',
		...rest,
		...(requireSso ? { requireSso: 'on' } : {}),
	})
	if (res.status !== 302) throw new Error(`adding a provider answered ${res.status}: ${res.text.slice(0, 2000)}`)
	const p = stack.db.t.identity_providers
	const [row] = await stack.db.orm
		.select()
		.from(p)
		.where(and(eq(p.label, fields.label ?? 'Acme University')))
		.orderBy(desc(p.created_at))
		.limit(1)
	return row.id
}

const pathOf = (url: string) => {
	const u = new URL(url)
	return `${u.pathname}${u.search}`
}

/** The sign-in button's post: the provider's authorization URL it redirects to. */
export async function startSso(b: Browser, providerId: string, callbackUrl = '') {
	const start = await b.post(`/api/auth/sso/${providerId}`, { callbackUrl })
	if (start.status !== 302) throw new Error(`start answered ${start.status}`)
	return String(start.headers.location)
}

/** The whole round trip: the button, the provider (as `sub`), the callback. Returns the callback's answer. */
export async function ssoSignIn(b: Browser, providerId: string, idp: OidcIdp, sub: string, callbackUrl = '') {
	const authorize = await startSso(b, providerId, callbackUrl)
	const back = await idp.signInAs(authorize, sub)
	return b.get(pathOf(back))
}

export { pathOf }

/** SAML (decision 0077): the admin form's fields beside the IdP's pasted metadata. */
export interface SamlProviderFields {
	label?: string
	domains?: string
	requireSso?: boolean
	roleClaim?: string
	courseAdminValues?: string
	tenantAdminValues?: string
	metadataXml?: string
}

/** Connects a SAML provider through the admin page's form (its metadata pasted); returns its id. */
export async function addSamlProvider(stack: Stack, admin: Browser, idp: SamlIdp, fields: SamlProviderFields = {}) {
	const { requireSso, ...rest } = fields
	const res = await admin.post('/admin/settings/sign-in', {
		intent: 'saveSaml',
		label: 'Acme SAML',
		metadataXml: idp.metadata,
		domains: 'saml.test',
		...rest,
		...(requireSso ? { requireSso: 'on' } : {}),
	})
	if (res.status !== 302) throw new Error(`adding a SAML provider answered ${res.status}: ${res.text.slice(0, 2000)}`)
	const p = stack.db.t.identity_providers
	const [row] = await stack.db.orm
		.select()
		.from(p)
		.where(eq(p.label, fields.label ?? 'Acme SAML'))
		.orderBy(desc(p.created_at))
		.limit(1)
	return row.id
}

/** The button's post, then the IdP's answer as `user`: the ACS form's fields, not yet posted. */
export async function samlAnswer(
	b: Browser,
	providerId: string,
	idp: SamlIdp,
	user: SamlUser,
	options?: AnswerOptions,
	callbackUrl = '',
) {
	return idp.answer(await startSso(b, providerId, callbackUrl), user, options)
}

/** Posts the IdP's answer to the ACS as the IdP's page does: a form of another site. */
export function postToAcs(b: Browser, answer: { acs: string; fields: Record<string, string> }, idp: SamlIdp) {
	return b.post(pathOf(answer.acs), answer.fields, { origin: new URL(idp.entityID).origin })
}

/** The whole SAML round trip as `user`; returns the ACS's answer. */
export async function samlSignIn(b: Browser, providerId: string, idp: SamlIdp, user: SamlUser, callbackUrl = '') {
	return postToAcs(b, await samlAnswer(b, providerId, idp, user, {}, callbackUrl), idp)
}
