// Issue 40, "Onboarding at scale", "Seats in paid courses", "Spreadsheets as people have them"
// (decision 0040): one open invitation per address and tenant, invitations that carry course
// enrollments, invitation lists and CSV files with a per-row report, enrollment of people without
// an account, the enrolled learner's mail, seats in paid courses, and CSV as spreadsheets write it.
import { readFileSync } from 'node:fs'
import { load } from 'cheerio'
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { inviteeDetails } from '#db/invitations.ts'
import { newId } from '#db/ids.ts'
import { assignCourseAdmin, findEnrollment, removeCourseAssignmentsSteps } from '#db/learning.ts'
import type { Tenant } from '#db/tenants.ts'
import { runSteps } from '#db/transaction.ts'
import { findUserByEmail } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const INVITE = '/admin/users/invite'
const ENROLL = '/admin/courses/intro-to-web/enroll'
const PAID = '/admin/courses/advanced-css/enroll'
const PASSWORD = 'Onboarding-Passphrase-42'
const fixture = (name: string) => readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url))

describe.each(DIALECTS)('onboarding at scale on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globex: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globex = stack.seeded.tenants.globex
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	let n = 0
	async function newUser(role: 'student' | 'course_admin' | 'tenant_admin', extra: { locale?: 'fr' } = {}) {
		return createUser(stack.db, {
			tenant_id: acme.id,
			email: `onboard-${++n}@acme.test`,
			name: `Onboarded ${n}`,
			role,
			password_hash: passwordHash,
			email_verified_at: new Date(),
			...extra,
		})
	}
	const signIn = (email: string, host = ACME) => stack.signIn(email, host)
	// Each test signs in an admin of its own: the adminMutation limit counts per admin.
	const freshAdmin = async () => {
		const u = await newUser('tenant_admin')
		return { user: u, browser: await signIn(u.email) }
	}
	const inv = () => stack.db.t.invitations
	const openInvitations = (email: string, tenant = acme) =>
		stack.db.orm
			.select()
			.from(inv())
			.where(and(eq(inv().tenant_id, tenant.id), eq(inv().email, email), isNull(inv().accepted_at)))
	const carried = async (invitationId: string) => {
		const c = stack.db.t.invitation_courses
		return (await stack.db.orm.select().from(c).where(eq(c.invitation_id, invitationId))).map((r) => r.course_slug)
	}
	/** The report table's rows: the row number, what was given (after the result) and the outcome code. */
	function report(html: string) {
		const $ = load(html)
		return $('tr[data-outcome]')
			.toArray()
			.map((tr) => ({
				row: $(tr).find('td').eq(0).text(),
				given: $(tr).find('td').eq(2).text(),
				outcome: $(tr).attr('data-outcome'),
			}))
	}
	const fieldError = (html: string) => load(html)('.field-error').text()
	/** Accepts the invitation mailed to `email` (after `since` mails) as a new person; their browser. */
	async function accept(email: string, since = 0, name = 'New Person') {
		const link = linkIn(await stack.mail.waitFor(email, since), '/invite/')
		const b = stack.browser(ACME)
		const page = await b.get(link)
		expect(page.status).toBe(200)
		const res = await b.post(link, { name, password: PASSWORD })
		expect(res.status).toBe(302)
		return { browser: b, page: page.text, link }
	}

	describe('one open invitation per address and tenant', () => {
		it('refreshes the open invitation when invited again: one row, a new link, the old one dead, both mailed', async () => {
			const { browser: admin } = await freshAdmin()
			const email = 'twice@acme.test'
			const first = await admin.post(INVITE, { email, role: 'student' })
			expect(first.headers.location).toMatch(/notice=invitation-sent&/)
			const oldLink = linkIn(await stack.mail.waitFor(email, 0), '/invite/')
			const [before] = await openInvitations(email)

			const second = await admin.post(INVITE, { email: ' TWICE@acme.test ', role: 'student' })
			expect(second.status).toBe(302)
			expect(second.headers.location).toMatch(/notice=invitation-refreshed&/)
			const page = load((await admin.get(String(second.headers.location))).text)
			expect(page('.notice, [role="status"]').text()).toContain(`An invitation to ${email} was already waiting`)
			const newLink = linkIn(await stack.mail.waitFor(email, 1), '/invite/')
			expect(newLink).not.toBe(oldLink)
			const rows = await openInvitations(email)
			expect(rows).toHaveLength(1)
			expect(rows[0].id).toBe(before.id)
			expect(rows[0].token_hash).not.toBe(before.token_hash)
			expect(rows[0].expires_at.getTime()).toBeGreaterThanOrEqual(before.expires_at.getTime())
			expect((await stack.browser(ACME).get(oldLink)).text).toContain('This invitation is no longer valid')
			expect((await auditRowsFor(stack.db, acme.id, before.id)).map((r) => r.action).sort()).toEqual([
				'invitation.refreshed',
				'invitation.sent',
			])

			// Concurrent invitations of one new address: still one open row (the unique index decides).
			const raced = 'raced@acme.test'
			const answers = await Promise.all(
				Array.from({ length: 6 }, () => admin.post(INVITE, { email: raced, role: 'student' })),
			)
			expect(answers.map((r) => r.status)).toEqual(Array(6).fill(302))
			expect(await openInvitations(raced)).toHaveLength(1)
		})

		it('is enforced by the database: a second open row for the address is refused, an accepted one is not', async () => {
			const email = 'index@acme.test'
			const row = (tokenHash: string, acceptedAt: Date | null = null) => ({
				id: newId(),
				tenant_id: acme.id,
				email,
				role: 'student' as const,
				token_hash: tokenHash,
				invited_by: null,
				expires_at: new Date(Date.now() + 60_000),
				accepted_at: acceptedAt,
			})
			await stack.db.orm.insert(inv()).values(row(`idx-a-${dialect}`))
			await expect(stack.db.orm.insert(inv()).values(row(`idx-b-${dialect}`))).rejects.toThrow()
			await stack.db.orm.insert(inv()).values(row(`idx-c-${dialect}`, new Date()))
			// Another tenant's open invitation of the same address is its own.
			await stack.db.orm.insert(inv()).values({ ...row(`idx-d-${dialect}`), tenant_id: globex.id })
		})

		it('leaves the pending list on acceptance, and then answers honestly that the address is a member', async () => {
			const { browser: admin } = await freshAdmin()
			const email = 'joins@acme.test'
			await admin.post(INVITE, { email, role: 'student' })
			await admin.post(INVITE, { email, role: 'student' })
			await accept(email, 1)
			expect(await openInvitations(email)).toHaveLength(0)
			expect((await admin.get('/admin/users/invitations')).text).not.toContain(email)

			const sent = stack.mail.count(email)
			const again = await admin.post(INVITE, { email, role: 'student' })
			expect(again.status).toBe(409)
			expect(fieldError(again.text)).toContain('already has an account here')
			await stack.settled()
			expect(stack.mail.count(email)).toBe(sent)
			expect(await openInvitations(email)).toHaveLength(0)
		})

		it('invites a member only to something new: a learner as a learner gets no mail about a new role', async () => {
			const { browser: admin } = await freshAdmin()
			const member = await newUser('student')
			const asLearner = await admin.post(INVITE, { email: member.email, role: 'student' })
			expect(asLearner.status).toBe(409)
			const courseAdmin = await newUser('course_admin')
			// A course they already administer: nothing new either.
			await assignCourseAdmin(stack.db, { tenantId: acme.id, userId: courseAdmin.id }, 'advanced-css', null)
			const same = await admin.post(INVITE, {
				email: courseAdmin.email,
				role: 'course_admin',
				course_slug: 'advanced-css',
			})
			expect(same.status).toBe(409)
			// Another course is something new: invited, and told it changes only on acceptance.
			const toAdmin = await admin.post(INVITE, {
				email: courseAdmin.email,
				role: 'course_admin',
				course_slug: 'intro-to-web',
			})
			expect(toAdmin.headers.location).toMatch(/notice=invitation-sent-to-member&/)
			await stack.settled()
			expect(stack.mail.count(member.email)).toBe(0)
			expect(await openInvitations(member.email)).toHaveLength(0)
			expect(await openInvitations(courseAdmin.email)).toHaveLength(1)
		})
	})

	describe('invitation lists', () => {
		it('invites a pasted list with a course, reports every row, and enrolls on acceptance in its transaction', async () => {
			const { browser: admin, user: adminUser } = await freshAdmin()
			const member = await newUser('student')
			const emails = [
				'paste-a@acme.test',
				'PASTE-B@acme.test',
				'paste-a@acme.test',
				'not-an-email',
				member.email,
				'<img src=x onerror=alert(1)>',
			]
			const res = await admin.post(INVITE, {
				intent: 'list',
				emails: `${emails.slice(0, 3).join(', ')};${emails.slice(3).join('\r\n')}`,
				role: 'student',
				course_slug: 'intro-to-web',
			})
			expect(res.status).toBe(200)
			expect(report(res.text)).toEqual([
				{ row: '1', given: 'paste-a@acme.test', outcome: 'invited' },
				{ row: '2', given: 'PASTE-B@acme.test', outcome: 'invited' },
				{ row: '3', given: 'paste-a@acme.test', outcome: 'duplicate' },
				{ row: '4', given: 'not-an-email', outcome: 'invalid' },
				{ row: '5', given: member.email, outcome: 'member' },
				{ row: '6', given: '<img src=x onerror=alert(1)>', outcome: 'invalid' },
			])
			expect(res.text).not.toContain('<img src=x')
			const [a] = await openInvitations('paste-a@acme.test')
			expect(await carried(a.id)).toEqual(['intro-to-web'])
			expect(await openInvitations('paste-b@acme.test')).toHaveLength(1)
			// The pending list names the course the invitation brings.
			const list = load((await admin.get('/admin/users/invitations')).text)
			const pending = list('tr').filter((_, tr) => list(tr).text().includes('paste-b@acme.test'))
			expect(pending.text()).toContain('Introduction to the Web')

			// The mail and the link's page say what the invitation brings.
			expect((await stack.mail.waitFor('paste-a@acme.test')).text).toContain(
				'On accepting you are enrolled in: Introduction to the Web.',
			)
			const { browser, page } = await accept('paste-a@acme.test')
			expect(load(page)('main').text()).toContain('You will also be enrolled in: Introduction to the Web.')
			const user = (await findUserByEmail(stack.db, acme.id, 'paste-a@acme.test'))!
			const enrollment = (await findEnrollment(stack.db, { tenantId: acme.id, userId: user.id }, 'intro-to-web'))!
			expect(enrollment.status).toBe('active')
			const [audit] = await auditRowsFor(stack.db, acme.id, enrollment.id)
			expect([audit.action, audit.actor_user_id, audit.metadata]).toEqual([
				'enrollment.invitation_enrolled',
				adminUser.id,
				{ courseSlug: 'intro-to-web', invitationId: a.id },
			])
			expect((await browser.get('/learn/course/intro-to-web/entry/what-is-http')).status).toBe(200)
		})

		for (const file of ['comma-bom', 'comma', 'semicolon-bom', 'semicolon', 'tab-bom', 'tab']) {
			it(`reads ${file}.csv as a spreadsheet saves it: names, roles and courses per row`, async () => {
				const { browser: admin } = await freshAdmin()
				const res = await admin.postMultipart(INVITE, { intent: 'csv' }, [
					{ field: 'file', name: `${file}.csv`, type: 'text/csv', body: fixture(`${file}.csv`) },
				])
				expect(res.status).toBe(200)
				expect(report(res.text)).toEqual([
					{ row: '2', given: `jose.${file}@acme.test`, outcome: 'invited' },
					{ row: '3', given: `ann.${file}@acme.test`, outcome: 'invited' },
					{ row: '4', given: `bo.${file}@acme.test`, outcome: 'invited' },
				])
				const [jose] = await openInvitations(`jose.${file}@acme.test`)
				expect([(await inviteeDetails(stack.db, acme.id, jose.id)).name, jose.role, jose.course_slug]).toEqual([
					'José Núñez',
					'student',
					null,
				])
				expect(await carried(jose.id)).toEqual(['intro-to-web'])
				const [ann] = await openInvitations(`ann.${file}@acme.test`)
				expect([ann.role, ann.course_slug]).toEqual(['course_admin', 'intro-to-web'])
				expect(await carried(ann.id)).toEqual([])
				const [bo] = await openInvitations(`bo.${file}@acme.test`)
				expect([(await inviteeDetails(stack.db, acme.id, bo.id)).name, bo.role]).toEqual([null, 'student'])
				// The acceptance form starts with the name the list gave.
				const link = linkIn(await stack.mail.waitFor(`jose.${file}@acme.test`), '/invite/')
				expect(load((await stack.browser(ACME).get(link)).text)('input[name="name"]').attr('value')).toBe('José Núñez')
			})
		}

		it('refuses a Windows-1252 file and an unclosed quote whole, saying why and where', async () => {
			const { browser: admin } = await freshAdmin()
			const latin = await admin.postMultipart(INVITE, { intent: 'csv' }, [
				{ field: 'file', name: 'windows-1252.csv', type: 'text/csv', body: fixture('windows-1252.csv') },
			])
			expect(latin.status).toBe(400)
			expect(fieldError(latin.text)).toContain('The file is not UTF-8 text (perhaps Windows-1252)')
			expect(await openInvitations('jose.cp1252@acme.test')).toHaveLength(0)
			const quote = await admin.postMultipart(INVITE, { intent: 'csv' }, [
				{ field: 'file', name: 'unclosed-quote.csv', type: 'text/csv', body: fixture('unclosed-quote.csv') },
			])
			expect(quote.status).toBe(400)
			expect(fieldError(quote.text)).toBe('The file could not be read as CSV at row 3: a quoted cell is not closed.')
			expect(await openInvitations('ok@acme.test')).toHaveLength(0)
			// The same refusal on the enroll page.
			const enroll = await admin.postMultipart(ENROLL, { intent: 'csv' }, [
				{ field: 'file', name: 'windows-1252.csv', type: 'text/csv', body: fixture('windows-1252.csv') },
			])
			expect(enroll.status).toBe(400)
			expect(fieldError(enroll.text)).toContain('The file is not UTF-8 text')
		})

		it('reports hostile rows: another tenant’s course, roles above the inviter’s or unknown, a course admin without a course', async () => {
			const { browser: admin } = await freshAdmin()
			const csv = [
				'email;role;course',
				'h1@acme.test;student;globex-onboarding',
				'h2@acme.test;super_admin;',
				'h3@acme.test;boss;',
				'h4@acme.test;course_admin;',
				'h5@acme.test;student;draft-course',
				'h6@acme.test;Tenant Admin;',
			].join('\r\n')
			const res = await admin.postMultipart(INVITE, { intent: 'csv' }, [
				{ field: 'file', name: 'h.csv', type: 'text/csv', body: csv },
			])
			expect(report(res.text).map((r) => r.outcome)).toEqual([
				'unknownCourse',
				'roleNotAllowed',
				'unknownRole',
				'courseNeeded',
				'unknownCourse',
				'invited',
			])
			for (const email of ['h1', 'h2', 'h3', 'h4', 'h5'])
				expect(await openInvitations(`${email}@acme.test`), email).toHaveLength(0)
			expect((await openInvitations('h6@acme.test'))[0].role).toBe('tenant_admin')
			// Nobody of another tenant is invited or touched.
			expect(await openInvitations('h1@acme.test', globex)).toHaveLength(0)
			// A course admin may not use the invite page at all.
			const author = await signIn('author@acme.test')
			expect((await author.post(INVITE, { intent: 'list', emails: 'h7@acme.test', role: 'student' })).status).toBe(404)
			expect(await openInvitations('h7@acme.test')).toHaveLength(0)
		})

		it('refuses a huge paste whole and says so, inviting nobody', async () => {
			const { browser: admin } = await freshAdmin()
			const emails = Array.from({ length: 501 }, (_, i) => `huge-${i}@acme.test`).join('\n')
			const res = await admin.post(INVITE, { intent: 'list', emails, role: 'student' })
			expect(res.status).toBe(400)
			expect(fieldError(res.text)).toBe(
				'The list has more than 500 rows, so nobody was invited. Split it and invite at most 500 at a time.',
			)
			expect(await openInvitations('huge-0@acme.test')).toHaveLength(0)
			const long = await admin.post(INVITE, { intent: 'list', emails: 'x'.repeat(200_001), role: 'student' })
			expect(long.status).toBe(400)
		})

		it('counts each list against the adminMutation limit: the 61st post in a minute is 429, nothing invited', async () => {
			const { browser: admin } = await freshAdmin()
			for (let i = 0; i < 60; i++)
				expect((await admin.post(INVITE, { intent: 'list', emails: '', role: 'student' })).status).toBe(400)
			const limited = await admin.post(INVITE, { intent: 'list', emails: 'limited@acme.test', role: 'student' })
			expect(limited.status).toBe(429)
			expect(await openInvitations('limited@acme.test')).toHaveLength(0)
		})
	})

	describe('enrolling people', () => {
		it('invites people without an account with the course, in the same step, and the course admin’s grant is re-checked on acceptance', async () => {
			const author = await signIn('author@acme.test')
			const authorUser = (await findUserByEmail(stack.db, acme.id, 'author@acme.test'))!
			const res = await author.post(ENROLL, { intent: 'emails', emails: 'newbie-1@acme.test\nnewbie-2@acme.test' })
			expect(report(res.text).map((r) => r.outcome)).toEqual(['invited', 'invited'])
			const [one] = await openInvitations('newbie-1@acme.test')
			expect([one.role, one.invited_by]).toEqual(['student', authorUser.id])
			expect(await carried(one.id)).toEqual(['intro-to-web'])
			// Again: the open invitation is sent again, the course not added twice.
			const again = await author.post(ENROLL, { intent: 'emails', emails: 'newbie-1@acme.test' })
			expect(report(again.text).map((r) => r.outcome)).toEqual(['invitationRefreshed'])
			expect(await carried(one.id)).toEqual(['intro-to-web'])

			await accept('newbie-1@acme.test', 1)
			const first = (await findUserByEmail(stack.db, acme.id, 'newbie-1@acme.test'))!
			expect((await findEnrollment(stack.db, { tenantId: acme.id, userId: first.id }, 'intro-to-web'))?.status).toBe(
				'active',
			)

			// The course admin loses the course: what they granted is no longer theirs to grant.
			const link = linkIn(await stack.mail.waitFor('newbie-2@acme.test'), '/invite/')
			await runSteps(stack.db, (tx) => removeCourseAssignmentsSteps(tx, { tenantId: acme.id, userId: authorUser.id }))
			try {
				const b = stack.browser(ACME)
				expect((await b.post(link, { name: 'Second', password: PASSWORD })).status).toBe(302)
				const second = (await findUserByEmail(stack.db, acme.id, 'newbie-2@acme.test'))!
				expect(await findEnrollment(stack.db, { tenantId: acme.id, userId: second.id }, 'intro-to-web')).toBeNull()
			} finally {
				await assignCourseAdmin(stack.db, { tenantId: acme.id, userId: authorUser.id }, 'intro-to-web', null)
			}
		})

		it('mails an enrolled learner once, in their locale, with the course’s link', async () => {
			const { browser: admin } = await freshAdmin()
			const learner = await newUser('student', { locale: 'fr' })
			const res = await admin.post(ENROLL, { intent: 'emails', emails: learner.email })
			expect(report(res.text).map((r) => r.outcome)).toEqual(['enrolled'])
			const mail = await stack.mail.waitFor(learner.email)
			expect(mail.subject).toContain('Vous êtes inscrit à un cours')
			expect(mail.text).toContain('Introduction')
			expect(linkIn(mail, '/fr/learn/course/')).toBe('/fr/learn/course/intro-to-web')
			// Already enrolled: no second mail.
			await admin.post(ENROLL, { intent: 'emails', emails: learner.email })
			await stack.settled()
			expect(stack.mail.count(learner.email)).toBe(1)
		})

		it('grants seats in a paid course, audited as the organisation’s; the learner’s own enrollment still answers 501', async () => {
			const { browser: admin } = await freshAdmin()
			const learner = await newUser('student')
			const page = load((await admin.get(PAID)).text)
			expect(page('main').text()).toContain('each enrollment made here is a seat your organisation grants')
			const res = await admin.post(PAID, { intent: 'emails', emails: `${learner.email}\nseat-new@acme.test` })
			expect(res.status).toBe(200)
			expect(report(res.text).map((r) => r.outcome)).toEqual(['enrolled', 'invited'])
			const enrollment = (await findEnrollment(stack.db, { tenantId: acme.id, userId: learner.id }, 'advanced-css'))!
			expect(enrollment.status).toBe('active')
			const [audit] = await auditRowsFor(stack.db, acme.id, enrollment.id)
			expect([audit.action, audit.metadata]).toEqual([
				'enrollment.admin_enrolled',
				{ courseSlug: 'advanced-css', seat: 'organisation' },
			])
			// Through an invitation: the seat is recorded on acceptance.
			await accept('seat-new@acme.test')
			const invited = (await findUserByEmail(stack.db, acme.id, 'seat-new@acme.test'))!
			const seat = (await findEnrollment(stack.db, { tenantId: acme.id, userId: invited.id }, 'advanced-css'))!
			expect((await auditRowsFor(stack.db, acme.id, seat.id))[0].metadata).toMatchObject({ seat: 'organisation' })

			const other = await newUser('student')
			const self = await signIn(other.email)
			expect((await self.post('/learn/course/advanced-css/enroll', {})).status).toBe(501)
			expect(await findEnrollment(stack.db, { tenantId: acme.id, userId: other.id }, 'advanced-css')).toBeNull()
		})
	})

	it('exports the roster as UTF-8 with a byte-order mark, formula-safe', async () => {
		const { browser: admin } = await freshAdmin()
		const learner = await newUser('student')
		await stack.db.orm.update(stack.db.t.users).set({ name: '=José Núñez' }).where(eq(stack.db.t.users.id, learner.id))
		await admin.post(ENROLL, { intent: 'emails', emails: learner.email })
		const res = await admin.get('/admin/courses/intro-to-web/export')
		expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
		expect([...res.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		expect(res.text).toContain(`"'=José Núñez"`)
	})
})
