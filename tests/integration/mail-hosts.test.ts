/**
 * Issue 52, "one host for links" (decision 0062): a mail to a person links to the tenant's host they
 * last signed in on, or to the custom domain once a super admin marks it live, never to the host of
 * whoever caused the mail; a domain not yet live is named by no link and no canonical URL. And the
 * site's name in a mail is the site document's in the mail's own language, whatever page asked.
 */
import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTenantById } from '#db/tenants.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import type { ReceivedMail } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor } from '#tests/support/repository.ts'
import { addPerson } from '#tests/support/people.ts'

const SUBDOMAIN = 'acme.localhost'
const DOMAIN = 'learn.acme.test'
const PASSWORD = 'mail-hosts-secret-2026'

describe.each(DIALECTS)('the host and site name of mails on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	let n = 0
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
	})
	afterAll(() => stack?.close())

	/** A verified learner, signed in on `host` when given (their last host), else never signed in. */
	async function person(host: string | null, locale: 'en' | 'es' = 'en') {
		const email = `host-${dialect}-${++n}@acme.test`
		await addPerson(stack.db, {
			tenant_id: acmeId,
			email,
			name: `Host Person ${n}`,
			role: 'student',
			password: PASSWORD,
			locale,
		})
		if (host) await stack.signIn(email, host, PASSWORD)
		return email
	}
	const hostOf = (mail: ReceivedMail) => new URL(/https?:\/\/\S+/.exec(mail.text)![0]).hostname
	const canonical = async (host: string) =>
		load((await stack.browser(host).get('/learn')).text)('link[rel="canonical"]').attr('href')
	async function enroll(course: string, emails: string[], adminHost: string) {
		const admin = await stack.signIn('admin@acme.test', adminHost)
		const before = emails.map((e) => stack.mail.count(e))
		const res = await admin.post(`/admin/courses/${course}/enroll`, { intent: 'emails', emails: emails.join('\n') })
		expect(res.status).toBe(200)
		await stack.settled()
		return Promise.all(emails.map((e, i) => stack.mail.waitFor(e, before[i])))
	}
	const setLive = async (live: boolean) => {
		const root = await stack.signIn('root@platform.test', 'localhost')
		return root.post('/admin/tenants', { intent: 'domain', tenantId: acmeId, live: String(live) })
	}

	it('links to the host each learner last used, never to a custom domain that is not live', async () => {
		expect((await setLive(false)).status).toBe(302)
		expect(await canonical(DOMAIN)).toBe(`http://${SUBDOMAIN}:${stack.port}/learn`)
		const onDomain = await person(DOMAIN)
		const onSubdomain = await person(SUBDOMAIN)
		const never = await person(null)
		// The admin works on the domain that is not live: the mails must not follow them there.
		const mails = await enroll('intro-to-web', [onDomain, onSubdomain, never], DOMAIN)
		expect(mails.map(hostOf)).toEqual([DOMAIN, SUBDOMAIN, SUBDOMAIN])
	})

	it('links to the custom domain for everyone once it is marked live, audited, and back when it is not', async () => {
		const onSubdomain = await person(SUBDOMAIN)
		const never = await person(null)
		const marked = await setLive(true)
		expect(marked.status).toBe(302)
		expect(marked.headers.location).toContain('/admin/tenants')
		expect((await findTenantById(stack.db, acmeId))?.feature_flags_json).toMatchObject({ customDomainLive: true })
		expect(await canonical(SUBDOMAIN)).toBe(`http://${DOMAIN}:${stack.port}/learn`)
		const mails = await enroll('intro-to-web', [onSubdomain, never], SUBDOMAIN)
		expect(mails.map(hostOf)).toEqual([DOMAIN, DOMAIN])

		expect((await setLive(false)).status).toBe(302)
		const later = await person(null)
		expect((await enroll('intro-to-web', [later], DOMAIN)).map(hostOf)).toEqual([SUBDOMAIN])
		const audit = (await auditRowsFor(stack.db, acmeId, acmeId))
			.filter((r) => r.action === 'tenant.domain_live')
			.sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
		expect(audit.map((r) => (r.metadata as { to: boolean }).to)).toEqual([false, true, false])
		await setLive(true)
	})

	it('lets only a super admin mark a domain, by POST, for a tenant that has one', async () => {
		const before = (await findTenantById(stack.db, acmeId))?.feature_flags_json
		const admin = await stack.signIn('admin@acme.test', SUBDOMAIN)
		const byTenantAdmin = await admin.post('/admin/tenants', { intent: 'domain', tenantId: acmeId, live: 'false' })
		expect([403, 404]).toContain(byTenantAdmin.status)
		const root = await stack.signIn('root@platform.test', 'localhost')
		// GET changes nothing; a tenant without a custom domain is 404; a value other than true or false is 400.
		expect((await root.get(`/admin/tenants?intent=domain&tenantId=${acmeId}&live=false`)).status).toBe(200)
		const globex = stack.seeded.tenants.globex.id
		expect((await root.post('/admin/tenants', { intent: 'domain', tenantId: globex, live: 'true' })).status).toBe(404)
		expect((await root.post('/admin/tenants', { intent: 'domain', tenantId: 'nope', live: 'true' })).status).toBe(404)
		for (const live of ['yes', 'TRUE', '1', ''])
			expect((await root.post('/admin/tenants', { intent: 'domain', tenantId: acmeId, live })).status, live).toBe(400)
		expect((await findTenantById(stack.db, acmeId))?.feature_flags_json).toEqual(before)
		expect((await findTenantById(stack.db, globex))?.feature_flags_json).toEqual({ magicLink: false })
	})

	it("names the site in the mail's language, whatever language the page that asked was in", async () => {
		const spanish = await person(SUBDOMAIN, 'es')
		// Asked from the English pages: a reset link (their own request) and an enrollment (an admin's).
		expect((await stack.browser(SUBDOMAIN).post('/learn/forgot', { email: spanish })).status).toBe(302)
		await stack.settled()
		const reset = await stack.mail.waitFor(spanish)
		const [enrolled] = await enroll('advanced-css', [spanish], SUBDOMAIN)
		for (const mail of [reset, enrolled]) {
			expect(mail.subject).toMatch(/ · Academia Acme$/)
			expect(mail.text).toMatch(/— Academia Acme$/)
			expect(mail.text).not.toContain('Acme Academy')
		}
	})
})
