import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Course } from '#app/content/content.ts'
import { gradingJob } from '#app/learning/grading.server.ts'
import { createJobRunner, enqueue, type AppJobDeps } from '#app/jobs.server.ts'
import { createMailer } from '#app/platform/mailer.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { listAudit } from '#db/audit.ts'
import { findCourseSubmission, isWatching, setWatching } from '#db/grading.ts'
import { newId } from '#db/ids.ts'
import { assignCourseAdmin, findEnrollment, listProgress, markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import type { Locale } from '#db/schema/values.ts'
import { createFileRow, finishFileRow, recordSubmissionSteps, type Submission } from '#db/submissions.ts'
import { type Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { updateUser, type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, createUser, findTenantBySlug, gradeSubmission } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const ENTRY = 'build-a-form'
const QUEUE = `/admin/courses/${COURSE}/submissions`
const OTHER_ENTRIES = ['what-is-http', 'html-forms', 'basics-quiz', 'progressive-enhancement']

describe.each(DIALECTS)('grading on %s', (dialect) => {
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
	async function newUser(
		role: 'student' | 'course_admin' | 'tenant_admin',
		options: { tenant?: Tenant; locale?: Locale; name?: string } = {},
	) {
		const tenant = options.tenant ?? acme
		n += 1
		return createUser(stack.db, {
			tenant_id: tenant.id,
			email: `grading-${n}@${tenant.slug}.test`,
			name: options.name ?? `Person ${n}`,
			role,
			locale: options.locale ?? 'en',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
	}
	const signIn = (user: Pick<User, 'email'>, host = ACME) => stack.signIn(user.email, host)
	// Staff sessions are shared: each address has ten sign-ins per 15 minutes from the test's one address.
	let grader: Promise<Browser> | null = null
	const author = () => (grader ??= signIn({ email: 'author@acme.test' }))

	/** An enrolled learner's hand-in, stored as the hand-in form stores it (with files when asked). */
	async function handIn(
		user: User,
		input: { text?: string | null; link?: string | null; files?: string[]; entry?: string; course?: string } = {},
	): Promise<Submission> {
		const scope = { tenantId: user.tenant_id!, userId: user.id }
		const course = input.course ?? COURSE
		await putEnrollment(stack.db, scope, course, 'active')
		const fileIds: string[] = []
		for (const name of input.files ?? []) {
			const id = newId()
			await createFileRow(stack.db, scope, { id, fileName: name, contentType: 'application/pdf' })
			await finishFileRow(stack.db, id, 2048, 'a'.repeat(64))
			fileIds.push(id)
		}
		const recorded = await inTransaction(stack.db, (tx) =>
			recordSubmissionSteps(tx, scope, course, input.entry ?? ENTRY, {
				text: input.text === undefined ? 'My answer' : input.text,
				link: input.link ?? null,
				fileIds,
			}),
		)
		if (recorded.kind !== 'recorded') throw new Error('not recorded')
		return recorded.submission
	}
	const page = (id: string) => `${QUEUE}/${id}`
	/** The learners' emails in the queue's table, top to bottom. */
	const queueEmails = (html: string) => {
		const $ = load(html)
		return $('table tbody tr')
			.toArray()
			.map((tr) => /<([^>]+)>/.exec($(tr).find('td').first().text())?.[1] ?? '')
	}
	const fieldError = (html: string) => load(html)('.field-error').text()
	const formError = (html: string) => load(html)('.notice-error').text()

	describe('who reaches the queue and the grading page', () => {
		it('sends visitors to sign-in, refuses students with 403 and other courses’ admins with 404', async () => {
			const learner = await newUser('student')
			const sub = await handIn(learner)
			for (const path of [QUEUE, page(sub.id)]) {
				const res = await stack.request(ACME, path)
				expect(res.status, path).toBe(302)
				expect(res.headers.location).toMatch(/^\/learn\/sign-in\?callbackUrl=/)
			}
			const student = await signIn(learner)
			expect((await student.get(QUEUE)).status).toBe(403)
			expect((await student.get(page(sub.id))).status).toBe(403)
			expect((await student.post(page(sub.id), { intent: 'grade', score: '10' })).status).toBe(403)
			expect((await student.post(QUEUE, { intent: 'watch', watch: 'on' })).status).toBe(403)

			const cssAdmin = await newUser('course_admin')
			await assignCourseAdmin(stack.db, { tenantId: acme.id, userId: cssAdmin.id }, 'advanced-css', null)
			const other = await signIn(cssAdmin)
			expect((await other.get(QUEUE)).status).toBe(404)
			expect((await other.get(page(sub.id))).status).toBe(404)
			expect((await other.post(page(sub.id), { intent: 'grade', score: '10' })).status).toBe(404)
			expect((await other.get('/admin/courses/advanced-css/submissions')).status).toBe(200)
			expect((await findCourseSubmission(stack.db, acme.id, COURSE, sub.id))!.status).toBe('submitted')

			const tenantAdmin = await signIn({ email: 'admin@acme.test' })
			expect((await tenantAdmin.get(QUEUE)).status).toBe(200)
			expect((await tenantAdmin.get(page(sub.id))).status).toBe(200)
			const assigned = await author()
			expect((await assigned.get(QUEUE)).status).toBe(200)
			expect((await assigned.get(page(sub.id))).status).toBe(200)
		})

		it('links to the queue from the course dashboard, whose links all open', async () => {
			const b = await author()
			const $ = load((await b.get(`/admin/courses/${COURSE}/dashboard`)).text)
			expect($(`a[href="${QUEUE}"]`).text()).toBe('Submissions')
			const tenantAdmin = await signIn({ email: 'admin@acme.test' })
			expect(load((await tenantAdmin.get('/admin/courses')).text)(`a[href="${QUEUE}"]`).length).toBe(1)
		})

		it('answers 404 for another course’s or another tenant’s submission, and writes nothing', async () => {
			const learner = await newUser('student')
			const css = await handIn(learner, { course: 'advanced-css', entry: 'grid' })
			const globexLearner = await newUser('student', { tenant: globex })
			const foreign = await handIn(globexLearner)
			const b = await signIn({ email: 'admin@acme.test' })
			for (const id of [css.id, foreign.id, 'no-such-id']) {
				expect((await b.get(page(id))).status, id).toBe(404)
				expect((await b.post(page(id), { intent: 'grade', score: '10' })).status, id).toBe(404)
			}
			expect((await findCourseSubmission(stack.db, globex.id, COURSE, foreign.id))!.status).toBe('submitted')
			expect(queueEmails((await b.get(QUEUE)).text)).not.toContain(globexLearner.email)
			// The other tenant's admin does not reach this tenant's course through their own host either.
			const globexAdmin = await signIn({ email: 'admin@globex.test' }, 'globex.localhost')
			expect((await globexAdmin.get(page(foreign.id))).status).toBe(404)
		})
	})

	describe('the queue', () => {
		it('lists the newest submission per learner, awaiting first and oldest first, and filters by entry and status', async () => {
			const [a, b, c] = [await newUser('student'), await newUser('student'), await newUser('student')]
			const first = await handIn(a)
			await handIn(b)
			await handIn(c)
			// c's work is graded; a hands in again: a's newest (#2) is listed, not #1.
			const cSub = (await findQueueRow(c.email))!
			await gradeSubmission(stack.db, acme.id, cSub, {
				status: 'graded',
				score: 8,
				maxScore: 10,
				passed: true,
				feedback: '',
				gradedBy: (await admin()).id,
			})
			await gradeSubmission(stack.db, acme.id, first.id, {
				status: 'returned',
				score: null,
				maxScore: 10,
				passed: null,
				feedback: 'Again',
				gradedBy: (await admin()).id,
			})
			const again = await handIn(a)
			expect(again.submission_number).toBe(2)
			// A hand-in recorded for a lesson (no assignment) is left out when filtering by the assignment.
			const d = await newUser('student')
			await handIn(d, { entry: 'what-is-http' })

			const grader = await author()
			const all = queueEmails((await grader.get(QUEUE)).text)
			const ours = all.filter((e) => [a.email, b.email, c.email, d.email].includes(e))
			expect(ours).toEqual([b.email, a.email, d.email, c.email])
			const $ = load((await grader.get(QUEUE)).text)
			const aRow = $('tbody tr').filter((_, tr) => $(tr).text().includes(a.email))
			expect(aRow.find('a').attr('href')).toBe(page(again.id))
			expect(aRow.text()).toContain('awaiting grading')

			const awaiting = queueEmails((await grader.get(`${QUEUE}?status=submitted`)).text)
			expect(awaiting).toContain(a.email)
			expect(awaiting).not.toContain(c.email)
			const graded = load((await grader.get(`${QUEUE}?status=graded`)).text)
			expect(queueEmails(graded.html())).toContain(c.email)
			expect(queueEmails(graded.html())).not.toContain(b.email)
			expect(
				graded('tbody tr')
					.filter((_, tr) => graded(tr).text().includes(c.email))
					.text(),
			).toContain('8 / 10')
			const byEntry = queueEmails((await grader.get(`${QUEUE}?entry=${ENTRY}`)).text)
			expect(byEntry).toContain(b.email)
			expect(byEntry).not.toContain(d.email)
			// Unknown filter values are no filter.
			const loose = queueEmails((await grader.get(`${QUEUE}?entry=nope&status=lost`)).text)
			expect(loose).toContain(d.email)
			expect(loose).toContain(c.email)
			// The filter form is a GET form with the course's assignments only.
			const form = load((await grader.get(QUEUE)).text)
			expect(
				form('form[method="get"] select[name="entry"] option')
					.toArray()
					.map((o) => form(o).attr('value')),
			).toEqual(['', ENTRY])
		})

		async function findQueueRow(email: string) {
			const user = await findByEmail(email)
			const s = stack.db.t.assignment_submissions
			const rows = await stack.db.orm.select().from(s)
			return rows.find((r) => r.user_id === user.id)?.id
		}
		async function findByEmail(email: string) {
			const u = stack.db.t.users
			const rows = await stack.db.orm.select().from(u)
			return rows.find((r) => r.email === email && r.tenant_id === acme.id)!
		}
		const admin = () => findByEmail('admin@acme.test')
	})

	describe('grading', () => {
		it('grades with a passing score: the audit row, the entry completed, and the course with the last entry', async () => {
			const learner = await newUser('student')
			const scope = { tenantId: acme.id, userId: learner.id }
			const sub = await handIn(learner)
			for (const slug of OTHER_ENTRIES) await markEntryCompleteRow(stack.db, scope, COURSE, slug)
			const b = await author()
			const res = await b.post(page(sub.id), { intent: 'grade', score: '7', feedback: 'Well done' })
			expect(res.status).toBe(302)
			expect(res.headers.location).toBe(`${QUEUE}?notice=graded`)
			const row = (await findCourseSubmission(stack.db, acme.id, COURSE, sub.id))!
			expect(row).toMatchObject({ status: 'graded', score: 7, max_score: 10, passed: true, feedback: 'Well done' })
			const audit = await auditRowsFor(stack.db, acme.id, sub.id)
			expect(audit.map((a) => a.action)).toEqual(['submission.graded'])
			expect(audit[0].metadata).toMatchObject({ learnerUserId: learner.id, score: 7, maxScore: 10, passed: true })
			const progress = await listProgress(stack.db, scope, COURSE)
			expect(progress.find((p) => p.entry_slug === ENTRY)?.completed_at).toBeTruthy()
			expect((await findEnrollment(stack.db, scope, COURSE))!.status).toBe('completed')
			const notice = await b.get(res.headers.location as string)
			expect(notice.text).toContain('Graded. The learner is being emailed.')
			// The page now shows the outcome and no form.
			const after = load((await b.get(page(sub.id))).text)
			expect(after('button[name="intent"]').length).toBe(0)
			expect(after('main').text()).toContain('7 / 10')
		})

		it('records a score under the pass mark as not passed, and leaves the entry open', async () => {
			const learner = await newUser('student')
			const sub = await handIn(learner)
			const b = await author()
			// The grader is told what a grade under the mark means (decision 0030).
			expect(load((await b.get(page(sub.id))).text)('main').text()).toContain(
				'Pass mark: 6. Below it the learner may hand in again; a passing grade is final.',
			)
			expect((await b.post(page(sub.id), { intent: 'grade', score: '5' })).status).toBe(302)
			expect(await findCourseSubmission(stack.db, acme.id, COURSE, sub.id)).toMatchObject({ passed: false, score: 5 })
			const progress = await listProgress(stack.db, { tenantId: acme.id, userId: learner.id }, COURSE)
			expect(progress.find((p) => p.entry_slug === ENTRY)?.completed_at ?? null).toBeNull()
		})

		it('returns for revision with feedback; the newer hand-in supersedes the returned one, whose feedback shows in the history', async () => {
			const learner = await newUser('student')
			const first = await handIn(learner, { text: 'First try' })
			const b = await author()
			const noFeedback = await b.post(page(first.id), { intent: 'return', score: '3' })
			expect(noFeedback.status).toBe(400)
			expect(fieldError(noFeedback.text)).toContain('Say what to revise')
			const res = await b.post(page(first.id), { intent: 'return', feedback: 'Label every field.' })
			expect(res.headers.location).toBe(`${QUEUE}?notice=returned`)
			expect(await findCourseSubmission(stack.db, acme.id, COURSE, first.id)).toMatchObject({
				status: 'returned',
				score: null,
				passed: null,
				feedback: 'Label every field.',
			})
			expect((await auditRowsFor(stack.db, acme.id, first.id)).map((a) => a.action)).toEqual(['submission.returned'])

			const second = await handIn(learner, { text: 'Second try' })
			const old = load((await b.get(page(first.id))).text)
			expect(old('button[name="intent"]').length).toBe(0)
			expect(old(`a[href="${page(second.id)}"]`).text()).toBe('Open the newest submission')
			const current = load((await b.get(page(second.id))).text)
			const history = current('article')
			expect(history.length).toBe(1)
			expect(history.text()).toContain('First try')
			expect(history.text()).toContain('Label every field.')
			expect(history.text()).toContain('returned for revision')
		})

		it('answers 409 to a second grade, and to grading a submission a newer one replaced', async () => {
			const learner = await newUser('student')
			const sub = await handIn(learner)
			const b = await author()
			const [one, two] = await Promise.all([
				b.post(page(sub.id), { intent: 'grade', score: '9' }),
				b.post(page(sub.id), { intent: 'grade', score: '2' }),
			])
			expect([one.status, two.status].sort()).toEqual([302, 409])
			const refused = one.status === 409 ? one : two
			expect(formError(refused.text)).toContain('Nothing was saved')
			expect((await auditRowsFor(stack.db, acme.id, sub.id)).length).toBe(1)

			const other = await newUser('student')
			const older = await handIn(other)
			await handIn(other)
			const stale = await b.post(page(older.id), { intent: 'grade', score: '9' })
			expect(stale.status).toBe(409)
			expect((await findCourseSubmission(stack.db, acme.id, COURSE, older.id))!.status).toBe('submitted')
		})

		it('refuses a score out of range, not whole or missing, with the field’s error, and writes nothing', async () => {
			const learner = await newUser('student')
			const sub = await handIn(learner)
			const b = await author()
			for (const score of ['11', '-1', '7.5', 'ten', '', '1e9']) {
				const res = await b.post(page(sub.id), { intent: 'grade', score, feedback: 'x' })
				expect(res.status, score).toBe(400)
				expect(fieldError(res.text), score).toContain('Enter a whole number from 0 to the maximum score.')
				// The typed feedback is kept.
				expect(load(res.text)('textarea[name="feedback"]').text()).toBe('x')
			}
			const unknown = await b.post(page(sub.id), { intent: 'publish', score: '5' })
			expect(unknown.status).toBe(400)
			expect(formError(unknown.text)).toContain('Choose “Grade” or “Return for revision”.')
			const long = await b.post(page(sub.id), { intent: 'grade', score: '5', feedback: 'a'.repeat(5001) })
			expect(long.status).toBe(400)
			expect(fieldError(long.text)).toContain('at most 5,000 characters')
			expect((await findCourseSubmission(stack.db, acme.id, COURSE, sub.id))!.status).toBe('submitted')
			expect(await auditRowsFor(stack.db, acme.id, sub.id)).toEqual([])
		})

		it('shows hostile text, links, names and feedback inert', async () => {
			const learner = await newUser('student', { name: '<img src=x onerror=alert(1)>' })
			const text = `<script>alert("t")</script>\n${'long '.repeat(20_000)}`
			const first = await handIn(learner, { text, link: 'javascript:alert(1)', files: ['<b>report</b>.pdf'] })
			const b = await author()
			const res = await b.post(page(first.id), { intent: 'return', feedback: '<script>alert("f")</script>' })
			expect(res.status).toBe(302)
			const second = await handIn(learner, { text: 'ok', link: 'https://example.test/my work?x=1' })
			for (const id of [first.id, second.id]) {
				const html = (await b.get(page(id))).text
				expect(html).not.toContain('<script>alert')
				expect(html).not.toContain('<img src=x')
				expect(html).not.toContain('<b>report')
				expect(html).not.toMatch(/href="javascript:/i)
				const $ = load(html)
				expect($('main').text()).toContain('<script>alert("t")</script>')
				expect($('main').text()).toContain('<script>alert("f")</script>')
				expect($('main').text()).toContain('javascript:alert(1)')
				expect($('main').text()).toContain('<img src=x onerror=alert(1)>')
			}
			const $ = load((await b.get(page(second.id))).text)
			const link = $('a[href^="https://example.test/"]')
			expect(link.attr('rel')).toBe('noopener noreferrer nofollow ugc')
			expect(link.text()).toBe('https://example.test/my work?x=1')
			const old = load((await b.get(page(first.id))).text)
			const files = old('a[href^="/api/files/"]')
			expect(files.length).toBe(1)
			expect(files.text()).toBe('<b>report</b>.pdf')
			expect(old('main').text()).toContain('(2 kB)')
		})
	})

	describe('email', () => {
		it('tells the learner in their locale when work is graded, and when it is returned', async () => {
			const de = await newUser('student', { locale: 'de' })
			const fr = await newUser('student', { locale: 'fr' })
			const b = await author()
			const deSub = await handIn(de)
			const frSub = await handIn(fr)
			expect((await b.post(page(deSub.id), { intent: 'grade', score: '9' })).status).toBe(302)
			expect((await b.post(page(frSub.id), { intent: 'return', feedback: 'Encore' })).status).toBe(302)
			await stack.settled()
			const graded = await stack.mail.waitFor(de.email)
			expect(graded.subject).toMatch(/^Ihre Arbeit wurde bewertet · /)
			// Titles in the learner's language where the content has it (the course), else the default (the entry).
			expect(graded.text).toContain('Ihre Arbeit zu „Build a sign-up form“ im Kurs Einführung ins Web wurde bewertet.')
			expect(graded.html).toContain('lang="de"')
			expect(linkIn(graded, '/de/learn/')).toBe(`/de/learn/course/${COURSE}/entry/${ENTRY}`)
			const returned = await stack.mail.waitFor(fr.email)
			expect(returned.subject).toMatch(/^Votre travail vous a été renvoyé pour révision · /)
			expect(linkIn(returned, '/fr/learn/')).toBe(`/fr/learn/course/${COURSE}/entry/${ENTRY}`)
			// The link opens the entry in the mail's language (signing in first).
			expect((await stack.request(ACME, `/de/learn/course/${COURSE}/entry/${ENTRY}`)).status).toBe(302)
		})

		it('lets staff opt into a notice per hand-in, sent only to those who may still grade the course', async () => {
			const watcher = await newUser('course_admin', { locale: 'es' })
			await assignCourseAdmin(stack.db, { tenantId: acme.id, userId: watcher.id }, COURSE, null)
			const b = await signIn(watcher)
			const on = await b.post(QUEUE, { intent: 'watch', watch: 'on' })
			expect(on.status).toBe(302)
			expect(on.headers.location).toBe(`/es${QUEUE}?notice=watch-saved`)
			expect(await isWatching(stack.db, { tenantId: acme.id, userId: watcher.id, courseSlug: COURSE })).toBe(true)
			expect(load((await b.get(`/es${QUEUE}`)).text)('input[name="watch"]').attr('checked')).toBeDefined()

			const tenantAdmin = await newUser('tenant_admin')
			const revoked = await newUser('course_admin')
			const otherCourse = await newUser('course_admin')
			const gone = await newUser('tenant_admin')
			const demoted = await newUser('tenant_admin')
			await assignCourseAdmin(stack.db, { tenantId: acme.id, userId: otherCourse.id }, 'advanced-css', null)
			for (const u of [tenantAdmin, revoked, otherCourse, gone, demoted])
				await setWatching(stack.db, { tenantId: acme.id, userId: u.id, courseSlug: COURSE }, true)
			await updateUser(stack.db, gone.id, { deactivated_at: new Date() })
			await updateUser(stack.db, demoted.id, { role: 'student' })

			const learner = await newUser('student', { name: 'Lea <Lernerin>' })
			const sub = await handIn(learner)
			const course = {
				slug: COURSE,
				title: 'Introduction to the Web',
				modules: [{ slug: 'm', title: 'M', entries: [{ slug: ENTRY, type: 'assignment', title: 'Build a form' }] }],
			} as unknown as Course
			const origin = `http://${ACME}:${stack.port}`
			/** What a new hand-in leaves in its transaction (handIn): the notice's job; the queue's worker does the rest. */
			async function handedIn(submission: Submission) {
				await enqueue(stack.db, 'mail.submissionReceived', gradingJob({ origin, locale: 'en' }, course, submission))
				await stack.settled()
			}
			await handedIn(sub)
			const mail = await stack.mail.waitFor(watcher.email)
			expect(mail.subject).toMatch(/^Nuevo trabajo por calificar · /)
			// Titles in the watcher's language, read when the notice goes.
			expect(mail.text).toContain(
				'Lea <Lernerin> ha entregado «Crea un formulario de registro» del curso Introducción a la Web.',
			)
			expect(mail.html).not.toContain('<Lernerin>')
			expect(linkIn(mail, '/es/admin/')).toBe(`/es${page(sub.id)}`)
			// The content service out of reach when a notice goes: the titles the request had, the site's name from the tenant.
			const offline = {
				db: stack.db,
				mailer: createMailer(stack.env),
				env: stack.env,
				cms: {
					course: () => Promise.reject(new Error('offline')),
					site: () => Promise.reject(new Error('offline')),
				},
			} as unknown as AppJobDeps
			await createJobRunner(offline)({
				id: 'direct',
				name: 'mail.watcherNotice',
				attempt: 1,
				payload: { ...gradingJob({ origin, locale: 'en' }, course, sub), userId: watcher.id },
			})
			const fallback = await stack.mail.waitFor(watcher.email, 1)
			expect(fallback.text).toContain('Lea <Lernerin> ha entregado «Build a form» del curso Introduction to the Web.')
			expect(fallback.subject).toBe(`Nuevo trabajo por calificar · ${acme.name}`)
			expect((await stack.mail.waitFor(tenantAdmin.email)).subject).toMatch(/^New work to grade · /)
			for (const u of [revoked, otherCourse, gone, demoted, learner]) expect(stack.mail.count(u.email), u.email).toBe(0)

			// Each attempt says what it did: the mails a transport took, and why none when there was nobody to tell
			// (issue 46: completed mail jobs that sent nothing were silent).
			const lines: Array<Record<string, unknown>> = []
			const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
				const parsed = typeof line === 'string' && line.startsWith('{') ? JSON.parse(line) : null
				if (parsed?.event === 'job/done') lines.push(parsed)
			})
			try {
				const run = createJobRunner(offline)
				const notice = { ...gradingJob({ origin, locale: 'en' }, course, sub) }
				await run({ id: 'demoted', name: 'mail.watcherNotice', attempt: 1, payload: { ...notice, userId: demoted.id } })
			} finally {
				spy.mockRestore()
			}
			expect(lines.map(({ id, mails, note }) => ({ id, mails, note }))).toEqual([
				{ id: 'demoted', mails: 0, note: 'no longer a watcher who may grade' },
			])

			// Turned off: no more notices.
			expect((await b.post(QUEUE, { intent: 'watch' })).status).toBe(302)
			expect(await isWatching(stack.db, { tenantId: acme.id, userId: watcher.id, courseSlug: COURSE })).toBe(false)
			await handedIn(await handIn(await newUser('student')))
			expect(stack.mail.count(watcher.email)).toBe(2)
			expect(stack.mail.count(tenantAdmin.email)).toBe(2)
			// One's own mail preference: turning it on and off writes no audit row (decision 0031).
			expect(await listAudit(stack.db, { tenantId: acme.id, actor: watcher.id })).toEqual([])
		})
	})

	it('reads grading rows of the audit log as a sentence naming the learner and the score', async () => {
		const learner = await newUser('student', { name: 'Audit Learner' })
		const sub = await handIn(learner)
		const b = await author()
		expect((await b.post(page(sub.id), { intent: 'grade', score: '6' })).status).toBe(302)
		const admin = await signIn({ email: 'admin@acme.test' })
		const $ = load((await admin.get('/admin/audit?action=submission.graded')).text)
		const row = $('tbody tr').filter((_, tr) => $(tr).text().includes(learner.email))
		expect(row.find('.audit-sentence').text()).toBe(
			`Graded submission 1 of ${COURSE}/${ENTRY} by Audit Learner <${learner.email}>: 6 / 10, passed`,
		)
		expect(row.text()).toContain('Arthur Author')
	})

	it('limits grading like other admin mutations: the 61st post in a minute answers 429', async () => {
		const learner = await newUser('student')
		const sub = await handIn(learner)
		const busy = await signIn(await newUser('tenant_admin'))
		for (let i = 0; i < 60; i++)
			expect((await busy.post(page(sub.id), { intent: 'grade', score: '99' })).status).toBe(400)
		const limited = await busy.post(page(sub.id), { intent: 'grade', score: '9' })
		expect(limited.status).toBe(429)
		expect(limited.headers['retry-after']).toBeTruthy()
		expect((await findCourseSubmission(stack.db, acme.id, COURSE, sub.id))!.status).toBe('submitted')
	})
})

describe.each(DIALECTS)('grading an ungraded assignment on %s', (dialect) => {
	let stack: Stack
	let contentDir: string
	let acme: Tenant
	beforeAll(async () => {
		// The demo content with build-a-form's rules taken out: an ungraded hand-in (decision 0027's default).
		contentDir = mkdtempSync(join(tmpdir(), 'lms-grading-cms-'))
		cpSync('cms/content', contentDir, { recursive: true })
		const file = join(contentDir, 'acme/courses/intro-to-web.json')
		const course = JSON.parse(readFileSync(file, 'utf8'))
		for (const m of course.modules) for (const e of m.entries) if (e.slug === ENTRY) delete e.assignment
		writeFileSync(file, JSON.stringify(course))
		stack = await startStack(dialect, {}, { cmsContentDir: contentDir })
		acme = (await findTenantBySlug(stack.db, 'acme'))!
	})
	afterAll(async () => {
		await stack?.close()
		if (contentDir) rmSync(contentDir, { recursive: true, force: true })
	})

	it('asks for no score: grading sends feedback only, with no score and no verdict', async () => {
		const learner = stack.seeded.users['acme:learner@acme.test']
		const scope = { tenantId: acme.id, userId: learner.id }
		const recorded = await inTransaction(stack.db, (tx) =>
			recordSubmissionSteps(tx, scope, COURSE, ENTRY, { text: 'Done', link: null, fileIds: [] }),
		)
		if (recorded.kind !== 'recorded') throw new Error('not recorded')
		const id = recorded.submission.id
		const b = stack.browser(ACME)
		expect((await b.post('/learn/sign-in', { email: 'author@acme.test', password: DEMO_PASSWORD })).status).toBe(302)
		const $ = load((await b.get(`${QUEUE}/${id}`)).text)
		expect($('input[name="score"]').length).toBe(0)
		expect($('main').text()).toContain('This assignment is not graded')
		// A score sent anyway is not stored.
		const res = await b.post(`${QUEUE}/${id}`, { intent: 'grade', score: '99', feedback: 'Thanks, nicely done.' })
		expect(res.status).toBe(302)
		expect(await findCourseSubmission(stack.db, acme.id, COURSE, id)).toMatchObject({
			status: 'graded',
			score: null,
			passed: null,
			feedback: 'Thanks, nicely done.',
		})
		const [audit] = await auditRowsFor(stack.db, acme.id, id)
		expect(audit.action).toBe('submission.graded')
		expect(audit.metadata).not.toHaveProperty('score')
		// Feedback without a verdict is final (decision 0030): nothing more is handed in.
		const after = await inTransaction(stack.db, (tx) =>
			recordSubmissionSteps(tx, scope, COURSE, ENTRY, { text: 'One more', link: null, fileIds: [] }),
		)
		expect(after.kind).toBe('final')
		await stack.settled()
		expect((await stack.mail.waitFor('learner@acme.test')).subject).toMatch(/^Your work has been graded · /)
	})
})
