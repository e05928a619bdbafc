import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyPassword } from '#app/accounts/password.server.ts'
import { findUserByEmail, updateUser } from '#db/users.ts'
import { auditLogRows } from '#tests/support/audit-log.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, createUser } from '#tests/support/repository.ts'
import { signedInPerson } from '#tests/support/people.ts'

// Issue 24: the account page's own changes (password, name, a new confirmation link) and sign-up's callbackUrl.
const ACME = 'acme.localhost'
const PASSWORD = 'first-long-secret-2026'
const COURSE = '/learn/course/intro-to-web'

describe.each(DIALECTS)('account self-service on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	let n = 0
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
	})
	afterAll(() => stack?.close())

	/** A fresh learner (each test its own, so that per-user limits do not meet), signed in on one browser. */
	const learner = async (options: { password?: boolean; verified?: boolean } = {}) => {
		const email = `self-${dialect}-${++n}@acme.test`
		const person = { tenant_id: acmeId, email, name: 'Self Service', role: 'student' as const }
		const { user, b } =
			options.password === false
				? {
						user: await createUser(stack.db, {
							...person,
							password_hash: dialect === 'pg' ? null : '',
							email_verified_at: new Date(),
						}),
						b: stack.browser(ACME),
					}
				: await signedInPerson(stack, { ...person, password: PASSWORD }, ACME)
		// Sign-in refuses an unconfirmed address, so a signed-in unconfirmed learner has a session from before.
		if (options.verified === false) await updateUser(stack.db, user.id, { email_verified_at: null })
		return { user, email, b }
	}

	const changePassword = (b: ReturnType<Stack['browser']>, oldPassword: string, newPassword: string) =>
		b.post('/learn/account', { intent: 'change-password', oldPassword, newPassword })

	it('changes the password, bumps token_version, ends other sessions and keeps this one', async () => {
		const { user, email, b } = await learner()
		const other = stack.browser(ACME)
		expect((await other.post('/learn/sign-in', { email, password: PASSWORD })).status).toBe(302)
		const res = await changePassword(b, PASSWORD, 'second-long-secret-2026')
		expect(res.status).toBe(302)
		expect(res.headers.location).toBe('/learn/account?notice=password-changed')
		const after = (await findUserByEmail(stack.db, acmeId, email))!
		expect(after.token_version).toBe(user.token_version + 1)
		expect(await verifyPassword('second-long-secret-2026', after.password_hash!)).toBe(true)
		// this device: a new session under the new token_version, and the acknowledgement
		const page = await b.get(String(res.headers.location))
		expect(page.status).toBe(200)
		expect(page.text).toContain('Your password was changed.')
		// the other device is signed out
		expect((await other.get('/learn/dashboard')).status).toBe(302)
		const rows = await auditRowsFor(stack.db, acmeId, user.id)
		expect(rows.map((r) => r.action)).toContain('account.password.changed')
		// the old password no longer signs in, the new one does
		expect((await stack.browser(ACME).post('/learn/sign-in', { email, password: PASSWORD })).status).toBe(401)
		expect(
			(await stack.browser(ACME).post('/learn/sign-in', { email, password: 'second-long-secret-2026' })).status,
		).toBe(302)
	})

	it('retires reset links mailed before a password change', async () => {
		const { email, b } = await learner()
		expect((await stack.browser(ACME).post('/learn/forgot', { email })).status).toBe(302)
		const reset = linkIn(await stack.mail.waitFor(email), '/learn/reset/')
		expect((await changePassword(b, PASSWORD, 'third-long-secret-2026')).status).toBe(302)
		// The link mailed before the change no longer sets a password.
		const res = await stack
			.browser(ACME)
			.post(reset, { password: 'attacker-long-secret-2026', confirm: 'attacker-long-secret-2026' })
		expect(res.status).not.toBe(302)
		expect(
			(await stack.browser(ACME).post('/learn/sign-in', { email, password: 'attacker-long-secret-2026' })).status,
		).toBe(401)
		expect(
			(await stack.browser(ACME).post('/learn/sign-in', { email, password: 'third-long-secret-2026' })).status,
		).toBe(302)
	})

	it('refuses a wrong current password and a weak new one, changing nothing', async () => {
		const { user, email, b } = await learner()
		const wrong = await changePassword(b, 'not-my-password', 'second-long-secret-2026')
		expect(wrong.status).toBe(400)
		expect(wrong.text).toContain('That is not your current password')
		expect(wrong.text).not.toContain('second-long-secret-2026')
		const weak = await changePassword(b, PASSWORD, 'password123')
		expect(weak.status).toBe(400)
		expect(weak.text).toContain('This password is too common')
		const short = await changePassword(b, PASSWORD, 'short')
		expect(short.text).toContain('Use at least 8 characters')
		const after = (await findUserByEmail(stack.db, acmeId, email))!
		expect(after.token_version).toBe(user.token_version)
		expect(after.password_hash).toBe(user.password_hash)
		expect((await b.get('/learn/dashboard')).status).toBe(200)
	})

	it('answers the 11th password-change attempt of one user with 429', async () => {
		const { b } = await learner()
		const statuses: number[] = []
		for (let i = 0; i < 11; i++)
			statuses.push((await changePassword(b, `wrong-${i}`, 'second-long-secret-2026')).status)
		expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true)
		expect(statuses[10]).toBe(429)
		// even the right password waits now
		const last = await changePassword(b, PASSWORD, 'second-long-secret-2026')
		expect(last.status).toBe(429)
		expect(Number(last.headers['retry-after'])).toBeGreaterThan(0)
		expect(last.text).toContain('Too many attempts')
	})

	it('tells an account without a local password why it cannot change one', async () => {
		const { user } = await learner({ password: false })
		// Signed in through an emailed link: the account page shows why, and the action refuses too.
		const b = stack.browser(ACME)
		const { issueToken } = await import('#app/accounts/tokens.server.ts')
		const token = await issueToken(stack.db, user.id, 'magic_link')
		expect((await b.post(`/learn/magic/${token}`, {})).status).toBe(302)
		const page = await b.get('/learn/account')
		expect(page.text).toContain('this account has no password to change')
		expect(page.text).not.toContain('name="oldPassword"')
		const res = await changePassword(b, '', 'second-long-secret-2026')
		expect(res.status).toBe(400)
		const refused = await changePassword(b, 'anything', 'second-long-secret-2026')
		expect(refused.status).toBe(409)
		expect(refused.text).toContain('this account has no password to change')
	})

	it('saves a trimmed display name and refuses hostile or empty ones', async () => {
		const { email, b } = await learner()
		const res = await b.post('/learn/account', { intent: 'name', name: '  Ada <b>Lovelace</b>  ' })
		expect(res.headers.location).toBe('/learn/account?notice=name-saved')
		expect((await findUserByEmail(stack.db, acmeId, email))!.name).toBe('Ada <b>Lovelace</b>')
		const page = await b.get(String(res.headers.location))
		expect(page.text).toContain('Name saved.')
		expect(page.text).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt;')
		// the session's claims keep the name it was minted with: the dashboard reads the stored one
		expect((await b.get('/learn/dashboard')).text).toContain('Welcome, Ada &lt;b&gt;Lovelace&lt;/b&gt;')
		for (const [name, message] of [
			['   ', 'Enter your name'],
			['x'.repeat(101), 'at most 100'],
			['\u202egnp.exe', 'control'],
			['a\u0000b', 'control'],
		]) {
			const bad = await b.post('/learn/account', { intent: 'name', name })
			expect(bad.status, JSON.stringify(name)).toBe(400)
			expect(bad.text.toLowerCase()).toContain(message.toLowerCase())
		}
		expect((await findUserByEmail(stack.db, acmeId, email))!.name).toBe('Ada <b>Lovelace</b>')
	})

	it('audits a display-name change with the names before and after, and only a change', async () => {
		const { user, b } = await learner()
		expect((await b.post('/learn/account', { intent: 'name', name: 'Ada <b>Lovelace</b>' })).status).toBe(302)
		// The same name again changes nothing and records nothing.
		expect((await b.post('/learn/account', { intent: 'name', name: ' Ada <b>Lovelace</b> ' })).status).toBe(302)
		const rows = (await auditRowsFor(stack.db, acmeId, user.id)).filter((r) => r.action === 'account.name.changed')
		expect(rows.map((r) => [r.actor_user_id, r.target_kind, r.tenant_id, r.metadata])).toEqual([
			[user.id, 'user', acmeId, { from: 'Self Service', to: 'Ada <b>Lovelace</b>' }],
		])
	})

	it('answers the 11th display-name change of one user within the hour with 429, malformed posts counted', async () => {
		const { email, b } = await learner()
		const statuses: number[] = []
		for (let i = 0; i < 9; i++)
			statuses.push((await b.post('/learn/account', { intent: 'name', name: `Name ${i}` })).status)
		statuses.push((await b.post('/learn/account', { intent: 'name', name: '   ' })).status)
		expect(statuses).toEqual([...Array(9).fill(302), 400])
		const limited = await b.post('/learn/account', { intent: 'name', name: 'One more' })
		expect(limited.status).toBe(429)
		expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
		expect(limited.text).toContain('Too many attempts')
		expect((await findUserByEmail(stack.db, acmeId, email))!.name).toBe('Name 8')
		// Another learner's name form is not held up.
		const other = await learner()
		expect((await other.b.post('/learn/account', { intent: 'name', name: 'Free' })).status).toBe(302)
	})

	it('reminds an unverified learner and mails a new link, limited per user and audited', async () => {
		const { user, email, b } = await learner({ verified: false })
		for (const path of ['/learn/dashboard', '/learn/account']) {
			const page = await b.get(path)
			expect(page.text, path).toContain('Your email address is not confirmed yet.')
			expect(page.text).toContain('value="resend-verification"')
		}
		const res = await b.post('/learn/account', { intent: 'resend-verification' })
		expect(res.headers.location).toBe('/learn/account?notice=verification-sent')
		const link = linkIn(await stack.mail.waitFor(email), '/learn/verify/')
		expect((await b.post('/learn/account', { intent: 'resend-verification' })).status).toBe(302)
		expect((await b.post('/learn/account', { intent: 'resend-verification' })).status).toBe(302)
		const fourth = await b.post('/learn/account', { intent: 'resend-verification' })
		expect(fourth.status).toBe(429)
		expect(fourth.text).toContain('Too many attempts')
		await stack.mail.waitFor(email, 2)
		// Each link sent is audited as the learner's own request (the refused fourth is not).
		const resent = async () =>
			(await auditRowsFor(stack.db, acmeId, user.id))
				.filter((r) => r.action === 'account.verification.resent')
				.map((r) => [r.actor_user_id, r.target_kind, r.metadata])
		expect(await resent()).toEqual(Array(3).fill([user.id, 'user', {}]))
		// the link asks, and its button confirms the address (decision 0032); the reminder is gone
		expect((await b.get(link)).status).toBe(200)
		const verified = await b.post(link, {})
		expect(verified.headers.location).toBe('/learn/dashboard?notice=email-confirmed')
		const dashboard = await b.get(String(verified.headers.location))
		expect(dashboard.text).toContain('Your email address is confirmed.')
		expect(dashboard.text).not.toContain('value="resend-verification"')
	})

	it('shows the learner’s own changes to an admin in words', async () => {
		const { user, email, b } = await learner({ verified: false })
		expect((await b.post('/learn/account', { intent: 'name', name: 'Renamed <i>Learner</i>' })).status).toBe(302)
		expect((await b.post('/learn/account', { intent: 'resend-verification' })).status).toBe(302)
		const admin = stack.browser(ACME)
		expect((await admin.post('/learn/sign-in', { email: 'admin@acme.test', password: DEMO_PASSWORD })).status).toBe(302)
		const rows = auditLogRows((await admin.get(`/admin/audit?action=account.&actor=${encodeURIComponent(email)}`)).text)
		const who = `Renamed <i>Learner</i> <${email}>`
		expect(rows.map((r) => [r.action, r.actor, r.target, r.details]).sort()).toEqual([
			[
				'Display name changed account.name.changed',
				who,
				`User ${who}`,
				{ From: 'Self Service', To: 'Renamed <i>Learner</i>' },
			],
			['New confirmation link requested account.verification.resent', who, `User ${who}`, {}],
		])
		// A confirmed learner's post is refused and records nothing.
		const confirmed = await learner()
		expect((await confirmed.b.post('/learn/account', { intent: 'resend-verification' })).status).toBe(409)
		expect((await auditRowsFor(stack.db, acmeId, confirmed.user.id)).map((r) => r.action)).toEqual([])
		expect(user.name).toBe('Self Service')
	})

	it('keeps a same-origin callbackUrl through sign-up and the emailed link, and refuses an off-site one', async () => {
		const b = stack.browser(ACME)
		const form = await b.get(`/learn/sign-up?callbackUrl=${encodeURIComponent(COURSE)}`)
		expect(form.text).toContain(`name="callbackUrl" value="${COURSE}"`)
		const email = `callback-${dialect}@acme.test`
		const res = await b.post('/learn/sign-up', {
			name: 'Cal Back',
			email,
			password: 'a-long-enough-secret',
			callbackUrl: COURSE,
		})
		// after signing up the page says to check the mail, without the form again (its answer, naming the address)
		expect(res.status).toBe(200)
		const done = res
		expect(done.text).toContain('Check your email')
		expect(done.text).not.toContain('name="password"')
		// Its resend keeps where the learner was going.
		expect(done.text).toContain(`name="callbackUrl" value="${COURSE}"`)
		const link = linkIn(await stack.mail.waitFor(email), '/learn/verify/')
		expect(link).toContain(`callbackUrl=${encodeURIComponent(COURSE)}`)
		// the page asks; its button posts to the same URL, callbackUrl and all
		expect((await b.get(link)).text).toContain(`action="${link.replace('&', '&amp;')}"`)
		const verified = await b.post(link, {})
		expect(verified.headers.location).toBe(`${COURSE}?notice=email-confirmed`)
		const landing = await b.get(String(verified.headers.location))
		expect(landing.text).toContain('Your email address is confirmed.')
		// a second click, signed in and verified: already confirmed, with a way on
		const again = await b.get(link)
		expect(again.status).toBe(200)
		expect(again.text).toContain('Your email address is already confirmed.')
		expect(/<a class="button" href="([^"]*)">Continue<\/a>/.exec(again.text)?.[1]).toBe(COURSE)
		// the way on is checked too: an edited link's off-site callbackUrl becomes the role landing
		const edited = await b.get(`${link.split('?')[0]}?callbackUrl=${encodeURIComponent('//evil.test/x')}`)
		expect(edited.text).toContain('Your email address is already confirmed.')
		expect(/<a class="button" href="([^"]*)">Continue<\/a>/.exec(edited.text)?.[1]).toBe('/learn/dashboard')
		// signed out, the same link is a used link
		expect((await stack.request(ACME, link)).text).toContain('This link was already used')

		for (const evil of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)']) {
			const address = `evil-${dialect}-${++n}@acme.test`
			await stack
				.browser(ACME)
				.post('/learn/sign-up', { name: 'E', email: address, password: 'a-long-enough-secret', callbackUrl: evil })
			const mailed = linkIn(await stack.mail.waitFor(address), '/learn/verify/')
			expect(mailed, evil).not.toContain('callbackUrl')
			// and a link edited by hand to carry one does not follow it
			const tampered = await stack.browser(ACME).post(`${mailed}?callbackUrl=${encodeURIComponent(evil)}`, {})
			expect(tampered.headers.location, evil).toBe('/learn/dashboard?notice=email-confirmed')
		}
	})

	it('says so on the page sign-out lands on', async () => {
		const { b } = await learner()
		const out = await b.post('/learn/sign-out', {})
		expect(out.headers.location).toBe('/?notice=signed-out')
		expect((await b.get('/?notice=signed-out')).text).toContain('You have been signed out.')
	})
})
