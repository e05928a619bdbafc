import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { liveCertificate } from '#db/certificates.ts'
import { findAuditRow } from '#db/audit.ts'
import { findEnrollment, listProgress, markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import type { Locale } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

// Course results and second chances (issue 39 part A, decision 0037), through HTTP as learners and
// staff use them: the failing learner, what they are told remains, the staff's second
// chance and the certificate that follows; the result on the roster, the CSV, the dashboard and the
// admin user page; and the second-chance page's hostile cases.

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const COURSE = 'intro-to-web'
const QUIZ = `/learn/course/${COURSE}/entry/basics-quiz`
const ASSIGNMENT = `/learn/course/${COURSE}/entry/build-a-form`
const LESSONS = ['what-is-http', 'html-forms', 'progressive-enhancement']
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }
const WRONG = { intent: 'submit-quiz', 'q:q-method': 'get', 'q:q-nojs': 'false', 'q:q-element': 'div' }
const learnerPage = (userId: string, course = COURSE) => `/admin/courses/${course}/learners/${userId}`

describe.each(DIALECTS)('course results and second chances on %s', (dialect) => {
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
	async function newUser(options: { tenant?: Tenant; locale?: Locale; role?: User['role'] } = {}) {
		const tenant = options.tenant ?? acme
		n += 1
		return createUser(stack.db, {
			tenant_id: tenant.id,
			email: `results-${n}@${tenant.slug}.test`,
			name: `Results ${n}`,
			role: options.role ?? 'student',
			locale: options.locale ?? 'en',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
	}
	const signIn = (user: Pick<User, 'email'>, host = ACME) => stack.signIn(user.email, host)
	// Staff sessions are shared: sign-ins are rate-limited per address.
	let authorBrowser: Promise<Browser> | null = null
	const author = () => (authorBrowser ??= signIn({ email: 'author@acme.test' }))
	let adminBrowser: Promise<Browser> | null = null
	const admin = () => (adminBrowser ??= signIn({ email: 'admin@acme.test' }))

	const scopeOf = (user: User) => ({ tenantId: user.tenant_id!, userId: user.id })
	async function storedResult(user: User) {
		const c = stack.db.t.course_passes
		const [row] = await stack.db.orm
			.select()
			.from(c)
			.where(and(eq(c.tenant_id, user.tenant_id!), eq(c.user_id, user.id), eq(c.course_slug, COURSE)))
		return row ?? null
	}
	async function grants(user: User) {
		const g = stack.db.t.second_chances
		return stack.db.orm.select().from(g).where(eq(g.user_id, user.id))
	}
	/** Enrolled with every lesson read: the quiz and the assignment decide. */
	async function enrolled(options: { locale?: Locale } = {}) {
		const user = await newUser(options)
		await putEnrollment(stack.db, scopeOf(user), COURSE, 'active')
		for (const slug of LESSONS) await markEntryCompleteRow(stack.db, scopeOf(user), COURSE, slug)
		return { user, b: await signIn(user) }
	}
	/** A hand-in through the entry's form, graded by the course's author through the grading page. */
	async function handInAndGrade(user: User, b: Browser, score: number) {
		expect((await b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: 'My form' })).status).toBe(302)
		const s = stack.db.t.assignment_submissions
		const [sub] = await stack.db.orm
			.select()
			.from(s)
			.where(and(eq(s.user_id, user.id), eq(s.status, 'submitted')))
		const graded = await (
			await author()
		).post(`/admin/courses/${COURSE}/submissions/${sub.id}`, {
			intent: 'grade',
			score: String(score),
			feedback: 'Thanks',
		})
		expect(graded.status).toBe(302)
		return sub
	}
	/** The newest mail to `to` whose subject says `subject` (other mails, a grade's, may come in any order). */
	async function mailSaying(to: string, subject: string) {
		const deadline = Date.now() + 15_000
		for (;;) {
			const found = stack.mail.messages.filter((m) => m.to === to && m.subject.includes(subject)).at(-1)
			if (found) return found
			if (Date.now() > deadline) throw new Error(`no mail to ${to} saying ${subject}`)
			await new Promise((r) => setTimeout(r, 25))
		}
	}
	const remaining = (html: string) =>
		load(html)('.result-remaining li')
			.toArray()
			.map((li) => load(li).text().replace(/\s+/g, ' ').trim())
	const resultBadge = (html: string) => load(html)('#result-heading .badge').text()

	it('the issue’s learner: completed, not passed, told what remains; a granted attempt, a pass, the certificate', async () => {
		const { user, b } = await enrolled({ locale: 'es' })
		for (let i = 0; i < 3; i++) expect((await b.post(QUIZ, WRONG)).status).toBe(302)
		await handInAndGrade(user, b, 8)
		expect((await findEnrollment(stack.db, scopeOf(user), COURSE))?.status).toBe('completed')

		// Completed (the spec's status) but not passed, and what remains, in the learner's language.
		const home = await b.get(`/es/learn/course/${COURSE}`)
		expect(home.status).toBe(200)
		expect(resultBadge(home.text)).toBe('No aprobado')
		expect(load(home.text)('.course-result').text()).toContain('Has llegado al final de este curso')
		// The demo course names a minimum average of 60 %: the quiz's 0 and the assignment's 80 make 40.
		expect(remaining(home.text)).toEqual([
			expect.stringMatching(/aprueba este cuestionario \(tu mejor puntuación hasta ahora: 0/),
			expect.stringMatching(/^Sube tu puntuación media a 60\s%\s\(ahora 40\s%\)\.$/),
		])
		expect(await storedResult(user)).toMatchObject({ passed: false, passed_at: null })
		expect(await liveCertificate(stack.db, acme.id, user.id, COURSE)).toBeUndefined()
		// The quiz is review-only: its attempts are used up.
		expect((await b.post(QUIZ, RIGHT)).status).toBe(409)

		// The staff page lists the learner's standing and offers the second chance.
		const staffPage = await (await author()).get(learnerPage(user.id))
		expect(staffPage.status).toBe(200)
		const $ = load(staffPage.text)
		expect($('h1').text()).toContain(user.name)
		expect($('form input[name="intent"][value="grant-attempts"]')).toHaveLength(1)
		const key = $('form input[name="key"]').first().attr('value')!
		const fields = {
			intent: 'grant-attempts',
			entry: 'basics-quiz',
			attempts: '1',
			reason: 'Lost connection during the quiz',
			key,
		}
		// Every attempt used, the answers were shown: staff are asked to confirm first (decision 0054).
		const asked = await (await author()).post(learnerPage(user.id), fields)
		expect(asked.status).toBe(200)
		expect(await grants(user)).toEqual([])
		const granted = await (await author()).post(learnerPage(user.id), { ...fields, confirmed: 'yes' })
		expect(granted.status).toBe(302)
		expect(granted.headers.location).toBe(`${learnerPage(user.id)}?notice=attempts-granted`)
		const audit = await findAuditRow(stack.db, acme.id, 'learner.attempts_granted', user.id)
		expect(audit?.metadata).toMatchObject({
			courseSlug: COURSE,
			entrySlug: 'basics-quiz',
			extraAttempts: 1,
			reason: 'Lost connection during the quiz',
		})
		// The quiz entry was complete only because its attempts ran out: reopened, and the course with it.
		const progress = await listProgress(stack.db, scopeOf(user), COURSE)
		expect(progress.find((p) => p.entry_slug === 'basics-quiz')?.completed_at).toBeNull()
		expect((await findEnrollment(stack.db, scopeOf(user), COURSE))?.status).toBe('active')
		expect(
			await findAuditRow(
				stack.db,
				acme.id,
				'enrollment.reopened',
				(await findEnrollment(stack.db, scopeOf(user), COURSE))!.id,
			),
		).not.toBeNull()
		// Mailed in the learner's locale, with a link to the quiz.
		const mail = await mailSaying(user.email, 'Tienes más intentos en un cuestionario')
		expect(linkIn(mail, '/es/learn/course/')).toBe(`/es${QUIZ}`)

		// The fourth attempt passes: the course is passed, and the certificate arrives.
		// The learner reads in Spanish (their pages are under /es since they visited them so).
		const quizPage = await b.get(`/es${QUIZ}`)
		expect(load(quizPage.text)('.quiz > .hint').first().text()).toMatch(/3 de 4 intentos/)
		expect((await b.post(QUIZ, RIGHT)).status).toBe(302)
		const stored = await storedResult(user)
		expect(stored).toMatchObject({ passed: true })
		expect(stored?.passed_at).toBeInstanceOf(Date)
		const certificate = await liveCertificate(stack.db, acme.id, user.id, COURSE)
		expect(certificate, 'certificate issued on the pass').toBeDefined()
		const certMail = await mailSaying(user.email, 'certificado')
		expect(linkIn(certMail, '/es/learn/certificates/')).toBe(`/es/learn/certificates/${certificate!.public_id}`)
		const after = await b.get(`/es/learn/course/${COURSE}`)
		expect(resultBadge(after.text)).toBe('Aprobado')
		expect(remaining(after.text)).toEqual([])

		// The result everywhere staff and the learner look.
		const roster = await (await author()).get(`/admin/courses/${COURSE}/dashboard`)
		const row = load(roster.text)(`table tbody tr:contains("${user.email}")`)
		expect(row.find('td').eq(2).text()).toMatch(/^Passed · \d+%$/)
		expect(row.find(`a[href="${learnerPage(user.id)}"]`)).toHaveLength(1)
		const csv = await (await author()).get(`/admin/courses/${COURSE}/export`)
		const lines = csv.text.trim().split('\r\n')
		// The course result, then the instants for machines and the zone of the dates (decision 0055).
		expect(
			lines[0].endsWith(
				',"course_passed","average_percent","enrolled_at_utc","completed_at_utc","time_zone","basics-quiz_late"',
			),
		).toBe(true)
		// Quiz best 100, assignment 8 of 10: an average of 90.
		expect(lines.find((l) => l.includes(user.email))).toMatch(/,"yes","90","[^"]+",("[^"]+")?,"UTC","no"$/)
		const dashboard = await b.get('/es/learn/dashboard')
		expect(load(dashboard.text)(`.card:contains("Introducción a la Web") .badge`).text()).toBe('Aprobado')
		const userPage = await (await admin()).get(`/admin/users/${user.id}`)
		expect(load(userPage.text)(`a[href="${learnerPage(user.id)}"]`).text()).toBe('Passed')
	})

	it('a graded assignment below the pass mark: not passed, told to get a passing grade; the average is shown', async () => {
		const { user, b } = await enrolled()
		expect((await b.post(QUIZ, RIGHT)).status).toBe(302)
		await handInAndGrade(user, b, 3)
		const home = await b.get(`/learn/course/${COURSE}`)
		expect(resultBadge(home.text)).toBe('Not passed')
		expect(remaining(home.text)).toEqual(['Complete 1 more entry.', 'Build a sign-up form: receive a passing grade'])
		// (100 + 30) / 2
		expect(load(home.text)('.course-result .hint').text()).toBe('Average score: 65%')
		expect(await storedResult(user)).toMatchObject({ passed: false, average: 65 })
		// The learner's dashboard says nothing of a result until there is one or the course is completed.
		const dashboard = await b.get('/learn/dashboard')
		expect(load(dashboard.text)(`.card:contains("Introduction to the Web") .badge`)).toHaveLength(0)
		const csv = await (await author()).get(`/admin/courses/${COURSE}/export`)
		expect(csv.text.split('\r\n').find((l) => l.includes(user.email))).toMatch(/,"no","65","[^"]+",,"UTC","no"$/)
	})

	it('reopens an assignment after a final grade: the learner may hand in again, and the next grade decides', async () => {
		const { user, b } = await enrolled()
		expect((await b.post(QUIZ, RIGHT)).status).toBe(302)
		await handInAndGrade(user, b, 9)
		expect(await storedResult(user)).toMatchObject({ passed: true })
		expect(load((await b.get(ASSIGNMENT)).text)('form[enctype="multipart/form-data"]')).toHaveLength(0)
		const reopened = await (
			await author()
		).post(learnerPage(user.id), { intent: 'reopen', entry: 'build-a-form', reason: 'Redo with labels' })
		expect(reopened.status).toBe(302)
		expect(reopened.headers.location).toBe(`${learnerPage(user.id)}?notice=reopened`)
		const mail = await mailSaying(user.email, 'Your assignment is open again')
		expect(linkIn(mail, '/learn/course/')).toBe(ASSIGNMENT)
		const page = load((await b.get(ASSIGNMENT)).text)
		expect(page('form[enctype="multipart/form-data"]')).toHaveLength(1)
		expect(page('.notice').text()).toContain('Course staff reopened this assignment')
		// Reopened: not "already graded", so a second reopening has nothing to open.
		const again = await (
			await author()
		).post(learnerPage(user.id), { intent: 'reopen', entry: 'build-a-form', reason: 'Again' })
		expect(again.status).toBe(409)
		expect(load(again.text)('.field-error').text()).toBe('This assignment is already open to a new hand-in.')
		// The new version, graded below the mark: the newest grade decides, and the course is no longer passed.
		await handInAndGrade(user, b, 2)
		expect(await storedResult(user)).toMatchObject({ passed: false })
		expect(remaining((await b.get(`/learn/course/${COURSE}`)).text)).toEqual([
			'Build a sign-up form: receive a passing grade',
		])
	})

	describe('the second-chance page refuses', () => {
		let learner: User
		let learnerBrowser: Browser
		beforeAll(async () => {
			const { user, b } = await enrolled()
			learner = user
			learnerBrowser = b
			for (let i = 0; i < 3; i++) expect((await b.post(QUIZ, WRONG)).status).toBe(302)
		})
		const grant = (extra: Record<string, string> = {}) => ({
			intent: 'grant-attempts',
			entry: 'basics-quiz',
			attempts: '1',
			reason: 'Because',
			...extra,
		})

		it('a learner, signed-out visitors, and a course_admin of another course', async () => {
			expect((await learnerBrowser.get(learnerPage(learner.id))).status).toBe(403)
			expect((await learnerBrowser.post(learnerPage(learner.id), grant())).status).toBe(403)
			const visitor = await stack.browser(ACME).post(learnerPage(learner.id), grant())
			expect(visitor.status).toBe(302)
			expect(visitor.headers.location).toMatch(/^\/learn\/sign-in/)
			// The author is course_admin of intro-to-web only.
			await putEnrollment(stack.db, scopeOf(learner), 'advanced-css', 'active')
			expect((await (await author()).get(learnerPage(learner.id, 'advanced-css'))).status).toBe(404)
			expect((await (await author()).post(learnerPage(learner.id, 'advanced-css'), grant())).status).toBe(404)
			expect(await grants(learner)).toEqual([])
		})

		it('another tenant’s learner, a learner not enrolled in the course, an id that is no one’s', async () => {
			const other = await newUser({ tenant: globex })
			await putEnrollment(stack.db, scopeOf(other), 'globex-onboarding', 'active')
			await putEnrollment(stack.db, scopeOf(other), COURSE, 'active')
			// Even a stray enrollment row filed under this tenant does not make another tenant's user a learner here.
			await putEnrollment(stack.db, { tenantId: acme.id, userId: other.id }, COURSE, 'active')
			expect((await (await author()).get(learnerPage(other.id))).status).toBe(404)
			expect((await (await author()).post(learnerPage(other.id), grant())).status).toBe(404)
			const outsider = await newUser()
			expect((await (await admin()).get(learnerPage(outsider.id))).status).toBe(404)
			expect((await (await admin()).post(learnerPage(outsider.id), grant())).status).toBe(404)
			expect((await (await admin()).get(learnerPage('no-such-user'))).status).toBe(404)
			// Staff of the learner's own tenant, on its host: a globex admin on globex may not reach acme's learner.
			const globexAdmin = await signIn({ email: 'admin@globex.test' }, GLOBEX)
			expect((await globexAdmin.post(learnerPage(learner.id), grant())).status).toBe(404)
			expect(await grants(other)).toEqual([])
			expect(await grants(outsider)).toEqual([])
		})

		it('a GET that carries the form’s fields changes nothing', async () => {
			const query = new URLSearchParams(grant()).toString()
			expect((await (await author()).get(`${learnerPage(learner.id)}?${query}`)).status).toBe(200)
			expect(await grants(learner)).toEqual([])
		})

		it('the wrong entry or kind, no reason, an attempt count out of range: 400 beside the form', async () => {
			const staff = await author()
			for (const [fields, error] of [
				[grant({ entry: 'what-is-http' }), 'This course has no such entry.'],
				[grant({ entry: 'no-such-entry' }), 'This course has no such entry.'],
				[{ intent: 'reopen', entry: 'basics-quiz', reason: 'x' }, 'This course has no such entry.'],
				[grant({ reason: '   ' }), 'Say why, in at most 500 characters.'],
				[grant({ reason: 'x'.repeat(501) }), 'Say why, in at most 500 characters.'],
				[grant({ attempts: '0' }), 'Give between 1 and 10 attempts.'],
				[grant({ attempts: '11' }), 'Give between 1 and 10 attempts.'],
				[grant({ attempts: '1.5' }), 'Give between 1 and 10 attempts.'],
				[grant({ intent: 'delete-everything' }), 'Choose what to grant.'],
			] as const) {
				const res = await staff.post(learnerPage(learner.id), fields)
				expect(res.status, JSON.stringify(fields)).toBe(400)
				expect(load(res.text)('.field-error, .notice-error').text()).toContain(error)
			}
			expect(await grants(learner)).toEqual([])
		})

		it('a replayed form grants once; a quiz already passed needs no more attempts', async () => {
			const staff = await author()
			const key = 'replayed-form-key-0123456789'
			for (let i = 0; i < 3; i++)
				expect((await staff.post(learnerPage(learner.id), grant({ key, confirmed: 'yes' }))).status).toBe(302)
			expect(await grants(learner)).toHaveLength(1)
			const a = stack.db.t.audit_log
			const audits = await stack.db.orm
				.select()
				.from(a)
				.where(and(eq(a.action, 'learner.attempts_granted'), eq(a.target_id, learner.id)))
			expect(audits).toHaveLength(1)
			await mailSaying(learner.email, 'You have more attempts at a quiz')
			expect(
				stack.mail.messages.filter((m) => m.to === learner.email && m.subject.includes('more attempts')),
			).toHaveLength(1)
			expect((await learnerBrowser.post(QUIZ, RIGHT)).status).toBe(302)
			const refused = await staff.post(learnerPage(learner.id), grant({ key: 'another-form-key-0123456789' }))
			expect(refused.status).toBe(409)
			expect(load(refused.text)('.field-error').text()).toBe('The learner has already passed this quiz.')
			expect(await grants(learner)).toHaveLength(1)
			// Passed: the page offers nothing more for the quiz.
			const page = load((await staff.get(learnerPage(learner.id))).text)
			expect(page('input[name="intent"][value="grant-attempts"]')).toHaveLength(0)
			expect(page('ul li').text()).toContain('Because')
		})
	})
})
