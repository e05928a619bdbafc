/**
 * Hostile class: SAML 2.0 sign-in with a tenant's identity provider (issue 48, decision 0077),
 * against a real SAML IdP (samlify) on loopback. Each case is an answer an attacker could bring to
 * an ACS: well signed but wrong (time, audience, recipient, request, tenant, domain), not signed or
 * signed by another key, replayed, or tampered after signing (XML signature wrapping, a comment in
 * the NameID). Each must be refused at the sign-in error page with nothing written (no user, no
 * identity link, no session, no audit row, no session cookie).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '#tests/support/repository.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { startSamlIdp, type AnswerOptions, type SamlIdp, type SamlUser } from '#tests/support/saml-idp.ts'
import { addSamlProvider, pathOf, postToAcs, samlAnswer, startSso } from '#tests/support/sso.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const ATTACKER: SamlUser = { email: 'attacker@first.test' }
const VICTIM = 'victim@first.test'

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString()
const stripSignatures = (xml: string) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '')
const signedAssertion = (xml: string) => /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0]
/** The signed assertion's twin: unsigned, another ID, naming the victim. */
const evilTwin = (xml: string) =>
	stripSignatures(signedAssertion(xml))
		.replace(/ ID="[^"]+"/, ' ID="_evil-assertion"')
		.replace(/>attacker@first\.test</g, `>${VICTIM}<`)

describe.each(DIALECTS)('hostile SAML sign-in on %s', (dialect) => {
	let stack: Stack
	let idp: SamlIdp
	let p1: string
	let p2: string
	let g1: string
	const saml = hostileClass('saml', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		idp = await startSamlIdp()
		const acmeAdmin = await stack.signIn('admin@acme.test')
		p1 = await addSamlProvider(stack, acmeAdmin, idp, { label: 'First SAML', domains: 'first.test' })
		p2 = await addSamlProvider(stack, acmeAdmin, idp, { label: 'Second SAML', domains: 'second.test' })
		const globexAdmin = await stack.signIn('admin@globex.test', GLOBEX)
		g1 = await addSamlProvider(stack, globexAdmin, idp, { label: 'Globex SAML', domains: 'first.test' })
		// The victim exists: a forged assertion naming them must not sign anyone in as them.
		await createUser(stack.db, {
			tenant_id: stack.seeded.tenants.acme.id,
			email: VICTIM,
			name: 'Victim',
			role: 'tenant_admin',
		})
	})
	afterAll(async () => {
		saml.report()
		await stack?.close()
		await idp?.close()
	})

	/** Every row a sign-in could write. */
	async function counts() {
		const { users, oauth_accounts, sessions, audit_log } = stack.db.t
		const n = async (table: typeof users | typeof oauth_accounts | typeof sessions | typeof audit_log) =>
			(await stack.db.orm.select().from(table)).length
		return [await n(users), await n(oauth_accounts), await n(sessions), await n(audit_log)].join('/')
	}

	/** The case's answer must be a refusal at the error page, with no session and nothing written. */
	async function refused(label: string, attempt: () => Promise<TestResponse>) {
		const before = await counts()
		const res = await attempt()
		const location = String(res.headers.location ?? '')
		const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
		saml.check(label, res.status === 302 && location.startsWith('/learn/sign-in/error'), `${res.status} ${location}`)
		saml.check(`${label}: no session`, !cookies.some((c) => /^lms_session=[^;]+/.test(c)), cookies.join(' | '))
		saml.check(`${label}: nothing written`, (await counts()) === before, `${before} -> ${await counts()}`)
		return res
	}

	/** A fresh browser's sign-in with p1, answered as `user` with the options, posted to p1's ACS. */
	const attempt =
		(options: AnswerOptions, user: SamlUser = ATTACKER) =>
		async () => {
			const b = stack.browser(ACME)
			return postToAcs(b, await samlAnswer(b, p1, idp, user, options), idp)
		}

	it('refuses an unsigned assertion and one signed by another key', async () => {
		await refused('unsigned', attempt({ after: stripSignatures }))
		await refused('signed by another key', attempt({ rogueKey: true }))
		// The signed assertion with its content changed after signing.
		await refused('altered after signing', attempt({ after: (x) => x.replace('attacker@first.test<', `${VICTIM}<`) }))
		expect(saml.newFailures()).toEqual([])
	})

	it('refuses assertions out of time, for another audience, recipient or destination', async () => {
		const cases: Array<[string, (v: Record<string, string>) => Record<string, string>]> = [
			[
				'expired (NotOnOrAfter past)',
				(v) => ({
					...v,
					IssueInstant: minutes(-9),
					ConditionsNotBefore: minutes(-9),
					ConditionsNotOnOrAfter: minutes(-4),
					SubjectConfirmationDataNotOnOrAfter: minutes(-4),
				}),
			],
			['NotBefore in the future beyond the skew', (v) => ({ ...v, ConditionsNotBefore: minutes(4) })],
			[
				'issued long ago though still valid',
				(v) => ({ ...v, IssueInstant: minutes(-60), ConditionsNotBefore: minutes(-60) }),
			],
			['another audience', (v) => ({ ...v, Audience: 'https://evil.test/sp' })],
			['another recipient', (v) => ({ ...v, SubjectRecipient: 'https://evil.test/acs' })],
			['another destination', (v) => ({ ...v, Destination: 'https://evil.test/acs' })],
			['another issuer', (v) => ({ ...v, Issuer: 'https://evil.test/idp' })],
			['InResponseTo unknown', (v) => ({ ...v, InResponseTo: '_unknown-request' })],
		]
		for (const [label, values] of cases) await refused(label, attempt({ values }))
		// An unsolicited (IdP-initiated) answer: no InResponseTo at all.
		await refused('InResponseTo missing', attempt({ after: (x) => x.replace(/ InResponseTo="[^"]+"/g, '') }))
		expect(saml.newFailures()).toEqual([])
	})

	it('accepts one assertion once: a replay is refused, even with its sign-in state put back', async () => {
		const b = stack.browser(ACME)
		const answer = await samlAnswer(b, p1, idp, { email: 'once@first.test' })
		const [state] = await stack.db.orm.select().from(stack.db.t.sso_login_states)
		const first = await postToAcs(b, answer, idp)
		expect(first.headers.location).toBe('/learn/dashboard')
		await refused('replayed', () => postToAcs(stack.browser(ACME), answer, idp))
		// The replay cache alone: the one-use state restored (as another process could still hold it).
		await stack.db.orm.insert(stack.db.t.sso_login_states).values(state)
		await refused('replayed with its state restored', () => postToAcs(stack.browser(ACME), answer, idp))
		expect(saml.newFailures()).toEqual([])
	})

	it('refuses answers across providers and tenants', async () => {
		// An answer to the second provider's request, brought to the first's sign-in.
		const b = stack.browser(ACME)
		const other = new URL(await startSso(stack.browser(ACME), p2))
		const otherRequest = (await idp.answer(other.href, ATTACKER)).requestId
		const mine = await samlAnswer(b, p1, idp, ATTACKER, { values: (v) => ({ ...v, InResponseTo: otherRequest }) })
		await refused('InResponseTo of another provider', () => postToAcs(b, mine, idp))
		// The second provider's whole answer posted to the first's ACS.
		const b2 = stack.browser(ACME)
		const second = await samlAnswer(b2, p2, idp, { email: 'someone@second.test' })
		await refused('second provider’s answer at the first’s ACS', () =>
			b2.post(`/api/auth/saml/${p1}/acs`, second.fields, { origin: new URL(idp.entityID).origin }),
		)
		// Tenant A's answer at tenant B's host: A's ACS path there, and B's own ACS.
		const b3 = stack.browser(ACME)
		const acme = await samlAnswer(b3, p1, idp, ATTACKER)
		await refused('acme answer at acme’s ACS path on globex', () =>
			stack.request(GLOBEX, pathOf(acme.acs), {
				method: 'POST',
				body: new URLSearchParams(acme.fields).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			}),
		)
		await refused('acme answer at globex’s ACS', () =>
			stack.request(GLOBEX, `/api/auth/saml/${g1}/acs`, {
				method: 'POST',
				body: new URLSearchParams(acme.fields).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			}),
		)
		expect(saml.newFailures()).toEqual([])
	})

	it('refuses XML signature wrapping and a comment inside the NameID', async () => {
		await refused(
			'XSW: an unsigned assertion before the signed one',
			attempt({
				after: (x) => x.replace('<saml:Assertion', `${evilTwin(x)}<saml:Assertion`),
			}),
		)
		await refused(
			'XSW: an unsigned assertion after the signed one',
			attempt({
				after: (x) => x.replace('</saml:Assertion>', `</saml:Assertion>${evilTwin(x)}`),
			}),
		)
		await refused(
			'XSW: the signed assertion inside an unsigned one',
			attempt({
				after: (x) => {
					const signed = signedAssertion(x)
					const twin = evilTwin(x).replace('</saml:Subject>', `</saml:Subject><saml:Advice>${signed}</saml:Advice>`)
					return x.replace(signed, twin)
				},
			}),
		)
		await refused(
			'XSW: the signed response’s assertion moved into Extensions',
			attempt({
				after: (x) => {
					const signed = signedAssertion(x)
					return x.replace(signed, `<samlp:Extensions>${signed}</samlp:Extensions>${evilTwin(x)}`)
				},
			}),
		)
		// The IdP signs victim@first.test.evil.test; a comment cuts it where a careless reader stops.
		await refused(
			'comment inside the NameID',
			attempt(
				{ after: (x) => x.replace(`>${VICTIM}.evil.test<`, `>${VICTIM}<!---->.evil.test<`) },
				{ email: `${VICTIM}.evil.test` },
			),
		)
		expect(saml.newFailures()).toEqual([])
	})

	it('trusts a provider for its claimed domains only, and a RelayState names a sign-in of this provider', async () => {
		await refused('email outside the claimed domains', attempt({}, { email: 'someone@elsewhere.test' }))
		await refused('email of another provider’s domain', attempt({}, { email: 'someone@second.test' }))
		for (const relay of ['https://evil.test/', '/learn/dashboard', '', 'x'.repeat(300)]) {
			const b = stack.browser(ACME)
			const answer = await samlAnswer(b, p1, idp, ATTACKER)
			await refused(`RelayState ${relay.slice(0, 20) || 'empty'}`, () =>
				postToAcs(b, { ...answer, fields: { ...answer.fields, RelayState: relay } }, idp),
			)
		}
		expect(saml.newFailures()).toEqual([])
	})

	it('changes nothing on a GET of the ACS, refuses garbage, odd ids and a disabled provider', async () => {
		const get = await stack.browser(ACME).get(`/api/auth/saml/${p1}/acs`)
		saml.check('GET ACS redirects to sign-in', get.status === 302 && get.headers.location === '/learn/sign-in')
		for (const body of ['not base64 at all', Buffer.from('<not-saml/>').toString('base64'), ''])
			await refused(`SAMLResponse ${body.slice(0, 12) || 'empty'}`, async () => {
				const b = stack.browser(ACME)
				const answer = await samlAnswer(b, p1, idp, ATTACKER)
				return postToAcs(b, { ...answer, fields: { ...answer.fields, SAMLResponse: body } }, idp)
			})
		for (const id of ['%00', 'x'.repeat(200), '..%2F..%2Fadmin']) {
			const res = await stack.browser(ACME).post(`/api/auth/saml/${id}/acs`, { SAMLResponse: 'x', RelayState: 'y' })
			saml.check(`ACS with id ${id.slice(0, 20)}`, res.status < 500 && res.status !== 200, String(res.status))
			const meta = await stack.request(ACME, `/api/auth/saml/${id}/metadata`)
			saml.check(`metadata with id ${id.slice(0, 20)}`, meta.status === 404, String(meta.status))
		}
		const b = stack.browser(ACME)
		const answer = await samlAnswer(b, p1, idp, ATTACKER)
		await stack.db.orm
			.update(stack.db.t.identity_providers)
			.set({ enabled: false })
			.where(eq(stack.db.t.identity_providers.id, p1))
		await refused('disabled provider', () => postToAcs(b, answer, idp))
		expect(saml.newFailures()).toEqual([])
	})
})
