import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { findEnrollment } from '#db/learning.ts'
import type { Tenant } from '#db/tenants.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, createUser, recordAttempt } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const ENROLL = '/admin/courses/intro-to-web/enroll'

describe.each(DIALECTS)('admin enrollments on %s', (dialect) => {
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

	const user = (key: string) => stack.seeded.users[key]
	let n = 0
	async function newUser(role: 'student' | 'course_admin' | 'tenant_admin', tenant = acme) {
		return createUser(stack.db, {
			tenant_id: tenant.id,
			email: `enroll-test-${++n}@${tenant.slug}.test`,
			name: `Enrollee ${n}`,
			role,
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
	}
	const signIn = (email: string, host = ACME) => stack.signIn(email, host)
	// Each test signs in an admin of its own: the adminMutation limit counts per admin.
	const freshAdmin = async () => signIn((await newUser('tenant_admin')).email)

	/** A multipart post with one file, as a browser sends the CSV form. */
	function upload(b: Browser, path: string, file: { name: string; type: string; body: string | Buffer }) {
		const boundary = `----enroll${Math.random().toString(16).slice(2)}`
		const body = Buffer.concat([
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncsv\r\n`),
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
			),
			Buffer.from(file.body),
			Buffer.from(`\r\n--${boundary}--\r\n`),
		])
		return stack.request(ACME, path, {
			method: 'POST',
			body,
			headers: {
				'content-type': `multipart/form-data; boundary=${boundary}`,
				origin: b.origin,
				cookie: b.cookieHeader(),
			},
		})
	}
	/** The report table's rows: what was given and the outcome code. */
	function report(html: string) {
		const $ = load(html)
		return $('tr[data-outcome]')
			.toArray()
			.map((tr) => ({ given: $(tr).find('td').eq(2).text(), outcome: $(tr).attr('data-outcome') }))
	}
	const enrollmentOf = (userId: string, course = 'intro-to-web') =>
		findEnrollment(stack.db, { tenantId: acme.id, userId }, course)
	async function auditActions(enrollmentId: string) {
		return (await auditRowsFor(stack.db, acme.id, enrollmentId)).map((r) => r.action)
	}

	it('enrolls one learner by email, audited, and repeating it enrolls nobody twice', async () => {
		const admin = await freshAdmin()
		const learner = await newUser('student')
		const res = await admin.post(ENROLL, { intent: 'emails', emails: ` ${learner.email.toUpperCase()} ` })
		expect(res.status).toBe(200)
		expect(report(res.text)).toEqual([{ given: learner.email.toUpperCase(), outcome: 'enrolled' }])
		const row = (await enrollmentOf(learner.id))!
		expect(row.status).toBe('active')
		const audit = await auditRowsFor(stack.db, acme.id, row.id)
		expect(audit.map((r) => [r.action, r.target_kind, r.metadata])).toEqual([
			['enrollment.admin_enrolled', 'enrollment', { courseSlug: 'intro-to-web' }],
		])
		expect(audit[0].actor_user_id).not.toBe(learner.id)

		const again = await admin.post(ENROLL, { intent: 'emails', emails: learner.email })
		expect(report(again.text)).toEqual([{ given: learner.email, outcome: 'alreadyEnrolled' }])
		expect(again.text).toContain('Already enrolled (active)')
		expect(await auditActions(row.id)).toHaveLength(1)

		// Concurrent lists naming the same person: one row and one audit row (the unique key decides).
		const raced = await newUser('student')
		const answers = await Promise.all(
			Array.from({ length: 8 }, () => admin.post(ENROLL, { intent: 'emails', emails: raced.email })),
		)
		expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200))
		expect(answers.flatMap((r) => report(r.text).map((x) => x.outcome)).sort()).toEqual([
			...Array(7).fill('alreadyEnrolled'),
			'enrolled',
		])
		const t = stack.db.t.enrollments
		const rows = await stack.db.orm.select().from(t).where(eq(t.user_id, raced.id))
		expect(rows).toHaveLength(1)
		expect(await auditActions(rows[0].id)).toEqual(['enrollment.admin_enrolled'])
	})

	it('enrolls many and reports every row: duplicates, hostile values, other tenants and the deactivated', async () => {
		const admin = await freshAdmin()
		const [a, b] = [await newUser('student'), await newUser('student')]
		const long = `${'x'.repeat(300)}@acme.test`
		const html = '<img src=x onerror=alert(1)>'
		const rows = [
			a.email,
			b.email,
			a.email,
			'not-an-email',
			"=cmd|' /c calc'!A1",
			html,
			long,
			'learner@globex.test',
			'shared@example.test',
			'gone@acme.test',
			'nobody@acme.test',
		]
		const res = await admin.post(ENROLL, { intent: 'emails', emails: rows.join('\n') })
		expect(res.status).toBe(200)
		const got = report(res.text)
		expect(got.map((r) => r.outcome)).toEqual([
			'enrolled',
			'enrolled',
			'duplicate',
			'invalid',
			'invalid',
			'invalid',
			'invalid',
			'invited',
			'enrolled',
			'deactivated',
			'invited',
		])
		// Shown as text, cut to a length a table can hold; the markup is never the page's.
		expect(got[5].given).toBe(html)
		expect(res.text).not.toContain(html)
		expect(got[6].given).toHaveLength(121)
		// Another tenant's learner is treated like an address nobody has here (decision 0040: invited to
		// this tenant with the course): no name, no enrollment anywhere.
		expect(res.text).not.toContain('Greta Learner')
		const greta = user('globex:learner@globex.test')
		expect(await findEnrollment(stack.db, { tenantId: acme.id, userId: greta.id }, 'intro-to-web')).toBeNull()
		expect(await findEnrollment(stack.db, { tenantId: globex.id, userId: greta.id }, 'intro-to-web')).toBeNull()
		// An address both tenants have enrolls this tenant's account only.
		expect((await enrollmentOf(user('acme:shared@example.test').id))?.status).toBe('active')
		const t = stack.db.t.enrollments
		expect(
			await stack.db.orm
				.select()
				.from(t)
				.where(eq(t.user_id, user('globex:shared@example.test').id)),
		).toEqual([])
		expect(await enrollmentOf(user('acme:gone@acme.test').id)).toBeNull()
		// People without an account here are invited with the course, in this tenant only.
		const i = stack.db.t.invitations
		for (const email of ['learner@globex.test', 'nobody@acme.test']) {
			const [open] = await stack.db.orm
				.select()
				.from(i)
				.where(and(eq(i.tenant_id, acme.id), eq(i.email, email)))
			expect(open.role, email).toBe('student')
		}
		expect(
			await stack.db.orm
				.select()
				.from(i)
				.where(and(eq(i.tenant_id, globex.id), eq(i.email, 'learner@globex.test'))),
		).toEqual([])
	})

	it('enrolls from a CSV upload with a header, BOM, CRLF and quotes, and refuses what is not a usable CSV', async () => {
		const admin = await freshAdmin()
		const [a, b] = [await newUser('student'), await newUser('student')]
		const csv = `\uFEFFName,Email\r\n"Doe, Jane",${a.email}\r\n"=HYPERLINK(""x"")",=1+1\r\nBee,"${b.email}"\r\n`
		const res = await upload(admin, ENROLL, { name: 'people.csv', type: 'text/csv', body: csv })
		expect(res.status).toBe(200)
		expect(report(res.text)).toEqual([
			{ given: a.email, outcome: 'enrolled' },
			{ given: '=1+1', outcome: 'invalid' },
			{ given: b.email, outcome: 'enrolled' },
		])
		expect((await enrollmentOf(b.id))?.status).toBe('active')

		const fieldError = (html: string) => load(html)('.field-error').text()
		const png = await upload(admin, ENROLL, { name: 'x.png', type: 'image/png', body: 'not a csv' })
		expect(png.status).toBe(400)
		expect(fieldError(png.text)).toBe('The file is not a CSV file.')
		const big = await upload(admin, ENROLL, { name: 'big.csv', type: 'text/csv', body: 'a'.repeat(600 * 1024) })
		expect(big.status).toBe(400)
		expect(fieldError(big.text)).toBe('The file is larger than 512 KB.')
		const none = await upload(admin, ENROLL, { name: '', type: 'application/octet-stream', body: '' })
		expect(none.status).toBe(400)
		expect(fieldError(none.text)).toBe('Choose a CSV file.')
		const header = await upload(admin, ENROLL, { name: 'h.csv', type: 'text/csv', body: 'email\r\n' })
		expect(header.status).toBe(400)
		expect(fieldError(header.text)).toBe('The list has no addresses.')

		// Over 500 rows is refused whole: nobody of the list is enrolled.
		const c = await newUser('student')
		const many = [c.email, ...Array.from({ length: 500 }, (_, i) => `many-${i}@acme.test`)].join('\n')
		const tooMany = await upload(admin, ENROLL, { name: 'm.csv', type: 'text/csv', body: many })
		expect(tooMany.status).toBe(400)
		expect(fieldError(tooMany.text)).toMatch(/more than 500 rows/)
		expect(await enrollmentOf(c.id)).toBeNull()
		const typed = await admin.post(ENROLL, { intent: 'emails', emails: many })
		expect(typed.status).toBe(400)
		expect(await enrollmentOf(c.id)).toBeNull()
	})

	it('cancels after confirmation, audited, and re-enrolls the same row (enrolled_at bumped, completed_at cleared)', async () => {
		const admin = await freshAdmin()
		const learner = await newUser('student')
		await admin.post(ENROLL, { intent: 'emails', emails: learner.email })
		const before = (await enrollmentOf(learner.id))!
		await stack.db.orm
			.update(stack.db.t.enrollments)
			.set({ status: 'completed', completed_at: new Date('2026-10-01T00:00:00Z') })
			.where(eq(stack.db.t.enrollments.id, before.id))
		const page = `/admin/users/${learner.id}`

		const ask = await admin.post(page, { intent: 'cancel-enrollment', courseSlug: 'intro-to-web' })
		expect(ask.status).toBe(200)
		const $ = load(ask.text)
		expect($('.confirm').text()).toContain(`Cancel the enrollment of ${learner.name} in Introduction to the Web?`)
		expect(
			Object.fromEntries(
				$('.confirm input[type=hidden]')
					.toArray()
					.map((el) => [$(el).attr('name'), $(el).attr('value')]),
			),
		).toEqual({ intent: 'cancel-enrollment', courseSlug: 'intro-to-web', confirmed: 'yes' })
		expect((await enrollmentOf(learner.id))?.status).toBe('completed')
		expect(
			(await admin.post(page, { intent: 'cancel-enrollment', courseSlug: 'intro-to-web', confirmed: 'no' })).status,
		).toBe(400)

		const done = await admin.post(page, { intent: 'cancel-enrollment', courseSlug: 'intro-to-web', confirmed: 'yes' })
		expect(done.status).toBe(302)
		expect(done.headers.location).toBe(`${page}?notice=enrollment-cancelled`)
		expect((await enrollmentOf(learner.id))?.status).toBe('cancelled')
		const [cancelled] = await auditRowsFor(stack.db, acme.id, before.id)
		expect([cancelled.action, cancelled.metadata]).toEqual([
			'enrollment.cancelled',
			{ courseSlug: 'intro-to-web', from: 'completed' },
		])
		// A second cancellation finds nothing to do and writes nothing.
		const twice = await admin.post(page, { intent: 'cancel-enrollment', courseSlug: 'intro-to-web', confirmed: 'yes' })
		expect(twice.status).toBe(400)
		expect(await auditActions(before.id)).toHaveLength(2)
		// The learner is told to enroll again.
		const learnerBrowser = await signIn(learner.email)
		expect((await learnerBrowser.get('/learn/course/intro-to-web/entry/what-is-http')).status).toBe(302)

		const userPage = load((await admin.get(page)).text)
		expect(userPage('td').filter((_, el) => userPage(el).text() === 'cancelled')).toHaveLength(1)

		// The audit log names the learner of the enrollment.
		const log = load((await admin.get('/admin/audit?action=enrollment.cancelled')).text)
		expect(log('tbody tr').first().text()).toContain(`${learner.name} <${learner.email}>`)

		const again = await admin.post(ENROLL, { intent: 'emails', emails: learner.email })
		expect(report(again.text)).toEqual([{ given: learner.email, outcome: 'reactivated' }])
		const after = (await enrollmentOf(learner.id))!
		expect(after.id).toBe(before.id)
		expect(after.status).toBe('active')
		expect(after.completed_at).toBeNull()
		expect(after.enrolled_at.getTime()).toBeGreaterThan(before.enrolled_at.getTime())
		expect((await auditActions(before.id))[0]).toBe('enrollment.admin_reactivated')

		// From the user page too.
		await admin.post(page, { intent: 'cancel-enrollment', courseSlug: 'intro-to-web', confirmed: 'yes' })
		const back = await admin.post(page, { intent: 'reenroll', courseSlug: 'intro-to-web' })
		expect(back.headers.location).toBe(`${page}?notice=enrollment-reactivated`)
		expect((await enrollmentOf(learner.id))?.status).toBe('active')
		expect((await admin.post(page, { intent: 'reenroll', courseSlug: 'intro-to-web' })).status).toBe(400)
		expect((await admin.post(page, { intent: 'cancel-enrollment', courseSlug: 'advanced-css' })).status).toBe(404)
		expect((await admin.post(page, { intent: 'cancel-enrollment', courseSlug: '../x' })).status).toBe(400)
	})

	it("shows a user's enrollments with progress and their latest quiz results", async () => {
		const admin = await freshAdmin()
		const lena = user('acme:learner@acme.test')
		await recordAttempt(stack.db, { tenantId: acme.id, userId: lena.id }, 'intro-to-web', 'basics-quiz', 3, {
			score: 67,
			passed: false,
			answers: {},
			feedback: [],
		})
		const $ = load((await admin.get(`/admin/users/${lena.id}`)).text)
		const enrollments = $('[aria-label="Enrollments"] tbody tr')
		expect(enrollments).toHaveLength(1)
		expect(enrollments.text()).toContain('Introduction to the Web')
		expect(enrollments.text()).toContain('1 of 5 entries (20%)')
		expect(enrollments.find('button').text()).toBe('Cancel enrollment in Introduction to the Web')
		const quizzes = $('[aria-label="Recent quiz results"] tbody tr')
		expect(quizzes.first().text()).toContain('Basics quiz (attempt 1)')
		expect(quizzes.first().text()).toContain('67%')
	})

	it('lets tenant and assigned course admins enroll; students 403, others 404; closed courses refused', async () => {
		const learner = await newUser('student')
		const student = await signIn(learner.email)
		expect((await student.get(ENROLL)).status).toBe(403)
		expect((await student.post(ENROLL, { intent: 'emails', emails: learner.email })).status).toBe(403)

		const unassigned = await signIn((await newUser('course_admin')).email)
		expect((await unassigned.get(ENROLL)).status).toBe(404)
		expect((await unassigned.post(ENROLL, { intent: 'emails', emails: learner.email })).status).toBe(404)
		expect(await enrollmentOf(learner.id)).toBeNull()

		const author = await signIn('author@acme.test')
		const page = load((await author.get(ENROLL)).text)
		// Inviting is a tenant admin's: no link to a page that is 404 for a course admin.
		expect(page('a[href="/admin/users/invite"]')).toHaveLength(0)
		const res = await author.post(ENROLL, { intent: 'emails', emails: learner.email })
		expect(report(res.text)).toEqual([{ given: learner.email, outcome: 'enrolled' }])
		// Nor to people's pages, which are 404 for them too.
		expect(load(res.text)('a[href^="/admin/users"]')).toHaveLength(0)
		expect(
			(await author.post('/admin/courses/advanced-css/enroll', { intent: 'emails', emails: 'x@acme.test' })).status,
		).toBe(404)
		// Cancelling stays with the tenant's admins (the user page is 404 for a course admin).
		const cancel = { intent: 'cancel-enrollment', courseSlug: 'intro-to-web', confirmed: 'yes' }
		expect((await author.post(`/admin/users/${learner.id}`, cancel)).status).toBe(404)
		expect((await enrollmentOf(learner.id))?.status).toBe('active')

		const admin = await freshAdmin()
		// A paid course takes seats (decision 0040, tests/integration/onboarding.test.ts).
		for (const slug of ['draft-course', 'retired-course']) {
			const refused = await admin.post(`/admin/courses/${slug}/enroll`, { intent: 'emails', emails: learner.email })
			expect(refused.status, slug).toBe(409)
			expect(await enrollmentOf(learner.id, slug)).toBeNull()
		}
		expect(
			(await admin.post('/admin/courses/globex-onboarding/enroll', { intent: 'emails', emails: learner.email })).status,
		).toBe(404)
		expect((await admin.post(ENROLL, { intent: 'nope' })).status).toBe(400)
	})

	it("never reaches another tenant's people or courses", async () => {
		const globexAdmin = await signIn('admin@globex.test', 'globex.localhost')
		const acmeLearner = await newUser('student')
		const res = await stack.request('globex.localhost', '/admin/courses/globex-onboarding/enroll', {
			method: 'POST',
			body: new URLSearchParams({ intent: 'emails', emails: acmeLearner.email }).toString(),
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: globexAdmin.origin,
				cookie: globexAdmin.cookieHeader(),
			},
		})
		// Invited to Globex, like any address without an account there: nothing about Acme's account.
		expect(report(res.text)).toEqual([{ given: acmeLearner.email, outcome: 'invited' }])
		expect(res.text).not.toContain(acmeLearner.name)
		const t = stack.db.t.enrollments
		expect(await stack.db.orm.select().from(t).where(eq(t.user_id, acmeLearner.id))).toEqual([])
		// Acme's learner on Globex's user page: 404, nothing cancelled.
		const lena = user('acme:learner@acme.test')
		const cancel = await stack.request('globex.localhost', `/admin/users/${lena.id}`, {
			method: 'POST',
			body: new URLSearchParams({
				intent: 'cancel-enrollment',
				courseSlug: 'intro-to-web',
				confirmed: 'yes',
			}).toString(),
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: globexAdmin.origin,
				cookie: globexAdmin.cookieHeader(),
			},
		})
		expect(cancel.status).toBe(404)
		const rows = await stack.db.orm
			.select()
			.from(t)
			.where(and(eq(t.user_id, lena.id), eq(t.course_slug, 'intro-to-web')))
		expect(rows.map((r) => r.status)).toEqual(['active'])
	})

	it('counts each enrollment post against the adminMutation limit: the 61st in a minute is 429', async () => {
		const admin = await freshAdmin()
		for (let i = 0; i < 60; i++) expect((await admin.post(ENROLL, { intent: 'emails', emails: '' })).status).toBe(400)
		const limited = await admin.post(ENROLL, { intent: 'emails', emails: 'x@acme.test' })
		expect(limited.status).toBe(429)
		expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
		expect(limited.text).toContain('Too many')
	})
})
