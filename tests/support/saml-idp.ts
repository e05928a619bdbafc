import { createServer, get } from 'node:http'
import { randomBytes } from 'node:crypto'
import * as validator from '@authenio/samlify-node-xmllint'
import { createRequire } from 'node:module'
import type * as Samlify from 'samlify'
import { newSigningKeyPair } from '#app/accounts/sso/certificate.server.ts'
import { freePort } from './http.ts'

/**
 * A real SAML 2.0 identity provider (samlify, its schema checked by xmllint) on loopback for the
 * SAML sign-in tests (decision 0077). It reads the app's AuthnRequest from the redirect URL the
 * sign-in button answers with, checks its signature against the SP metadata it fetches from the
 * app (the request's Issuer is that metadata's URL), and answers with a signed assertion.
 * `answer` is the tests' way in: the HTTP-POST form's fields, optionally with the assertion's values
 * changed before signing (`values`) or the signed XML changed after (`after`), for the hostile
 * cases. `GET /sso` serves the same answer as a page with a button (no JavaScript needed), as the
 * account chosen with `loginAs`.
 */
export interface SamlUser {
	email: string
	name?: string
	groups?: string[]
	/** Another NameID than the email (and its format). */
	nameId?: string
	nameIdFormat?: string
}

export interface AnswerOptions {
	/** The template's values (samlify's tags) before signing: the cases of a well-signed bad assertion. */
	values?: (v: Record<string, string>) => Record<string, string>
	/** The signed response's XML, changed after signing: the cases of a tampered message. */
	after?: (xml: string) => string
	/** Sign with a key the IdP's metadata does not publish. */
	rogueKey?: boolean
}

// samlify's CommonJS exports read through require: Playwright's loader does not see all of them
// (Utility, SamlLib) through an ES import.
const samlify = createRequire(import.meta.url)('samlify') as typeof Samlify

const EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'

const escape = (s: string) =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

function attributeStatement(user: SamlUser) {
	const attrs: Array<[string, string[]]> = [['email', [user.email]]]
	if (user.name) attrs.push(['displayName', [user.name]])
	if (user.groups) attrs.push(['groups', user.groups])
	const values = (vs: string[]) =>
		vs.map((v) => `<saml:AttributeValue xsi:type="xs:string">${escape(v)}</saml:AttributeValue>`).join('')
	return `<saml:AttributeStatement>${attrs
		.filter(([, vs]) => vs.length)
		.map(
			([name, vs]) =>
				`<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values(vs)}</saml:Attribute>`,
		)
		.join('')}</saml:AttributeStatement>`
}

/** A GET of a tenant host's URL (*.localhost names do not resolve here: the host goes in the header). */
function getOnLoopback(href: string) {
	const url = new URL(href)
	return new Promise<string>((resolve, reject) => {
		get({ host: '127.0.0.1', port: url.port, path: url.pathname, headers: { host: url.host } }, (res) => {
			let body = ''
			res.setEncoding('utf8')
			res.on('data', (c: string) => (body += c))
			res.on('end', () =>
				res.statusCode === 200 ? resolve(body) : reject(new Error(`${href} answered ${res.statusCode}`)),
			)
		}).on('error', reject)
	})
}

export async function startSamlIdp() {
	samlify.setSchemaValidator(validator)
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const entityID = `${base}/metadata`
	const settings = (keys: ReturnType<typeof newSigningKeyPair>) => ({
		entityID,
		privateKey: keys.privateKey,
		signingCert: keys.certificate,
		singleSignOnService: [{ Binding: REDIRECT, Location: `${base}/sso` }],
		nameIDFormat: [EMAIL],
		wantAuthnRequestsSigned: true,
	})
	const idp = samlify.IdentityProvider(settings(newSigningKeyPair('test SAML IdP')))
	const rogue = samlify.IdentityProvider(settings(newSigningKeyPair('rogue SAML IdP')))
	const sps = new Map<string, Samlify.ServiceProviderInstance>()
	let current: SamlUser | null = null

	/** The app's SP, from the metadata its request names (fetched once per entity id). */
	async function serviceProvider(issuer: string) {
		const known = sps.get(issuer)
		if (known) return known
		const sp = samlify.ServiceProvider({ metadata: await getOnLoopback(issuer) })
		sps.set(issuer, sp)
		return sp
	}

	/** The HTTP-POST answer to the app's redirect (its signed AuthnRequest), as `user`. */
	async function answer(redirectUrl: string, user: SamlUser, options: AnswerOptions = {}) {
		const url = new URL(redirectUrl)
		const raw = url.search.slice(1)
		// The octet string the signature covers: the parameters as sent, in this order.
		const part = (name: string) => raw.split('&').find((p) => p.startsWith(`${name}=`))
		const octetString = ['SAMLRequest', 'RelayState', 'SigAlg'].map(part).filter(Boolean).join('&')
		const query = Object.fromEntries(url.searchParams)
		const issuer = /<saml:Issuer[^>]*>([^<]+)</.exec(
			samlify.Utility.inflateString(decodeURIComponent(part('SAMLRequest')!.slice('SAMLRequest='.length))),
		)?.[1]
		if (!issuer) throw new Error('the AuthnRequest names no issuer')
		const sp = await serviceProvider(issuer)
		const parsed = await idp.parseLoginRequest(sp, 'redirect', { query, octetString })
		const request = parsed.extract.request as { id: string; assertionConsumerServiceUrl: string }
		const acs = request.assertionConsumerServiceUrl
		const now = new Date()
		const later = new Date(now.getTime() + 5 * 60_000)
		const values: Record<string, string> = {
			ID: `_${randomBytes(16).toString('hex')}`,
			AssertionID: `_${randomBytes(16).toString('hex')}`,
			Destination: acs,
			Audience: issuer,
			SubjectRecipient: acs,
			Issuer: entityID,
			IssueInstant: now.toISOString(),
			StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
			ConditionsNotBefore: now.toISOString(),
			ConditionsNotOnOrAfter: later.toISOString(),
			SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
			NameIDFormat: user.nameIdFormat ?? EMAIL,
			NameID: user.nameId ?? user.email,
			InResponseTo: request.id,
		}
		const tags = options.values ? options.values(values) : values
		const signer = options.rogueKey ? rogue : idp
		const { context } = await signer.createLoginResponse(
			sp,
			{ extract: parsed.extract },
			'post',
			{},
			(template: string) => ({
				id: tags.ID,
				context: samlify.SamlLib.replaceTagsByValue(
					template
						.replace(
							'{AuthnStatement}',
							`<saml:AuthnStatement AuthnInstant="${tags.IssueInstant}" SessionIndex="${tags.AssertionID}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
						)
						.replace('{AttributeStatement}', attributeStatement(user)),
					tags,
				),
			}),
		)
		let xml = Buffer.from(context, 'base64').toString('utf8')
		if (options.after) xml = options.after(xml)
		return {
			acs,
			assertionId: tags.AssertionID,
			requestId: values.InResponseTo,
			fields: {
				SAMLResponse: Buffer.from(xml).toString('base64'),
				RelayState: url.searchParams.get('RelayState') ?? '',
			},
		}
	}

	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', base)
		if (url.pathname === '/metadata') {
			res.setHeader('content-type', 'application/samlmetadata+xml')
			return void res.end(idp.getMetadata())
		}
		if (url.pathname !== '/sso' || !current) {
			res.statusCode = 404
			return void res.end('not here')
		}
		answer(url.href, current).then(
			({ acs, fields }) => {
				// The HTTP-POST binding's page: a form the person sends on (a button: no JavaScript needed).
				const inputs = Object.entries(fields)
					.map(([k, v]) => `<input type="hidden" name="${k}" value="${escape(v)}">`)
					.join('')
				res.setHeader('content-type', 'text/html; charset=utf-8')
				res.end(
					`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Test IdP</title></head><body><form method="post" action="${escape(acs)}">${inputs}<button type="submit">Continue to the site</button></form></body></html>`,
				)
			},
			(error: unknown) => {
				res.statusCode = 400
				res.end(String(error))
			},
		)
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	// xmllint (WebAssembly) compiles the SAML schemas at its first validation, some 15 s: done here,
	// in the suite's set-up, rather than inside the first case's time limit.
	await validator.validate(idp.getMetadata()).catch(() => null)

	return {
		entityID,
		/** The IdP's metadata, as an admin pastes it. */
		metadata: idp.getMetadata(),
		/** Another IdP's metadata (same entity id, another key): a certificate rollover or a swap. */
		rogueMetadata: rogue.getMetadata(),
		answer,
		/** The person the page at /sso signs in (a real browser's walk). */
		loginAs(user: SamlUser) {
			current = user
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

export type SamlIdp = Awaited<ReturnType<typeof startSamlIdp>>
