import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_CATALOGUES } from '#tests/support/email-catalogue.ts'
import { INVITATION_EMAILS } from '#app/accounts/invitation-emails.ts'
import { composeEmail } from '#app/platform/emails.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { LOCALES } from '#db/schema/values.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/** Every string of a catalogue, by its key path. */
function leaves(value: unknown, prefix = ''): Map<string, string> {
	const out = new Map<string, string>()
	if (typeof value === 'string') out.set(prefix, value)
	else
		for (const [k, v] of Object.entries(value as object))
			for (const [p, s] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, s)
	return out
}

// Words that are the same in the other language, not untranslated copy.
// An announcement's subject and body are course staff's own words around the course's title: no language of ours.
const SAME_AS_ENGLISH = new Set(['Link', '{message}', '{course}: {subject}'])

describe('email catalogues', () => {
	const english = leaves(EMAIL_CATALOGUES.en)

	it.each(LOCALES.filter((l) => l !== 'en'))('%s has every key, each non-empty and translated', (locale) => {
		const catalogue = leaves(EMAIL_CATALOGUES[locale])
		expect([...catalogue.keys()].sort()).toEqual([...english.keys()].sort())
		for (const [key, text] of catalogue) {
			expect(text.trim(), key).not.toBe('')
			if (!SAME_AS_ENGLISH.has(text)) expect(text, `${locale}.${key} is English`).not.toBe(english.get(key))
			// Placeholders survive translation.
			expect(text.match(/\{\w+\}/g)?.sort(), key).toEqual(
				english
					.get(key)!
					.match(/\{\w+\}/g)
					?.sort(),
			)
		}
	})

	it('composes HTML and plain text in the locale, escaping the site name', () => {
		const mail = composeEmail(INVITATION_EMAILS, {
			kind: 'invitation',
			to: 'a@b.test',
			locale: 'es',
			site: 'A <b> & Co',
			url: 'https://x.test/invite/t',
			role: 'course_admin',
		})
		expect(mail.subject).toBe('Tienes una invitación · A <b> & Co')
		expect(mail.text).toContain('Te han invitado a unirte a A <b> & Co como administrador de curso.')
		expect(mail.text).toContain('Aceptar la invitación: https://x.test/invite/t')
		expect(mail.html).toContain('<html lang="es">')
		expect(mail.html).toContain('A &#60;b&#62; &#38; Co')
		expect(mail.html).not.toContain('<b>')
	})
})

describe.each(DIALECTS)('email delivery and enumeration on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
		passwordHash = await hashPassword('a-good-long-secret')
	})
	afterAll(() => stack?.close())

	const addUser = (email: string, locale: (typeof LOCALES)[number] = 'en') =>
		createUser(stack.db, {
			tenant_id: acmeId,
			email,
			name: 'Mail Person',
			role: 'student',
			password_hash: passwordHash,
			locale,
			email_verified_at: new Date(),
		})

	it("mails in the user's locale", async () => {
		await addUser('de@acme.test', 'de')
		await addUser('zh@acme.test', 'zh')
		await stack.browser(ACME).post('/learn/forgot', { email: 'de@acme.test' })
		const reset = await stack.mail.waitFor('de@acme.test')
		expect(reset.subject).toMatch(/^Setzen Sie Ihr Passwort zurück · /)
		expect(reset.html).toContain('lang="de"')
		// The link opens the page in the language of the email.
		const resetLink = linkIn(reset, '/de/learn/reset/')
		expect(resetLink).toMatch(/^\/de\/learn\/reset\/\S+$/)
		const resetPage = await stack.request(ACME, resetLink)
		expect(resetPage.status).toBe(200)
		expect(resetPage.text).toContain('<html lang="de"')

		await stack.browser(ACME).post('/learn/magic', { email: 'zh@acme.test' })
		const magic = await stack.mail.waitFor('zh@acme.test')
		expect(magic.subject).toMatch(/^您的登录链接 · /)
		expect(magic.text).toContain('登录: http')

		// A sign-up with the address of an account: its owner is told in their language, whatever the page's.
		await stack
			.browser(ACME)
			.post('/es/learn/sign-up', { name: 'X', email: 'de@acme.test', password: 'a-long-password-1' })
		const exists = await stack.mail.waitFor('de@acme.test', 1)
		expect(exists.subject).toMatch(/^Sie haben bereits ein Konto · /)
		expect(linkIn(exists, '/de/learn/sign-')).toBe('/de/learn/sign-in')
		expect(exists.text).toContain('/de/learn/forgot')
	})

	/**
	 * Forgot-password, magic-link and sign-up requests for existing and unknown
	 * addresses, interleaved: the same status, location, body and cookies, and
	 * the mail each case leaves. Whether their times (and the requests after
	 * them) tell the cases apart is measured in tests/hostile/enumeration.test.ts,
	 * alone on the machine; here, two files run at a time and timing means little.
	 */
	it.each([
		['/learn/forgot', 'forgot'],
		['/learn/magic', 'magic'],
		['/learn/sign-up', 'sign-up'],
	])('answers %s identically whether or not the account exists', async (path, tag) => {
		const runs = 5
		for (let i = 0; i < runs; i++) await addUser(`${tag}-known-${i}@acme.test`)
		const answers = new Set<string>()
		const send = async (email: string) => {
			const res = await stack
				.browser(ACME)
				.post(path, tag === 'sign-up' ? { name: 'Mail Person', email, password: 'another-long-secret' } : { email })
			// The sign-up answer names the address it mailed (issue 40): the same page but for that address.
			const text = res.text
				.replaceAll(email, 'EMAIL')
				.replace(/nonce="[^"]+"/g, 'nonce')
				.replace(/"_\d+":/g, '')
			answers.add(JSON.stringify([res.status, res.headers.location, text, res.headers['set-cookie'] ?? null]))
		}
		for (let i = 0; i < runs; i++) {
			await send(`${tag}-known-${i}@acme.test`)
			await send(`${tag}-nobody-${i}@acme.test`)
		}
		expect(answers.size).toBe(1)
		if (tag === 'sign-up') {
			// The new addresses got an account and a confirmation link; the owners of the existing ones are
			// told someone tried, with a sign-in link and the way to a new password (issue 40).
			const created = await stack.mail.waitFor(`${tag}-nobody-${runs - 1}@acme.test`)
			expect(created.subject).toMatch(/^Confirm your email address · /)
			expect(linkIn(created, '/learn/verify/')).toMatch(/^\/learn\/verify\/\S+$/)
			const exists = await stack.mail.waitFor(`${tag}-known-0@acme.test`)
			expect(exists.subject).toMatch(/^You already have an account · /)
			expect(linkIn(exists, '/learn/sign-')).toBe('/learn/sign-in')
			// On the owner's host: the demo's custom domain, marked live (decision 0062).
			expect(exists.text).toMatch(/choose a new one here: http:\/\/learn\.acme\.test:\d+\/learn\/forgot\b/)
			expect(exists.text).not.toMatch(/\/learn\/(verify|reset|magic)\//)
		} else {
			await stack.mail.waitFor(`${tag}-known-${runs - 1}@acme.test`)
			expect(stack.mail.count(`${tag}-nobody-0@acme.test`)).toBe(0)
		}
	})
})
