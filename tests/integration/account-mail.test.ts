import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findUserByEmail, findUserById } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor } from '#tests/support/repository.ts'
import { addPerson } from '#tests/support/people.ts'

// Issue 40: the mail that follows a password change and an address change (to the old address), read at the
// loopback SMTP sink, in the account's locale, with a reset link that takes the account back (decision 0041).
const ACME = 'acme.localhost'
const PASSWORD = 'first-long-secret-2026'

describe.each(DIALECTS)('account change notices on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	let n = 0
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
	})
	afterAll(() => stack?.close())

	const learner = async (locale: 'en' | 'de' | 'zh' | 'es' = 'en') => {
		const email = `notice-${dialect}-${++n}@acme.test`
		const user = await addPerson(stack.db, {
			tenant_id: acmeId,
			email,
			name: 'Notice Person',
			role: 'student',
			password: PASSWORD,
			locale,
		})
		return { user, email, b: await stack.signIn(email, ACME, PASSWORD) }
	}

	/** Sets a password through a mailed reset link; true when it signed the opener in. */
	const resetWith = async (link: string, password: string) => {
		const res = await stack.browser(ACME).post(link, { password, confirm: password })
		return res.status === 302
	}

	it('tells the account’s address of a password change, in its locale, with a reset link that works', async () => {
		const { user, email, b } = await learner('de')
		// The page is English; the mail follows the account's language.
		const res = await b.post('/learn/account', {
			intent: 'change-password',
			oldPassword: PASSWORD,
			newPassword: 'second-long-secret-2026',
		})
		expect(res.status).toBe(302)
		const mail = await stack.mail.waitFor(email)
		expect(mail.subject).toMatch(/^Ihr Passwort wurde geändert · /)
		expect(mail.html).toContain('lang="de"')
		expect(mail.text).toContain('Konto schützen: http')
		// Whoever did not change it takes the account back with the link: a third password, every session ended.
		const link = linkIn(mail, '/de/learn/reset/')
		expect(await resetWith(link, 'owner-takes-it-back-2026')).toBe(true)
		expect((await b.get('/learn/account')).status).toBe(302)
		expect(
			(await stack.browser(ACME).post('/learn/sign-in', { email, password: 'owner-takes-it-back-2026' })).status,
		).toBe(302)
		expect((await findUserById(stack.db, user.id))!.token_version).toBeGreaterThan(user.token_version + 1)
		// One mail for one change.
		await stack.settled()
		expect(stack.mail.count(email)).toBe(1)
	})

	it('sends nothing when the change is refused', async () => {
		const { email, b } = await learner()
		const res = await b.post('/learn/account', {
			intent: 'change-password',
			oldPassword: 'not-the-password-at-all',
			newPassword: 'second-long-secret-2026',
		})
		expect(res.status).toBe(400)
		await stack.settled()
		expect(stack.mail.count(email)).toBe(0)
	})

	it('tells the old address of a confirmed address change, with a reset link that still reaches the account', async () => {
		const { user, email, b } = await learner('zh')
		const newEmail = `moved-${dialect}-${n}@acme.test`
		expect(
			(await b.post('/learn/account', { intent: 'change-email', newEmail, currentPassword: PASSWORD })).status,
		).toBe(302)
		// Asking for the change tells the old address nothing yet: only the new one gets its link.
		const confirm = linkIn(await stack.mail.waitFor(newEmail), '/zh/learn/account/email/')
		await stack.settled()
		expect(stack.mail.count(email)).toBe(0)
		const done = await b.post(confirm, {})
		expect(done.status).toBe(302)
		const mail = await stack.mail.waitFor(email)
		expect(mail.subject).toMatch(/^您的电子邮件地址已更改 · /)
		expect(mail.text).toContain('此地址已无法再用于登录')
		// The new address is not written to the old mailbox.
		expect(mail.text).not.toContain(newEmail)
		// The old mailbox's link sets the password of the account, which now has the new address.
		expect(await resetWith(linkIn(mail, '/zh/learn/reset/'), 'owner-takes-it-back-2026')).toBe(true)
		expect(
			(await stack.browser(ACME).post('/learn/sign-in', { email: newEmail, password: 'owner-takes-it-back-2026' }))
				.status,
		).toBe(302)
		expect((await findUserById(stack.db, user.id))!.email).toBe(newEmail)
		// Nothing went to the new address but its confirmation link.
		expect(stack.mail.count(newEmail)).toBe(1)
	})

	it('marks unverified learners in the admin list and resends their link from it, audited and limited', async () => {
		const email = `unverified-${dialect}@acme.test`
		const user = await addPerson(stack.db, {
			tenant_id: acmeId,
			email,
			name: 'Una Verified',
			role: 'student',
			password: PASSWORD,
			locale: 'es',
			verified: false,
		})
		const admin = await stack.signIn('admin@acme.test')
		const list = await admin.get(`/admin/users?q=${encodeURIComponent(email)}`)
		expect(list.status).toBe(200)
		expect(list.text).toContain('badge badge-warn')
		expect(list.text).toContain('Resend the confirmation email to Una Verified')
		// A real form: its post names the intent and the account, nothing else.
		expect(list.text).toContain('<input type="hidden" name="intent" value="resend-verification"/>')
		expect(list.text).toContain(`<input type="hidden" name="userId" value="${user.id}"/>`)
		const res = await admin.post('/admin/users', { intent: 'resend-verification', userId: user.id })
		expect(res.status).toBe(302)
		expect(res.headers.location).toBe('/admin/users?notice=verification-sent')
		const mail = await stack.mail.waitFor(email)
		expect(mail.subject).toMatch(/^Confirma tu dirección de correo · /)
		expect(linkIn(mail, '/es/learn/verify/')).toMatch(/^\/es\/learn\/verify\/\S+$/)
		const rows = await auditRowsFor(stack.db, acmeId, user.id)
		expect(rows.filter((r) => r.action === 'user.verification_resent')).toHaveLength(1)
		// Three an hour per account (the learner's own resends count too): the fourth is refused and mails nothing.
		expect((await admin.post('/admin/users', { intent: 'resend-verification', userId: user.id })).status).toBe(302)
		expect((await admin.post('/admin/users', { intent: 'resend-verification', userId: user.id })).status).toBe(302)
		const limited = await admin.post('/admin/users', { intent: 'resend-verification', userId: user.id })
		expect(limited.status).toBe(429)
		await stack.settled()
		expect(stack.mail.count(email)).toBe(3)
		// On the apex the super admin resends for a user of a tenant: the link opens on that tenant's host,
		// its custom domain, which the demo marks live (decision 0062).
		const other = await addPerson(stack.db, {
			tenant_id: acmeId,
			email: `apex-resend-${dialect}@acme.test`,
			name: 'From The Apex',
			role: 'student',
			password: PASSWORD,
			verified: false,
		})
		const root = await stack.signIn('root@platform.test', 'localhost')
		expect((await root.post('/admin/users', { intent: 'resend-verification', userId: other.id })).status).toBe(302)
		const fromApex = await stack.mail.waitFor(other.email)
		expect(fromApex.text).toMatch(new RegExp(`http://learn\\.acme\\.test:${stack.port}/learn/verify/\\S+`))
		const opened = await stack.browser(ACME).get(linkIn(fromApex, '/learn/verify/'))
		expect(opened.text).toContain('Confirm and sign in')
		// A verified learner has no resend in the list, and a post for one is refused.
		const verified = await admin.get('/admin/users?q=learner%40acme.test')
		expect(verified.text).not.toContain('Resend the confirmation email')
		const learnerId = (await findUserByEmail(stack.db, acmeId, 'learner@acme.test'))!.id
		expect((await admin.post('/admin/users', { intent: 'resend-verification', userId: learnerId })).status).toBe(409)
	})

	it('names the address on the check-your-email page and sends it again, the same answer for any address', async () => {
		const fresh = `fresh-${dialect}@acme.test`
		const taken = `taken-${dialect}@acme.test`
		await addPerson(stack.db, {
			tenant_id: acmeId,
			email: taken,
			name: 'Already Here',
			role: 'student',
			password: PASSWORD,
			locale: 'fr',
		})
		const signUp = (email: string) =>
			stack.browser(ACME).post('/learn/sign-up', { name: 'New Person', email, password: 'another-long-secret' })
		const page = (res: { text: string }, email: string) =>
			res.text
				.replaceAll(email, 'EMAIL')
				.replace(/nonce="[^"]+"/g, 'nonce')
				.replace(/"_\d+":/g, '')
		const [a, b] = [await signUp(fresh), await signUp(taken)]
		expect([a.status, b.status]).toEqual([200, 200])
		expect(page(a, fresh)).toBe(page(b, taken))
		const $ = load(a.text)
		expect($('h1').text()).toBe('Check your email')
		expect($('main p strong').first().text()).toBe(fresh)
		// The resend is a real form: it posts the intent and the address, nothing else the visitor typed.
		const form = $('form[method="post"]').filter((_, el) => $(el).find('input[value="resend"]').length > 0)
		expect(
			form
				.find('input[type="hidden"]')
				.toArray()
				.map((el) => $(el).attr('name')),
		).toEqual(['intent', 'email', 'callbackUrl'])
		expect((await stack.mail.waitFor(fresh)).subject).toMatch(/^Confirm your email address · /)
		expect((await stack.mail.waitFor(taken)).subject).toMatch(/^Vous avez déjà un compte · /)

		const resend = (email: string) =>
			stack.browser(ACME).post('/learn/sign-up', { intent: 'resend', email, callbackUrl: '' })
		const [ra, rb] = [await resend(fresh), await resend(taken)]
		expect([ra.status, rb.status]).toEqual([200, 200])
		expect(page(ra, fresh)).toBe(page(rb, taken))
		expect(ra.text).toContain(`Sent again to <strong>${fresh}</strong>`)
		// An unconfirmed account gets a new confirmation link, a confirmed one the account-exists mail again.
		const again = await stack.mail.waitFor(fresh, 1)
		expect(again.subject).toMatch(/^Confirm your email address · /)
		expect(linkIn(again, '/learn/verify/')).toMatch(/^\/learn\/verify\/\S+$/)
		expect((await stack.mail.waitFor(taken, 1)).subject).toMatch(/^Vous avez déjà un compte · /)
		// Nobody has this address: the same answer, and no mail.
		const nobody = `nobody-${dialect}@acme.test`
		const rn = await resend(nobody)
		expect(page(rn, nobody)).toBe(page(ra, fresh))
		// Three an hour per address: the fourth is refused on the same page, and mails nothing.
		await resend(fresh)
		await resend(fresh)
		const limited = await resend(fresh)
		expect(limited.status).toBe(429)
		expect(load(limited.text)('main p strong').first().text()).toBe(fresh)
		await stack.settled()
		expect(stack.mail.count(fresh)).toBe(4)
		expect(stack.mail.count(nobody)).toBe(0)
	})
})
