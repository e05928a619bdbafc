import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findUserByEmail, updateUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createInvitation } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/** The form's error region of a page. */
const errorsOf = (html: string) => /<div class="notice notice-error"[^>]*>(.*?)<\/div>/s.exec(html)?.[1] ?? null

describe.each(DIALECTS)('accounts on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
	})
	afterAll(() => stack?.close())

	const signIn = async (email: string, password = DEMO_PASSWORD, host = ACME, callbackUrl = '') => {
		const b = stack.browser(host)
		const res = await b.post('/learn/sign-in', { email, password, callbackUrl })
		return { b, res }
	}

	it('redirects a visitor from gated pages to sign-in with a callbackUrl', async () => {
		for (const path of ['/learn/dashboard', '/admin', '/learn/account']) {
			const res = await stack.request(ACME, path)
			expect(res.status).toBe(302)
			expect(res.headers.location).toBe(`/learn/sign-in?callbackUrl=${encodeURIComponent(path)}`)
		}
	})

	it('signs in with the tenant from the host and lands by role', async () => {
		const cases: Array<[string, string]> = [
			['learner@acme.test', '/learn/dashboard'],
			['admin@acme.test', '/admin'],
			['author@acme.test', '/admin/courses/intro-to-web/dashboard'],
		]
		for (const [email, landing] of cases) {
			const { res } = await signIn(email)
			expect(res.status, email).toBe(302)
			expect(res.headers.location).toBe(landing)
			const cookie = String(res.headers['set-cookie'])
			expect(cookie).toMatch(/^lms_session=/)
			expect(cookie).toMatch(/HttpOnly/)
			expect(cookie).toMatch(/SameSite=Lax/)
		}
		const { res } = await signIn('root@platform.test', DEMO_PASSWORD, 'localhost')
		expect(res.headers.location).toBe('/admin')
	})

	it('follows a same-origin callbackUrl and ignores absolute or protocol-relative ones', async () => {
		// (admin@acme.test: each account has ten sign-ins per 15 minutes from this one test IP)
		expect((await signIn('admin@acme.test', DEMO_PASSWORD, ACME, '/learn?x=1')).res.headers.location).toBe('/learn?x=1')
		for (const evil of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)']) {
			expect((await signIn('admin@acme.test', DEMO_PASSWORD, ACME, evil)).res.headers.location, evil).toBe('/admin')
		}
	})

	it('refuses each failing sign-in with a message on the form', async () => {
		const cases: Array<[string, string, string, number, string]> = [
			[ACME, 'learner@acme.test', 'wrong-password', 401, 'Email or password is incorrect.'],
			[ACME, 'nobody@acme.test', DEMO_PASSWORD, 401, 'Email or password is incorrect.'],
			[ACME, 'gone@acme.test', DEMO_PASSWORD, 403, 'This account has been deactivated.'],
			[ACME, 'root@platform.test', DEMO_PASSWORD, 403, 'This is a platform account.'],
			// the tenant comes from the host: a globex account does not exist on acme
			[ACME, 'learner@globex.test', DEMO_PASSWORD, 401, 'Email or password is incorrect.'],
			['localhost', 'admin@acme.test', DEMO_PASSWORD, 401, 'Email or password is incorrect.'],
		]
		for (const [host, email, password, status, message] of cases) {
			const { res } = await signIn(email, password, host)
			expect(res.status, email).toBe(status)
			expect(res.text).toContain(message)
			expect(res.headers['set-cookie']).toBeUndefined()
			expect(res.text).not.toContain(
				password === DEMO_PASSWORD ? 'value="demo-password-2026"' : 'value="wrong-password"',
			)
		}
		const { res } = await signIn('root@platform.test', DEMO_PASSWORD, ACME)
		expect(res.text).toContain(`href="${stack.env.AUTH_URL}/learn/sign-in"`)
	})

	it('refuses a user without a local password', async () => {
		const newbie = (await findUserByEmail(stack.db, acmeId, 'newbie@acme.test'))!
		const original = newbie.password_hash
		await updateUser(stack.db, newbie.id, { password_hash: dialect === 'pg' ? null : '' })
		try {
			// The answer of a wrong password (no account oracle), with a hint for whoever it is.
			const { res } = await signIn('newbie@acme.test')
			expect(res.status).toBe(401)
			expect(res.text).toContain('Email or password is incorrect.')
			expect(res.text).toContain('your account may have no password')
			const unknown = (await signIn('nobody-at-all@acme.test')).res
			expect(unknown.status).toBe(401)
			expect(errorsOf(unknown.text)).toEqual(errorsOf(res.text))
		} finally {
			await updateUser(stack.db, newbie.id, { password_hash: original })
		}
	})

	it('answers the 11th sign-in attempt for one email with 429 and Retry-After', async () => {
		const statuses: number[] = []
		let last
		for (let i = 0; i < 11; i++) {
			last = (await signIn('shared@example.test', `wrong-${i}`)).res
			statuses.push(last.status)
		}
		expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
		expect(statuses[10]).toBe(429)
		expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0)
		expect(last!.text).toContain('Too many attempts')
		// the limit is per IP and email: another account from the same IP still signs in
		expect((await signIn('learner@acme.test')).res.status).toBe(302)
	})

	it('rejects a live session on its next request after deactivation', async () => {
		const { b } = await signIn('newbie@acme.test')
		expect((await b.get('/learn/dashboard')).status).toBe(200)
		const newbie = (await findUserByEmail(stack.db, acmeId, 'newbie@acme.test'))!
		await updateUser(stack.db, newbie.id, { deactivated_at: new Date() }, { bumpTokenVersion: true })
		try {
			const res = await b.get('/learn/dashboard')
			expect(res.status).toBe(302)
			expect(res.headers.location).toMatch(/^\/learn\/sign-in/)
			expect(String(res.headers['set-cookie'])).toMatch(/lms_session=;/)
		} finally {
			await updateUser(stack.db, newbie.id, { deactivated_at: null })
		}
	})

	it('makes a session minted on one tenant worthless on another tenant and on the apex', async () => {
		const { b } = await signIn('shared@example.test')
		const cookie = b.cookieHeader()
		for (const host of ['globex.localhost', 'localhost']) {
			const res = await stack.request(host, '/learn/dashboard', { headers: { cookie } })
			expect(res.status, host).toBe(302)
			expect(res.headers.location).toMatch(/^\/learn\/sign-in/)
		}
	})

	it('signs out everywhere by bumping token_version', async () => {
		const first = (await signIn('learner@globex.test', DEMO_PASSWORD, 'globex.localhost')).b
		const second = (await signIn('learner@globex.test', DEMO_PASSWORD, 'globex.localhost')).b
		const res = await first.post('/learn/account', { intent: 'sign-out-everywhere' })
		expect(res.status).toBe(302)
		expect((await second.get('/learn/dashboard')).status).toBe(302)
		expect((await first.get('/learn/dashboard')).status).toBe(302)
	})

	it('shows the sign-out page only with a session, and signs out on post', async () => {
		expect((await stack.request(ACME, '/learn/sign-out')).headers.location).toBe('/')
		const { b } = await signIn('learner@acme.test')
		const page = await b.get('/learn/sign-out')
		expect(page.status).toBe(200)
		expect(page.text).toContain('href="/learn/dashboard"')
		const out = await b.post('/learn/sign-out', {})
		expect(out.headers.location).toBe('/?notice=signed-out')
		expect((await b.get('/learn/dashboard')).status).toBe(302)
	})

	// The session cookie's signature is checked once per distinct value (app/accounts/session.server.ts):
	// what was accepted must not let an altered value through, nor outlive the session behind it.
	it('refuses an altered session cookie after accepting its true value, and the true value once signed out', async () => {
		const { b } = await signIn('newbie@acme.test')
		const cookie = b.cookieHeader()
		const dashboard = (c: string) => stack.request(ACME, '/learn/dashboard', { headers: { cookie: c } })
		expect((await dashboard(cookie)).status).toBe(200)
		expect((await dashboard(cookie)).status).toBe(200)
		const value = /lms_session=([^;]+)/.exec(cookie)![1]
		const dot = value.lastIndexOf('.')
		const [payload, signature] = [value.slice(0, dot), value.slice(dot + 1)]
		// The first character of each part: every one of its bits counts (a base64 tail may not).
		const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1)
		for (const altered of [`${payload}.${flip(signature)}`, `${flip(payload)}.${signature}`, payload, `${payload}.`]) {
			expect((await dashboard(`lms_session=${altered}`)).status, altered).toBe(302)
		}
		expect((await b.post('/learn/sign-out', {})).headers.location).toBe('/?notice=signed-out')
		expect((await dashboard(cookie)).status).toBe(302)
	})

	it('refuses a cross-site form post', async () => {
		const res = await stack.request(ACME, '/learn/sign-in', {
			method: 'POST',
			body: 'email=learner%40acme.test&password=demo-password-2026',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://globex.localhost:${stack.port}` },
		})
		expect(res.status).toBe(403)
		expect(res.headers['set-cookie']).toBeUndefined()
	})

	it('signs up a student, sends a verification link, and verifies once', async () => {
		const b = stack.browser(ACME)
		const res = await b.post('/learn/sign-up', {
			name: 'Vera New',
			email: 'Vera@Acme.test',
			password: 'a-long-enough-secret',
		})
		// The page names the address it mailed (issue 40).
		expect(res.status).toBe(200)
		expect(res.text).toContain('We sent an email to <strong>vera@acme.test</strong>')
		// The account and its mail are made after the answer is sent.
		const link = linkIn(await stack.mail.waitFor('vera@acme.test'), '/learn/verify/')
		const user = (await findUserByEmail(stack.db, acmeId, 'vera@acme.test'))!
		expect(user).toMatchObject({ role: 'student', email_verified_at: null })
		// Opening the link asks and changes nothing; its button verifies (decision 0032).
		expect((await b.get(link)).status).toBe(200)
		expect((await findUserByEmail(stack.db, acmeId, 'vera@acme.test'))!.email_verified_at).toBeNull()
		const verified = await b.post(link, {})
		expect(verified.headers.location).toBe('/learn/dashboard?notice=email-confirmed')
		expect((await findUserByEmail(stack.db, acmeId, 'vera@acme.test'))!.email_verified_at).toBeInstanceOf(Date)
		const again = await stack.request(ACME, link)
		expect(again.status).toBe(200)
		expect(again.text).toContain('This link was already used')
	})

	it('validates sign-up fields beside each field', async () => {
		const res = await stack.browser(ACME).post('/learn/sign-up', { name: '', email: 'not-an-email', password: 'short' })
		expect(res.status).toBe(400)
		expect(res.text).toContain('Enter your name')
		expect(res.text).toContain('Enter a valid email address')
		expect(res.text).toContain('Use at least 8 characters')
		const common = await stack
			.browser(ACME)
			.post('/learn/sign-up', { name: 'X', email: 'x@acme.test', password: 'password123' })
		expect(common.text).toContain('This password is too common')
	})

	it('answers forgot-password identically and mails only eligible users', async () => {
		const known = await stack.browser(ACME).post('/learn/forgot', { email: 'learner@acme.test' })
		const unknown = await stack.browser(ACME).post('/learn/forgot', { email: 'nobody@acme.test' })
		expect(known.status).toBe(unknown.status)
		expect(known.headers.location).toBe(unknown.headers.location)
		const mail = await stack.mail.waitFor('learner@acme.test')
		const link = linkIn(mail, '/learn/reset/')
		expect(stack.mail.count('nobody@acme.test')).toBe(0)

		const { b: oldSession } = await signIn('learner@acme.test')
		const form = await stack.request(ACME, link)
		expect(form.text).toContain('Choose a new password')
		const b = stack.browser(ACME)
		const mismatch = await b.post(link, { password: 'brand-new-secret-1', confirm: 'other' })
		expect(mismatch.text).toContain('The two passwords do not match')
		const done = await b.post(link, { password: 'brand-new-secret-1', confirm: 'brand-new-secret-1' })
		expect(done.headers.location).toBe('/learn/dashboard')
		expect((await oldSession.get('/learn/dashboard')).status).toBe(302)
		expect((await signIn('learner@acme.test', 'brand-new-secret-1')).res.status).toBe(302)
		expect((await b.post(link, { password: 'x-another-secret', confirm: 'x-another-secret' })).text).toContain(
			'already used',
		)
		const learner = (await findUserByEmail(stack.db, acmeId, 'learner@acme.test'))!
		const { hashPassword } = await import('#app/accounts/password.server.ts')
		await updateUser(stack.db, learner.id, { password_hash: await hashPassword(DEMO_PASSWORD) })
	})

	it('signs in with a magic link once, and hides magic links where the flag is off', async () => {
		const b = stack.browser(ACME)
		expect((await b.post('/learn/magic', { email: 'author@acme.test' })).headers.location).toBe(
			'/learn/magic?notice=sent',
		)
		expect((await b.post('/learn/magic', { email: 'nobody@acme.test' })).headers.location).toBe(
			'/learn/magic?notice=sent',
		)
		const link = linkIn(await stack.mail.waitFor('author@acme.test'), '/learn/magic/')
		// Opening the link asks (a scanner or another site's redirect signs nobody in); the button signs in.
		const opened = await b.get(link)
		expect(opened.status).toBe(200)
		expect(opened.text).toContain('Continue as <strong>author@acme.test</strong>?')
		expect(b.jar.has('lms_session')).toBe(false)
		const res = await b.post(link, {})
		expect(res.headers.location).toBe('/admin/courses/intro-to-web/dashboard')
		expect((await stack.request(ACME, link)).text).toContain('already used')
		expect(stack.mail.count('nobody@acme.test')).toBe(0)

		const globex = stack.browser('globex.localhost')
		expect((await globex.get('/learn/magic')).headers.location).toBe('/learn/sign-in')
		expect((await globex.post('/learn/magic', { email: 'learner@globex.test' })).headers.location).toBe(
			'/learn/sign-in',
		)
		expect((await globex.get('/learn/sign-in')).text).not.toContain('/learn/magic')
		expect((await stack.request(ACME, '/learn/sign-in')).text).toContain('href="/learn/magic"')
	})

	it('changes email only when the confirm control is used, not when the link is opened', async () => {
		const { b } = await signIn('admin@acme.test')
		// An address another account uses gets the same answer (no account oracle); its link says so when used.
		const before = stack.mail.count('learner@acme.test')
		// A session alone cannot move the account: the current password is asked for.
		const wrong = await b.post('/learn/account', {
			intent: 'change-email',
			newEmail: 'boss@acme.test',
			currentPassword: 'not-it',
		})
		expect(wrong.status).toBe(400)
		expect(wrong.text).toContain('That is not your current password')
		expect(
			(
				await b.post('/learn/account', {
					intent: 'change-email',
					newEmail: 'learner@acme.test',
					currentPassword: DEMO_PASSWORD,
				})
			).headers.location,
		).toBe('/learn/account?notice=email-sent')
		const taken = linkIn(await stack.mail.waitFor('learner@acme.test', before), '/learn/account/email/')
		expect((await b.post(taken, {})).text).toContain('Another account already uses that address')
		expect(await findUserByEmail(stack.db, acmeId, 'admin@acme.test')).not.toBeNull()
		expect(
			(
				await b.post('/learn/account', {
					intent: 'change-email',
					newEmail: 'boss@acme.test',
					currentPassword: DEMO_PASSWORD,
				})
			).headers.location,
		).toBe('/learn/account?notice=email-sent')
		const link = linkIn(await stack.mail.waitFor('boss@acme.test'), '/learn/account/email/')
		const opened = await b.get(link)
		expect(opened.text).toContain('Confirm your new email address')
		await b.get(link)
		const admin = await findUserByEmail(stack.db, acmeId, 'admin@acme.test')
		expect(admin).not.toBeNull()
		const confirmed = await b.post(link, {})
		expect(confirmed.headers.location).toBe('/learn/account?notice=email-changed')
		expect(await findUserByEmail(stack.db, acmeId, 'admin@acme.test')).toBeNull()
		expect((await findUserByEmail(stack.db, acmeId, 'boss@acme.test'))!.id).toBe(admin!.id)
		expect((await b.get('/learn/account')).text).toContain('boss@acme.test')
		await updateUser(stack.db, admin!.id, { email: 'admin@acme.test' })
	})

	it('accepts an invitation once, creating the user with the role and course assignment', async () => {
		const { raw } = await createInvitation(stack, {
			tenantId: acmeId,
			email: 'teacher@acme.test',
			role: 'course_admin',
			courseSlug: 'intro-to-web',
			// Accepted only while its inviter may still grant it (decision 0032).
			invitedBy: (await findUserByEmail(stack.db, acmeId, 'admin@acme.test'))!.id,
		})
		const page = await stack.request(ACME, `/invite/${raw}`)
		expect(page.text).toContain('course admin')
		expect((await stack.request('globex.localhost', `/invite/${raw}`)).text).toContain(
			'This invitation is no longer valid',
		)
		const b = stack.browser(ACME)
		const res = await b.post(`/invite/${raw}`, { name: 'Tia Teacher', password: 'teaching-is-fun-1' })
		expect(res.headers.location).toBe('/admin/courses/intro-to-web/dashboard')
		const teacher = (await findUserByEmail(stack.db, acmeId, 'teacher@acme.test'))!
		expect(teacher.role).toBe('course_admin')
		expect((await stack.request(ACME, `/invite/${raw}`)).text).toContain('already used')
	})
})

describe('cross-site request check', () => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack('sqlite')
	})
	afterAll(() => stack?.close())

	const post = (headers: Record<string, string>) =>
		stack.request(ACME, '/learn/forgot', {
			method: 'POST',
			body: 'email=a%40acme.test',
			headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
		})

	it('accepts same-origin posts and posts from clients that are not browsers', async () => {
		expect((await post({ origin: `http://${ACME}:${stack.port}` })).status).toBe(302)
		expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(302)
		expect((await post({})).status).toBe(302)
		// A no-referrer page's own post: Chromium sends Origin null, Sec-Fetch-Site still says same-origin.
		expect((await post({ origin: 'null', 'sec-fetch-site': 'same-origin' })).status).toBe(302)
	})

	it('refuses posts from another site or another tenant', async () => {
		expect((await post({ origin: 'https://evil.test' })).status).toBe(403)
		expect((await post({ origin: `http://globex.localhost:${stack.port}` })).status).toBe(403)
		expect((await post({ origin: 'null', 'sec-fetch-site': 'cross-site' })).status).toBe(403)
		expect((await post({ 'sec-fetch-site': 'cross-site' })).status).toBe(403)
		expect((await post({ 'sec-fetch-site': 'same-site' })).status).toBe(403)
		expect((await post({ origin: 'null' })).status).toBe(403)
	})
})
