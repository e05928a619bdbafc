// Issue 52, "Admin": names and languages of an onboarding CSV used in the invitations (decision
// 0065). The mail greets the invitee by the list's name, in the row's language; the acceptance page
// opens in it with the name filled in, and the account is made in it. A language cell that names no
// supported language is reported and not invited; hostile names are kept only when an account
// could have them (nameField), and are text wherever they are shown.
import { load } from 'cheerio'
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readLanguage } from '#app/admin/email-list.server.ts'
import { inviteeDetails } from '#db/invitations.ts'
import { findEnrollment } from '#db/learning.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { addPerson } from '#tests/support/people.ts'

const ACME = 'acme.localhost'
const PASSWORD = 'Language-Passphrase-42'

describe('readLanguage', () => {
	it('reads codes, tags and names of the supported languages; anything else is unknown', () => {
		expect(['es', 'ES', ' pt-BR ', 'zh_Hans', 'de-AT', 'Français', 'spanish', '中文'].map(readLanguage)).toEqual([
			'es',
			'es',
			'pt',
			'zh',
			'de',
			'fr',
			'es',
			'zh',
		])
		expect(readLanguage('')).toBeNull()
		for (const cell of ['klingon', 'it', 'e', 'es es', '<b>fr</b>']) expect(readLanguage(cell), cell).toBe('unknown')
	})
})

describe.each(DIALECTS)('names and languages of an onboarding list on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
	})
	afterAll(() => stack?.close())

	let n = 0
	async function freshAdmin(locale: 'en' | 'fr' = 'en') {
		const user = await addPerson(stack.db, {
			tenant_id: acme.id,
			email: `lang-admin-${++n}@acme.test`,
			name: `Admin ${n}`,
			role: 'tenant_admin',
			locale,
		})
		return stack.signIn(user.email, ACME)
	}
	const openInvitation = async (email: string) => {
		const i = stack.db.t.invitations
		const [row] = await stack.db.orm
			.select()
			.from(i)
			.where(and(eq(i.tenant_id, acme.id), eq(i.email, email), isNull(i.accepted_at)))
		return row ?? null
	}
	const outcomes = (html: string) => {
		const $ = load(html)
		return $('tr[data-outcome]')
			.toArray()
			.map((tr) => $(tr).attr('data-outcome'))
	}
	const upload = (admin: Awaited<ReturnType<typeof freshAdmin>>, path: string, csv: string) =>
		admin.postMultipart(path, { intent: 'csv' }, [{ field: 'file', name: 'people.csv', type: 'text/csv', body: csv }])

	it('greets each invitee by name in the row’s language; the page opens in it, filled in, and the account is made in it', async () => {
		// The admin works in French (their account's language is the page's).
		const admin = await freshAdmin('fr')
		const csv = [
			'email;name;role;course;language',
			'jose.lang@acme.test;José Núñez;student;intro-to-web;es',
			'ana.lang@acme.test;Ana Sousa;;;pt-BR',
			'kai.lang@acme.test;Kai Weber;;;Deutsch',
			'li.lang@acme.test;李雷;;;zh',
			'ed.lang@acme.test;Ed Smith;;;en',
			'paul.lang@acme.test;Paul Martin;;;',
			'kirk.lang@acme.test;James Kirk;;;klingon',
		].join('\r\n')
		// A row without a language is invited in the admin's page language.
		const res = await upload(admin, '/fr/admin/users/invite', csv)
		expect(res.status).toBe(200)
		expect(outcomes(res.text)).toEqual([
			'invited',
			'invited',
			'invited',
			'invited',
			'invited',
			'invited',
			'unknownLanguage',
		])
		expect(load(res.text)('tr[data-outcome="unknownLanguage"]').text()).toContain('Langue non prise en charge')
		expect(await openInvitation('kirk.lang@acme.test')).toBeNull()

		const expected = [
			['jose.lang@acme.test', 'Hola, José Núñez:', 'Te han invitado, con un curso', '/es/invite/'],
			['ana.lang@acme.test', 'Olá, Ana Sousa,', 'Recebeu um convite', '/pt/invite/'],
			['kai.lang@acme.test', 'Hallo Kai Weber,', 'Sie wurden eingeladen', '/de/invite/'],
			['li.lang@acme.test', '李雷，您好：', '您收到了一份邀请', '/zh/invite/'],
			['ed.lang@acme.test', 'Hello Ed Smith,', 'You are invited', '/invite/'],
			['paul.lang@acme.test', 'Bonjour Paul Martin,', 'Vous êtes invité', '/fr/invite/'],
		] as const
		for (const [email, greeting, subject, path] of expected) {
			const mail = await stack.mail.waitFor(email)
			expect(mail.text.startsWith(`${greeting}\n\n`), `${email}: ${mail.text}`).toBe(true)
			expect(mail.subject, email).toContain(subject)
			expect(load(mail.html)('p').eq(1).text()).toContain(greeting)
			// The link's page is in that language (English is unprefixed).
			expect(new URL(/https?:\/\/\S+\/invite\/\S+/.exec(mail.text)![0]).pathname.startsWith(path), email).toBe(true)
		}

		// José: the Spanish page, his name filled in; accepting makes a Spanish account enrolled in the course.
		const link = linkIn(await stack.mail.waitFor('jose.lang@acme.test'), '/es/invite/')
		const b = stack.browser(ACME)
		const page = load((await b.get(link)).text)
		expect(page('html').attr('lang')).toBe('es')
		expect(page('input[name="name"]').attr('value')).toBe('José Núñez')
		expect(page('main').text()).toContain('Introducción a la Web')
		expect((await b.post(link, { name: 'José Núñez', password: PASSWORD })).status).toBe(302)
		const jose = (await findUserByEmail(stack.db, acme.id, 'jose.lang@acme.test'))!
		expect([jose.name, jose.locale]).toEqual(['José Núñez', 'es'])
		expect((await findEnrollment(stack.db, { tenantId: acme.id, userId: jose.id }, 'intro-to-web'))?.status).toBe(
			'active',
		)
	})

	it('keeps a hostile name only when an account could have it, and shows it as text', async () => {
		const admin = await freshAdmin()
		const long = 'L'.repeat(101)
		const csv = [
			'email,name,language',
			'"markup.lang@acme.test","<img src=x onerror=alert(1)> {site}",en',
			`"bell.lang@acme.test","Bad\u0007Name",en`,
			`"rtl.lang@acme.test","Evil\u202eName",en`,
			`"long.lang@acme.test","${long}",en`,
		].join('\n')
		const res = await upload(admin, '/admin/users/invite', csv)
		expect(outcomes(res.text)).toEqual(['invited', 'invited', 'invited', 'invited'])

		const markup = await stack.mail.waitFor('markup.lang@acme.test')
		// A value, never a template: `{site}` stays as written; in HTML it is escaped text.
		expect(markup.text.startsWith('Hello <img src=x onerror=alert(1)> {site},\n\n')).toBe(true)
		expect(markup.html).not.toContain('<img src=x')
		expect(load(markup.html)('p').eq(1).text()).toContain('Hello <img src=x onerror=alert(1)> {site},')
		const link = linkIn(markup, '/invite/')
		const page = await stack.browser(ACME).get(link)
		expect(page.text).not.toContain('<img src=x')
		expect(load(page.text)('input[name="name"]').attr('value')).toBe('<img src=x onerror=alert(1)> {site}')

		// Control characters, direction overrides and more than 100 characters: not kept, no greeting.
		for (const email of ['bell.lang@acme.test', 'rtl.lang@acme.test', 'long.lang@acme.test']) {
			const row = (await openInvitation(email))!
			expect((await inviteeDetails(stack.db, acme.id, row.id)).name, email).toBeNull()
			const mail = await stack.mail.waitFor(email)
			expect(mail.text.startsWith('You have been invited'), email).toBe(true)
			expect(
				load((await stack.browser(ACME).get(linkIn(mail, '/invite/'))).text)('input[name="name"]').attr('value') ?? '',
			).toBe('')
		}
	})

	it('uses the enroll page’s name and language columns for the invitations it sends', async () => {
		const admin = await freshAdmin()
		const member = await addPerson(stack.db, {
			tenant_id: acme.id,
			email: 'member.lang@acme.test',
			name: 'Member',
			role: 'student',
		})
		const csv = [
			'language,email,name',
			'fr,claire.lang@acme.test,Claire Dubois',
			'xx,nope.lang@acme.test,Nobody',
			'de,member.lang@acme.test,Ignored',
		].join('\n')
		const res = await upload(admin, '/admin/courses/intro-to-web/enroll', csv)
		expect(res.status).toBe(200)
		expect(outcomes(res.text)).toEqual(['invited', 'unknownLanguage', 'enrolled'])
		expect(await openInvitation('nope.lang@acme.test')).toBeNull()
		const mail = await stack.mail.waitFor('claire.lang@acme.test')
		expect(mail.text.startsWith('Bonjour Claire Dubois,\n\n')).toBe(true)
		expect(mail.text).toContain('Introduction au Web')
		const page = load((await stack.browser(ACME).get(linkIn(mail, '/fr/invite/'))).text)
		expect([page('html').attr('lang'), page('input[name="name"]').attr('value')]).toEqual(['fr', 'Claire Dubois'])
		// A member is enrolled; the language cell changes nothing of their account.
		expect((await findUserByEmail(stack.db, acme.id, member.email))?.locale).toBe('en')
	})
})
