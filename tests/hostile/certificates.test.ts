/**
 * Hostile class: certificates (decision 0038). What an outsider can hand the certificate routes and
 * their verifiers: other learners' and other tenants' certificate ids in every spelling, forged and
 * replayed status lists, a credential swapped or changed in the database, names with markup.
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import * as vc from '@digitalbazaar/vc'
import { DataIntegrityProof } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list'
import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { liveCertificate, type Certificate } from '#db/certificates.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { passAssignment } from '#tests/support/results.ts'
import type { Tenant } from '#db/tenants.ts'
import { type User } from '#db/users.ts'
import { outsideVerifier } from '#tests/support/credentials.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }
const BEFORE_QUIZ = ['what-is-http', 'html-forms', 'progressive-enhancement', 'build-a-form']
// Stack frames, paths, SQL, driver errors, key material.
const LEAKS = /at \w+ \(|node_modules|\/work\/|\bSELECT\b[^<]*\bFROM\b|SQLITE_|PostgresError|secret_?key|sealed/

describe.each(DIALECTS)('hostile certificates on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globex: Tenant
	let hash: string
	const hostile = hostileClass('certificates', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globex = stack.seeded.tenants.globex
		hash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	let n = 0
	async function learner(tenant: Tenant, name?: string) {
		n += 1
		return createUser(stack.db, {
			tenant_id: tenant.id,
			email: `hostile-cert-${n}@${tenant.slug}.test`,
			name: name ?? `Hostile Learner ${n}`,
			role: 'student',
			password_hash: hash,
			email_verified_at: new Date(),
		})
	}
	const signIn = (user: User, host: string) => stack.signIn(user.email, host)
	/** An Acme learner who passed intro-to-web (its quiz last), with the certificate the app issued. */
	async function certified(name?: string) {
		const user = await learner(acme, name)
		const scope = { tenantId: acme.id, userId: user.id }
		await putEnrollment(stack.db, scope, 'intro-to-web', 'active')
		for (const slug of BEFORE_QUIZ) await markEntryCompleteRow(stack.db, scope, 'intro-to-web', slug)
		// The course result (decision 0037) needs the graded assignment's passing grade.
		await passAssignment(stack.db, scope, 'intro-to-web', 'build-a-form')
		const b = await signIn(user, ACME)
		expect((await b.post('/learn/course/intro-to-web/entry/basics-quiz', RIGHT)).status).toBe(302)
		const certificate = await liveCertificate(stack.db, acme.id, user.id, 'intro-to-web')
		expect(certificate).toBeDefined()
		return { user, b, certificate: certificate! }
	}
	const verdict = (html: string) => load(html)('main .notice strong').first().text()
	/** Where an answer shows an internal (a stack frame, a path, SQL, a key), with what is around it. */
	const leak = (text: string) => {
		const found = LEAKS.exec(text)
		return found ? text.slice(Math.max(0, found.index - 60), found.index + 60) : ''
	}
	/** An answer that gives nothing away: not a success, no server error, no internals, not the name or the credential. */
	function refused(label: string, res: TestResponse, certificate: Certificate) {
		const proofValue = JSON.parse(certificate.credential_json).proof.proofValue as string
		hostile.check(
			`${label}: not served`,
			res.status !== 200 || verdict(res.text).startsWith('Not a certificate'),
			`${res.status}`,
		)
		hostile.check(`${label}: no server error`, res.status < 500, `${res.status}`)
		hostile.check(`${label}: no internals`, leak(res.text) === '', leak(res.text))
		hostile.check(`${label}: not the name`, !res.text.includes(certificate.recipient_name))
		hostile.check(`${label}: not the credential`, !res.text.includes(proofValue))
	}

	it('gives another learner’s or another tenant’s certificate to nobody, in any spelling', async () => {
		const { certificate } = await certified('Private Person Alpha')
		const id = certificate.public_id
		const other = await signIn(await learner(acme), ACME)
		const globexLearner = await signIn(await learner(globex), GLOBEX)
		// Another learner of the same tenant: the learner page is 404, whatever the spelling.
		const spellings = [
			id,
			id.toUpperCase(),
			id.toLowerCase(),
			`${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`,
			`${id}/`,
			`${id}x`,
			`${id}%00`,
			`${id}%2F..`,
			encodeURIComponent(id).replace(/[A-Za-z]/, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`),
			`${id};jsessionid=1`,
			`${id}/../${id}`,
			`%20${id}`,
			'a'.repeat(4000),
			'..%2F..%2Fpackage.json',
		]
		for (const spelling of spellings) {
			const path = `/learn/certificates/${spelling}`
			const mine = await other.get(path)
			refused(`other learner ${path}`, mine, certificate)
			refused(`other tenant's learner ${path}`, await globexLearner.get(path), certificate)
		}
		// Another tenant's host: the public page and the credential say not ours, for every spelling.
		for (const spelling of [id, ...spellings.slice(1)]) {
			for (const path of [`/certificates/${spelling}`, `/certificates/${spelling}/credential`]) {
				refused(`globex ${path}`, await stack.request(GLOBEX, path), certificate)
				refused(`globex es ${path}`, await stack.request(GLOBEX, `/es${path}`), certificate)
			}
		}
		// Near misses on its own host are not it either.
		for (const spelling of spellings.slice(1, 4))
			refused(`acme /certificates/${spelling}`, await stack.request(ACME, `/certificates/${spelling}`), certificate)
		// A POST is no way in (there is no form on these pages).
		for (const path of [`/certificates/${id}`, `/learn/certificates/${id}`]) {
			const posted = await other.post(path, { intent: 'revoke', id: certificate.id })
			hostile.check(`POST ${path}: refused`, posted.status === 405 || posted.status === 404, `${posted.status}`)
		}
		expect((await liveCertificate(stack.db, acme.id, certificate.user_id, 'intro-to-web'))?.id).toBe(certificate.id)
		expect(hostile.newFailures()).toEqual([])
	})

	it('answers malformed status-list and context names with the JSON 404, never a list or a file', async () => {
		const { certificate } = await certified()
		// Another spelling of a list's number is sent to the one path that names it (the server's normal form).
		const encoded = await stack.request(ACME, '/credentials/status/%31')
		hostile.check(
			'status list %31: normal form',
			encoded.status === 308 && encoded.headers.location === '/credentials/status/1',
		)
		for (const list of ['0', '-1', '01', '1e3', '1.0', '999999999', '2', '%201', '1%00', 'NaN', 'Infinity']) {
			const res = await stack.request(ACME, `/credentials/status/${list}`)
			hostile.check(`status list ${list}: 404`, res.status === 404, `${res.status}`)
			hostile.check(`status list ${list}: envelope`, res.status !== 404 || res.json().code === 'NOT_FOUND')
		}
		for (const name of [
			'__proto__',
			'constructor',
			'toString',
			'hasOwnProperty',
			'..%2F..%2Fpackage.json',
			'CREDENTIALS-V2',
		]) {
			const res = await stack.request(ACME, `/credentials/contexts/${name}`)
			hostile.check(`context ${name}: 404`, res.status === 404, `${res.status}`)
			hostile.check(`context ${name}: no internals`, leak(res.text) === '', leak(res.text))
		}
		void certificate
		expect(hostile.newFailures()).toEqual([])
	})

	it('does not let a forged, foreign or replayed status list pass a revoked certificate', async () => {
		const { certificate } = await certified()
		const { certificate: globexCertificate } = await (async () => {
			// Globex's own list 1 (a certificate issued there by the same entry point).
			const { issueCertificate } = await import('#app/certificates/issue.server.ts')
			const { createCmsClient } = await import('#app/content/cms.server.ts')
			const { TEST_SECRETS } = await import('#tests/support/env.ts')
			const cms = createCmsClient({
				apiUrl: stack.cms.url,
				projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
				apiKey: TEST_SECRETS.CMS_API_UUID,
			})
			const course = await cms.course('globex', 'globex-onboarding', 'en')
			const issued = await issueCertificate(stack.db, {
				tenant: globex,
				userId: (await learner(globex)).id,
				course: { ...course!, certificate: { enabled: true } },
				origin: `http://localhost:${stack.port}`,
				baseDomain: 'localhost',
				authSecret: TEST_SECRETS.AUTH_SECRET,
			})
			return { certificate: issued!.certificate }
		})()
		const credential = JSON.parse(certificate.credential_json)
		const listUrl: string = credential.credentialStatus.statusListCredential
		const index = Number(credential.credentialStatus.statusListIndex)
		const honest = outsideVerifier(stack.port)
		const beforeRevocation = (await stack.request(new URL(listUrl).hostname, new URL(listUrl).pathname)).json()
		expect(await honest.status(credential)).toBe('valid')

		// The admin revokes it.
		const admin = stack.browser(ACME)
		await admin.post('/learn/sign-in', { email: 'admin@acme.test', password: DEMO_PASSWORD })
		const revoked = await admin.post('/admin/courses/intro-to-web/certificates', {
			intent: 'revoke',
			id: certificate.id,
			confirmed: 'yes',
			reason: 'Hostile test',
		})
		expect(revoked.status).toBe(302)
		// At once: the list served now says revoked (no list signed before the change is served again).
		expect(await honest.status(credential)).toBe('revoked')

		/** The outside verifier, with `listUrl` answered by `list` instead of the app. */
		const withList = (list: unknown) => {
			const base = outsideVerifier(stack.port).documentLoader
			return async (url: string) =>
				url === listUrl ? { contextUrl: null, documentUrl: url, document: list } : base(url)
		}
		const statusWith = (list: unknown) =>
			checkStatus({ credential, documentLoader: withList(list), suite: new DataIntegrityProof({ cryptosuite }) })

		// A forged list: today's list with the bit cleared again; its proof no longer holds.
		const today = (await stack.request(new URL(listUrl).hostname, new URL(listUrl).pathname)).json()
		const bits = gunzipSync(Buffer.from(today.credentialSubject.encodedList.slice(1), 'base64url'))
		bits[index >> 3] &= ~(0x80 >> (index & 7))
		const forged = structuredClone(today)
		forged.credentialSubject.encodedList = `u${gzipSync(bits).toString('base64url')}`
		const forgedResult = await statusWith(forged)
		hostile.check('a list with a changed bit is refused', !forgedResult.verified, JSON.stringify(forgedResult.results))
		// Another tenant's (genuine, signed) list in its place: the issuers do not match.
		const globexList = JSON.parse(globexCertificate.credential_json).credentialStatus.statusListCredential
		const foreignList = (await stack.request(new URL(globexList).hostname, new URL(globexList).pathname)).json()
		expect((await honest.verifyProof(foreignList)).verified).toBe(true)
		const foreignResult = await statusWith(foreignList)
		hostile.check('another tenant’s list is refused', !foreignResult.verified, JSON.stringify(foreignResult.results))
		// The list from before the revocation, replayed: it verifies only until its validUntil, an hour after
		// it was signed (and the verifier's five minutes of clock skew); past that it is refused.
		const replayNow = new Date(Date.parse(beforeRevocation.validUntil) + 6 * 60 * 1000)
		const replayed = await vc.verifyCredential({
			credential: beforeRevocation,
			suite: new DataIntegrityProof({ cryptosuite }),
			documentLoader: honest.documentLoader,
			now: replayNow,
		})
		hostile.check('a replayed list expires an hour after it was signed', !replayed.verified)
		// Our own page trusts no list at all: revoked, whatever the query asks for or whichever locale.
		for (const path of [
			`/certificates/${certificate.public_id}`,
			`/certificates/${certificate.public_id}?status=valid`,
			`/certificates/${certificate.public_id}?statusList=${encodeURIComponent(globexList)}`,
			`/fr/certificates/${certificate.public_id}`,
		]) {
			const res = await stack.request(ACME, path)
			hostile.check(
				`${path}: revoked`,
				/^(Revoked certificate|Certificat révoqué)$/.test(verdict(res.text)),
				verdict(res.text),
			)
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('says a certificate whose stored credential was swapped or changed does not verify', async () => {
		const { certificate: a } = await certified()
		const { certificate: b } = await certified()
		const c = stack.db.t.certificates
		const setJson = (id: string, json: string) =>
			stack.db.orm
				.update(c)
				.set({ credential_json: json })
				.where(and(eq(c.id, id), eq(c.tenant_id, acme.id)))
		// b's genuine, signed credential stored under a's row: signed by us, but not a's.
		await setJson(a.id, b.credential_json)
		const swapped = await stack.request(ACME, `/certificates/${a.public_id}`)
		hostile.check(
			'a credential moved to another row',
			verdict(swapped.text) === 'This certificate does not verify',
			verdict(swapped.text),
		)
		// One character of a's own credential changed (the name it signed).
		await setJson(a.id, a.credential_json.replace(a.recipient_name, `${a.recipient_name}x`))
		const changed = await stack.request(ACME, `/certificates/${a.public_id}`)
		hostile.check(
			'a changed credential',
			verdict(changed.text) === 'This certificate does not verify',
			verdict(changed.text),
		)
		// Not JSON at all.
		await setJson(a.id, '{"not": "a credential"')
		const broken = await stack.request(ACME, `/certificates/${a.public_id}`)
		hostile.check(
			'a broken credential',
			verdict(broken.text) === 'This certificate does not verify',
			`${broken.status}`,
		)
		hostile.check('a broken credential: no server error', broken.status < 500, `${broken.status}`)
		await setJson(a.id, a.credential_json)
		expect(verdict((await stack.request(ACME, `/certificates/${a.public_id}`)).text)).toBe('Valid certificate')
		expect(hostile.newFailures()).toEqual([])
	})

	it('keeps a name with markup as text: pages, admin list, mail and LinkedIn link', async () => {
		const name = `"><img src=x onerror=alert(1)> <b>Bold</b> {course} & ${'\u202e'}`
		const { user, b, certificate } = await certified(name)
		const admin = stack.browser(ACME)
		await admin.post('/learn/sign-in', { email: 'admin@acme.test', password: DEMO_PASSWORD })
		const pages: Array<[string, TestResponse]> = [
			['learner page', await b.get(`/learn/certificates/${certificate.public_id}`)],
			['verification page', await stack.request(ACME, `/certificates/${certificate.public_id}`)],
			['admin list', await admin.get('/admin/courses/intro-to-web/certificates')],
			['dashboard', await b.get('/learn/dashboard')],
		]
		for (const [label, res] of pages) {
			hostile.check(`${label}: 200`, res.status === 200, `${res.status}`)
			hostile.check(`${label}: no injected element`, !res.text.includes('<img src=x') && !res.text.includes('<b>Bold'))
		}
		const $ = load(pages[0][1].text)
		hostile.check(
			'learner page: the name as text',
			$('.certificate-name').text() === name,
			$('.certificate-name').text(),
		)
		const linkedIn = new URL($('a[href^="https://www.linkedin.com/"]').attr('href')!)
		hostile.check('LinkedIn: encoded fields', linkedIn.searchParams.get('certId') === certificate.public_id)
		const mail = await stack.mail.waitFor(user.email)
		hostile.check('mail: no injected element', !mail.html.includes('<img src=x'), mail.html.slice(0, 300))
		expect(hostile.newFailures()).toEqual([])
	})
})
