// Issue 24: the pending invitations list (resend, revoke), a role change to course admin that picks
// the course, and staff trying a quiz in preview without anything being written.
import { load } from 'cheerio'
import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assignedCourseSlugs } from '#db/learning.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserById } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, createInvitation } from '#tests/support/repository.ts'
import { addPerson } from '#tests/support/people.ts'

const ACME = 'acme.localhost'
const LIST = '/admin/users/invitations'
const QUIZ = '/learn/course/intro-to-web/entry/basics-quiz'
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': '  FORM ' }
const WRONG = { intent: 'submit-quiz', 'q:q-method': 'get', 'q:q-nojs': 'false', 'q:q-element': 'div' }
const NO_LONGER_VALID = 'This invitation is no longer valid'

describe.each(DIALECTS)('invitations, course admin role and quiz preview on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globex: Tenant
	let admin: Browser
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globex = stack.seeded.tenants.globex
		admin = await signIn('admin@acme.test')
	})
	afterAll(() => stack?.close())

	const signIn = (email: string, host = ACME) => stack.signIn(email, host)
	const inv = () => stack.db.t.invitations
	const invitationRow = async (id: string) =>
		(await stack.db.orm.select().from(inv()).where(eq(inv().id, id)))[0] ?? null
	/** Invites through the form, as an admin does: the row and the link mailed. */
	async function invite(email: string, form: Record<string, string> = { role: 'student' }) {
		const since = stack.mail.count(email)
		expect((await admin.post('/admin/users/invite', { email, ...form })).status).toBe(302)
		const link = linkIn(await stack.mail.waitFor(email, since), '/invite/')
		const [row] = await stack.db.orm
			.select()
			.from(inv())
			.where(and(eq(inv().email, email), eq(inv().tenant_id, acme.id)))
		return { row, link }
	}

	describe('the pending list', () => {
		it('lists only this tenant’s pending invitations, with course title, inviter and dates', async () => {
			const adminId = stack.seeded.users['acme:admin@acme.test'].id
			const make = (tenant: Tenant, email: string, extra: Record<string, unknown> = {}) =>
				createInvitation(
					{ db: stack.db },
					{ tenantId: tenant.id, email, role: 'student', invitedBy: null, ...extra },
				).then((r) => r.invitation)
			await make(acme, 'list-pending@acme.test', { invitedBy: adminId })
			await make(acme, 'list-author@acme.test', {
				role: 'course_admin',
				courseSlug: 'intro-to-web',
				invitedBy: adminId,
			})
			const accepted = await make(acme, 'list-accepted@acme.test')
			await stack.db.orm.update(inv()).set({ accepted_at: new Date() }).where(eq(inv().id, accepted.id))
			const expired = await make(acme, 'list-expired@acme.test')
			await stack.db.orm
				.update(inv())
				.set({ expires_at: new Date(Date.now() - 1000) })
				.where(eq(inv().id, expired.id))
			await make(globex, 'list-globex@globex.test')

			const page = await admin.get(LIST)
			expect(page.status).toBe(200)
			const $ = load(page.text)
			const rows = $('table tbody tr')
				.toArray()
				.map((tr) =>
					$(tr)
						.find('td')
						.toArray()
						.map((td) => $(td).text()),
				)
			const author = rows.find((r) => r[0] === 'list-author@acme.test')!
			expect(author.slice(0, 4)).toEqual([
				'list-author@acme.test',
				'course admin',
				'Introduction to the Web',
				'Ada Admin <admin@acme.test>',
			])
			expect(author[4]).not.toBe('')
			expect(author[5]).not.toBe('')
			expect(rows.map((r) => r[0])).toContain('list-pending@acme.test')
			for (const hidden of ['list-accepted@acme.test', 'list-expired@acme.test', 'list-globex@globex.test'])
				expect(page.text).not.toContain(hidden)
			// Linked from the users list and the invitation form.
			for (const from of ['/admin/users', '/admin/users/invite'])
				expect(load((await admin.get(from)).text)(`a[href="${LIST}"]`).length, from).toBe(1)
		})

		it('is for tenant and super admins of this tenant only', async () => {
			expect((await (await signIn('learner@acme.test')).get(LIST)).status).toBe(403)
			expect((await (await signIn('author@acme.test')).get(LIST)).status).toBe(404)
			// The apex has no tenant, so no invitations.
			expect((await (await signIn('root@platform.test', 'localhost')).get(LIST)).status).toBe(404)
		})
	})

	describe('resend', () => {
		it('mails a new link; the old one stops working; audited', async () => {
			const { row, link } = await invite('resend-me@acme.test')
			const res = await admin.post(LIST, { intent: 'resend', id: row.id })
			expect(res.status).toBe(302)
			// The notice names the invitation by its id; the page looks its address up (decision 0032).
			expect(res.headers.location).toBe(`${LIST}?notice=invitation-resent&id=${row.id}`)
			expect(load((await admin.get(String(res.headers.location))).text)('.notice').text()).toContain(
				'A new invitation is on its way to resend-me@acme.test',
			)
			const fresh = linkIn(await stack.mail.waitFor('resend-me@acme.test', 1), '/invite/')
			expect(fresh).not.toBe(link)
			const after = (await invitationRow(row.id))!
			expect(after.token_hash).not.toBe(row.token_hash)
			expect(after.expires_at.getTime()).toBeGreaterThanOrEqual(row.expires_at.getTime())
			const old = await stack.request(ACME, link)
			expect(old.text).toContain(NO_LONGER_VALID)
			expect(old.text).not.toContain('Accept invitation')
			expect((await stack.request(ACME, fresh)).text).toContain('Accept invitation')
			const audit = await auditRowsFor(stack.db, acme.id, row.id)
			expect(audit.map((a) => a.action).sort()).toEqual(['invitation.resent', 'invitation.sent'])
			expect(audit.find((a) => a.action === 'invitation.resent')!.metadata).toMatchObject({
				email: 'resend-me@acme.test',
				role: 'student',
			})
		})

		it('is limited to three an hour per invitation (429, nothing rotated, no mail)', async () => {
			const { row } = await invite('resend-often@acme.test')
			for (let i = 0; i < 3; i++) expect((await admin.post(LIST, { intent: 'resend', id: row.id })).status).toBe(302)
			await stack.mail.waitFor('resend-often@acme.test', 3)
			const before = (await invitationRow(row.id))!
			const refused = await admin.post(LIST, { intent: 'resend', id: row.id })
			expect(refused.status).toBe(429)
			expect(refused.headers['retry-after']).toBeTruthy()
			expect(refused.text).toContain('Too many')
			expect((await invitationRow(row.id))!.token_hash).toBe(before.token_hash)
			await new Promise((r) => setTimeout(r, 200))
			expect(stack.mail.count('resend-often@acme.test')).toBe(4)
			// Another invitation still has its own allowance.
			const other = await invite('resend-other@acme.test')
			expect((await admin.post(LIST, { intent: 'resend', id: other.row.id })).status).toBe(302)
		})
	})

	describe('revoke', () => {
		it('asks first, then deletes the invitation: its link is no longer valid; audited', async () => {
			const { row, link } = await invite('revoke-me@acme.test', { role: 'course_admin', course_slug: 'intro-to-web' })
			const ask = await admin.post(LIST, { intent: 'revoke', id: row.id })
			expect(ask.status).toBe(200)
			const $ = load(ask.text)
			expect($('.confirm').text()).toContain('Revoke the invitation to revoke-me@acme.test?')
			const posted = Object.fromEntries(
				$('.confirm input[type="hidden"]')
					.toArray()
					.map((el) => [$(el).attr('name'), $(el).attr('value')]),
			)
			expect(posted).toEqual({ intent: 'revoke', id: row.id, confirmed: 'yes' })
			// The question changed nothing.
			expect(await invitationRow(row.id)).not.toBeNull()
			expect((await stack.request(ACME, link)).text).toContain('Accept invitation')

			const done = await admin.post(LIST, posted as Record<string, string>)
			expect(done.status).toBe(302)
			expect(done.headers.location).toBe(`${LIST}?notice=invitation-revoked&id=${row.id}`)
			expect(await invitationRow(row.id)).toBeNull()
			const page = await stack.request(ACME, link)
			expect(page.text).toContain(NO_LONGER_VALID)
			expect(page.text).not.toContain('Accept invitation')
			const accept = await stack.browser(ACME).post(link, { name: 'Too Late', password: 'Revoked-Passphrase-42' })
			expect(accept.status).toBe(410)
			const audit = await auditRowsFor(stack.db, acme.id, row.id)
			expect(audit.map((a) => a.action).sort()).toEqual(['invitation.revoked', 'invitation.sent'])
			expect(audit.find((a) => a.action === 'invitation.revoked')!.metadata).toMatchObject({
				email: 'revoke-me@acme.test',
				role: 'course_admin',
				courseSlug: 'intro-to-web',
			})
			// The audit log names it readably.
			const log = load((await admin.get('/admin/audit?action=invitation.revoked')).text)
			const cells = log('tbody tr')
				.toArray()
				.map((tr) =>
					log(tr)
						.find('td')
						.toArray()
						.map((td) => log(td).text()),
				)
			expect(cells.find((c) => c[1] === 'Invitation revoked invitation.revoked')?.[3]).toBe(
				'Invitation revoke-me@acme.test',
			)
			// Gone: nothing left to resend or revoke.
			expect((await admin.post(LIST, { intent: 'resend', id: row.id })).status).toBe(404)
			expect((await admin.post(LIST, { intent: 'revoke', id: row.id, confirmed: 'yes' })).status).toBe(404)
		})

		it('refuses an invitation that is no longer pending, and other intents or confirmations', async () => {
			const { row } = await invite('accepted-already@acme.test')
			await stack.db.orm.update(inv()).set({ accepted_at: new Date() }).where(eq(inv().id, row.id))
			const resend = await admin.post(LIST, { intent: 'resend', id: row.id })
			expect(resend.status).toBe(409)
			expect(resend.text).toContain('no longer pending')
			expect((await admin.post(LIST, { intent: 'revoke', id: row.id, confirmed: 'yes' })).status).toBe(409)
			expect(await invitationRow(row.id)).not.toBeNull()
			expect((await admin.post(LIST, { intent: 'delete', id: row.id })).status).toBe(400)
			const pending = await invite('confirm-typo@acme.test')
			expect((await admin.post(LIST, { intent: 'revoke', id: pending.row.id, confirmed: 'sure' })).status).toBe(400)
			expect(await invitationRow(pending.row.id)).not.toBeNull()
		})

		it('does not touch another tenant’s invitation', async () => {
			const { invitation } = await createInvitation(
				{ db: stack.db },
				{ tenantId: globex.id, email: 'cross@globex.test', role: 'student', invitedBy: null },
			)
			for (const form of [
				{ intent: 'resend', id: invitation.id } as Record<string, string>,
				{ intent: 'revoke', id: invitation.id },
				{ intent: 'revoke', id: invitation.id, confirmed: 'yes' },
			])
				expect((await admin.post(LIST, form)).status, JSON.stringify(form)).toBe(404)
			expect(await invitationRow(invitation.id)).toEqual(invitation)
			expect(stack.mail.count('cross@globex.test')).toBe(0)
			// Nor does a super admin inside Acme reach Globex's.
			const apex = await signIn('root@platform.test', 'localhost')
			const root = await stack.enter(apex, acme)
			expect((await root.get(LIST)).status).toBe(200)
			expect((await root.post(LIST, { intent: 'revoke', id: invitation.id, confirmed: 'yes' })).status).toBe(404)
			expect(await invitationRow(invitation.id)).toEqual(invitation)
		})
	})

	describe('changing someone to course admin', () => {
		let n = 0
		async function person(role: 'student' | 'tenant_admin') {
			return addPerson(stack.db, {
				tenant_id: acme.id,
				email: `role-${++n}@acme.test`,
				name: `Role Person ${n}`,
				role,
			})
		}

		it('offers the tenant’s courses by title and says beside the field that a course is needed', async () => {
			const target = await person('student')
			const page = load((await admin.get(`/admin/users/${target.id}`)).text)
			const options = page('select[name="course_slug"] option')
				.toArray()
				.map((o) => page(o).text())
			expect(options).toContain('Introduction to the Web')
			expect(options).not.toContain('Globex onboarding')

			const res = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				role: 'course_admin',
				course_slug: '',
			})
			expect(res.status).toBe(400)
			const $ = load(res.text)
			const select = $('select[name="course_slug"]')
			expect(select.attr('aria-invalid')).toBe('true')
			expect($(`#${select.attr('aria-describedby')}`).text()).toContain('Choose the course they will administer')
			expect((await findUserById(stack.db, target.id))!.role).toBe('student')
		})

		it('refuses another tenant’s course slug', async () => {
			const target = await person('student')
			const res = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				role: 'course_admin',
				course_slug: 'globex-onboarding',
			})
			expect(res.status).toBe(400)
			expect(res.text).toContain('Choose a course of this site')
			expect((await findUserById(stack.db, target.id))!.role).toBe('student')
			expect(await assignedCourseSlugs(stack.db, { tenantId: acme.id, userId: target.id })).toEqual([])
			expect(await assignedCourseSlugs(stack.db, { tenantId: globex.id, userId: target.id })).toEqual([])
		})

		it('changes the role and assigns the course in one confirmed request, audited as both', async () => {
			const target = await person('student')
			const res = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				role: 'course_admin',
				course_slug: 'intro-to-web',
				confirmed: 'yes',
			})
			expect(res.status).toBe(302)
			expect(res.headers.location).toBe(`/admin/users/${target.id}?notice=role-changed`)
			const after = (await findUserById(stack.db, target.id))!
			expect(after.role).toBe('course_admin')
			expect(after.token_version).toBe(target.token_version + 1)
			expect(await assignedCourseSlugs(stack.db, { tenantId: acme.id, userId: target.id })).toEqual(['intro-to-web'])
			const audit = await auditRowsFor(stack.db, acme.id, target.id)
			expect(audit.map((a) => [a.action, a.metadata]).sort()).toEqual([
				['course.admin_assigned', { courseSlug: 'intro-to-web' }],
				['user.role_changed', { from: 'student', to: 'course_admin' }],
			])
			// The new course admin reaches their course's dashboard.
			const b = await signIn(target.email)
			expect((await b.get('/admin/courses/intro-to-web/dashboard')).status).toBe(200)
		})

		it('lets a course admin keep their courses with the form unchanged, or add one', async () => {
			const target = await person('student')
			await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				role: 'course_admin',
				course_slug: 'intro-to-web',
				confirmed: 'yes',
			})
			const page = load((await admin.get(`/admin/users/${target.id}`)).text)
			expect(page('dl.facts').text()).toContain('AdministersIntroduction to the Web')
			const unchanged = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				role: 'course_admin',
				course_slug: '',
			})
			expect(unchanged.status).toBe(302)
			expect(await assignedCourseSlugs(stack.db, { tenantId: acme.id, userId: target.id })).toEqual(['intro-to-web'])
			const added = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				role: 'course_admin',
				course_slug: 'advanced-css',
			})
			expect(added.status).toBe(302)
			expect((await assignedCourseSlugs(stack.db, { tenantId: acme.id, userId: target.id })).sort()).toEqual([
				'advanced-css',
				'intro-to-web',
			])
			const audit = await auditRowsFor(stack.db, acme.id, target.id)
			expect(audit.filter((a) => a.action === 'user.role_changed')).toHaveLength(1)
			expect(audit.filter((a) => a.action === 'course.admin_assigned').map((a) => a.metadata)).toContainEqual({
				courseSlug: 'advanced-css',
			})
		})

		it('still asks before a lower role, carrying the course to the confirmation', async () => {
			const target = await person('tenant_admin')
			const ask = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				role: 'course_admin',
				course_slug: 'intro-to-web',
			})
			expect(ask.status).toBe(200)
			const $ = load(ask.text)
			const posted = Object.fromEntries(
				$('.confirm input[type="hidden"]')
					.toArray()
					.map((el) => [$(el).attr('name'), $(el).attr('value')]),
			)
			expect(posted).toEqual({
				intent: 'change-role',
				role: 'course_admin',
				course_slug: 'intro-to-web',
				confirmed: 'yes',
			})
			expect((await findUserById(stack.db, target.id))!.role).toBe('tenant_admin')
			expect(await assignedCourseSlugs(stack.db, { tenantId: acme.id, userId: target.id })).toEqual([])
			expect((await admin.post(`/admin/users/${target.id}`, posted as Record<string, string>)).status).toBe(302)
			expect((await findUserById(stack.db, target.id))!.role).toBe('course_admin')
			expect(await assignedCourseSlugs(stack.db, { tenantId: acme.id, userId: target.id })).toEqual(['intro-to-web'])
		})
	})

	describe('staff preview of a quiz', () => {
		/** Rows of every table: a preview adds, removes or changes none. */
		async function snapshot() {
			const t = stack.db.t
			const counts: Record<string, number> = {}
			for (const [name, table] of Object.entries(t)) {
				const [row] = await stack.db.orm.select({ n: count() }).from(table as typeof t.users)
				counts[name] = Number(row.n)
			}
			const rows = await Promise.all(
				[t.quiz_attempts, t.entry_progress, t.enrollments, t.audit_log, t.users, t.stats_counters].map((table) =>
					stack.db.orm.select().from(table as typeof t.users),
				),
			)
			return { counts, rows: JSON.stringify(rows) }
		}

		it('grades the quiz and shows the feedback with answers and explanations, writing nothing (no JavaScript: the answer is the page)', async () => {
			const author = await signIn('author@acme.test')
			const page = await author.get(`${QUIZ}?preview=1`)
			expect(page.status).toBe(200)
			const form = load(page.text)('form:has(input[value="submit-quiz"])')
			expect(form.find('button[type="submit"]').attr('disabled')).toBeUndefined()
			expect(form.find('button[type="submit"]').text()).toBe('Check answers (nothing is saved)')

			const before = await snapshot()
			const right = await author.post(`${QUIZ}?preview=1`, RIGHT)
			expect(right.status).toBe(200)
			const $ = load(right.text)
			const report = $('.quiz [role="status"]').first().text()
			expect(report).toContain('Preview: 100% · 3 of 3 correct · Passed')
			expect(report).toContain('Nothing was saved')
			expect(report).toContain('GET must not change data')

			const wrong = await author.post(`${QUIZ}?preview=1`, WRONG)
			expect(wrong.status).toBe(200)
			const w = load(wrong.text)
			const feedback = w('.quiz [role="status"]').first().text()
			expect(feedback).toContain('Preview: 0% · 0 of 3 correct · Not passed')
			expect(feedback).toContain('Correct answer: POST.')
			// The form keeps the answers given, wrong ones marked.
			expect(w('input[name="q:q-method"][value="get"]').attr('checked')).toBeDefined()
			expect(w('.question-incorrect').length).toBe(3)

			expect(await snapshot()).toEqual(before)
		})

		it('limits tries in preview like a learner’s submissions (each fetches the quiz uncached): the 21st in a minute is 429, nothing written', async () => {
			// The tenant admin: no earlier try in this file counts against them.
			const staff = await signIn('admin@acme.test')
			const before = await snapshot()
			const statuses: number[] = []
			for (let i = 0; i < 21; i++) statuses.push((await staff.post(`${QUIZ}?preview=1`, RIGHT)).status)
			expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200))
			expect(statuses[20]).toBe(429)
			expect(await snapshot()).toEqual(before)
		})

		it('refuses completing an entry in preview, and a student gets no preview', async () => {
			const admin2 = await signIn('admin@acme.test')
			const before = await snapshot()
			const res = await admin2.post('/learn/course/intro-to-web/entry/what-is-http?preview=1', { intent: 'complete' })
			expect(res.status).toBe(403)
			expect(res.text).toContain('Preview is read-only')
			expect((await admin2.post(`${QUIZ}?preview=1`, { intent: 'other' })).status).toBe(403)
			expect(await snapshot()).toEqual(before)
			const learner = await signIn('newbie@acme.test')
			const student = await learner.post(`${QUIZ}?preview=1`, RIGHT)
			expect(student.status).toBe(302)
			expect(student.headers.location).toBe('/learn/course/intro-to-web?notice=enroll_first')
		})
	})
})
