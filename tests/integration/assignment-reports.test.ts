import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { assignmentFigures } from '#db/assignment-reports.ts'
import { putEnrollment, type Scope } from '#db/learning.ts'
import { type GradeInput } from '#db/grading.ts'
import { recordSubmissionSteps, type Submission } from '#db/submissions.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser, gradeSubmission } from '#tests/support/repository.ts'

// Assignment figures on the course dashboard, in the CSV export and on the learner's dashboard
// (decision 0029), from submissions written through the data layer as the hand-in and grading routes do.

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const COURSE = 'intro-to-web'
const ENTRY = 'build-a-form'
const HOSTILE = '=HYPERLINK("x")'

describe.each(DIALECTS)('assignment reports on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globex: Tenant
	let passwordHash: string
	let grader: string
	// Acme learners of intro-to-web, by what their build-a-form hand-ins come to.
	// …and Greta, a Globex learner with work under the same course and entry slugs.
	const l = {} as Record<'passed' | 'resubmitted' | 'failed' | 'returned' | 'waiting' | 'none' | 'greta', User>
	let author: Browser

	let n = 0
	async function learner(tenant: Tenant, name?: string, enrolled = true) {
		const user = await createUser(stack.db, {
			tenant_id: tenant.id,
			email: `reports-${++n}@${tenant.slug}.test`,
			name: name ?? `Reporter ${n}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		if (enrolled) await putEnrollment(stack.db, { tenantId: tenant.id, userId: user.id }, COURSE, 'active')
		return user
	}
	const scope = (user: User): Scope => ({ tenantId: user.tenant_id!, userId: user.id })
	async function handIn(user: User, course = COURSE, entry = ENTRY): Promise<Submission> {
		const recorded = await inTransaction(stack.db, (tx) =>
			recordSubmissionSteps(tx, scope(user), course, entry, { text: 'my work', link: null, fileIds: [] }),
		)
		if (recorded.kind !== 'recorded') throw new Error('hand-in refused')
		return recorded.submission
	}
	async function grade(submission: Submission, input: Partial<GradeInput> & Pick<GradeInput, 'status'>) {
		const row = await gradeSubmission(stack.db, submission.tenant_id, submission.id, {
			score: null,
			maxScore: 10,
			passed: null,
			feedback: 'Thanks.',
			gradedBy: grader,
			...input,
		})
		expect(row, 'graded').not.toBeNull()
	}
	const signIn = (user: User, host = ACME) => stack.signIn(user.email, host)

	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globex = stack.seeded.tenants.globex
		passwordHash = await hashPassword(DEMO_PASSWORD)
		grader = stack.seeded.users['acme:author@acme.test'].id

		l.passed = await learner(acme, HOSTILE)
		await grade(await handIn(l.passed), { status: 'graded', score: 9, passed: true })
		// Returned with a score, then handed in again: only the resubmission, awaiting grading, counts.
		l.resubmitted = await learner(acme)
		await grade(await handIn(l.resubmitted), { status: 'returned', score: 3 })
		await handIn(l.resubmitted)
		l.failed = await learner(acme)
		await grade(await handIn(l.failed), { status: 'graded', score: 4, passed: false })
		l.returned = await learner(acme)
		await grade(await handIn(l.returned), { status: 'returned' })
		l.waiting = await learner(acme)
		await handIn(l.waiting)
		l.none = await learner(acme)

		// Another course of the same tenant, and the same course and entry slugs in another tenant:
		// none of it may show in Acme's intro-to-web figures, nor on other learners' dashboards.
		await grade(await handIn(l.failed, 'advanced-css', ENTRY), { status: 'graded', score: 10, passed: true })
		const gus = stack.seeded.users['globex:admin@globex.test'].id
		// Globex has no course of that slug to enroll in; the rows are there all the same.
		const greta = await learner(globex, 'Greta Reporter', false)
		const globexWork = await handIn(greta)
		await gradeSubmission(stack.db, globex.id, globexWork.id, {
			status: 'graded',
			score: 7,
			maxScore: 10,
			passed: true,
			feedback: 'Good.',
			gradedBy: gus,
		})
		await handIn(await learner(globex, undefined, false))
		l.greta = greta

		author = await signIn(stack.seeded.users['acme:author@acme.test'])
	})
	afterAll(() => stack?.close())

	it("counts each learner's newest submission per assignment, within the tenant and course", async () => {
		expect(await assignmentFigures(stack.db, acme.id, COURSE)).toEqual([
			{
				entrySlug: ENTRY,
				awaiting: 2,
				returned: 1,
				graded: 2,
				passed: 1,
				averageScore: 6.5,
				averageMax: 10,
				averageRatio: 0.65,
			},
		])
		expect(await assignmentFigures(stack.db, acme.id, 'advanced-css')).toMatchObject([
			{ entrySlug: ENTRY, awaiting: 0, graded: 1, passed: 1, averageScore: 10 },
		])
		expect(await assignmentFigures(stack.db, globex.id, COURSE)).toMatchObject([
			{ entrySlug: ENTRY, awaiting: 1, returned: 0, graded: 1, passed: 1, averageScore: 7 },
		])
	})

	it('shows the figures and each learner’s standing on the course dashboard', async () => {
		const page = await author.get(`/admin/courses/${COURSE}/dashboard`)
		expect(page.status).toBe(200)
		const $ = load(page.text)
		const figures = $('[role="region"][aria-label="Assignments"] tbody tr')
			.toArray()
			.map((tr) =>
				$(tr)
					.find('td')
					.toArray()
					.map((td) => $(td).text().trim()),
			)
		expect(figures).toEqual([['Build a sign-up form', '2', '1', '2', '1', '6.5/10']])
		expect($('[role="region"][aria-label="Assignments"] .bar').attr('style')).toContain('width:65%')

		const roster = $('[role="region"][aria-label^="Roster"]')
		const heads = roster
			.find('thead th')
			.toArray()
			.map((th) => $(th).text())
		const column = heads.indexOf('Build a sign-up form')
		expect(column).toBeGreaterThan(0)
		const cell = (user: User) =>
			roster
				.find('tbody tr')
				.filter((_, tr) => $(tr).find('td').first().text().includes(user.email))
				.find('td')
				.eq(column)
				.text()
		expect(cell(l.passed)).toBe('Graded, passed · 9/10')
		expect(cell(l.failed)).toBe('Graded, not passed · 4/10')
		expect(cell(l.resubmitted)).toBe('Awaiting grading')
		expect(cell(l.returned)).toBe('Returned for revision')
		expect(cell(l.waiting)).toBe('Awaiting grading')
		expect(cell(l.none)).toBe('Not submitted')
	})

	it('exports each assignment’s status, score, maximum and verdict per learner, formulas still escaped', async () => {
		const csv = await author.get(`/admin/courses/${COURSE}/export`)
		expect(csv.status).toBe(200)
		const lines = csv.text.trim().split('\r\n')
		expect(lines[0]).toBe(
			'"name","email","status","enrolled_at","completed_at","progress_percent","basics-quiz_best_score","basics-quiz_attempts","basics-quiz_complete","basics-quiz_passed","build-a-form_status","build-a-form_score","build-a-form_max_score","build-a-form_complete","build-a-form_passed","build-a-form_late","course_passed","average_percent","enrolled_at_utc","completed_at_utc","time_zone","basics-quiz_late"',
		)
		// The course result's two columns come after the assignment's (decision 0037), then the instants for
		// machines and the zone (0055), then the quiz's lateness (0061); the assignment's are checked without them.
		const full = (user: User) =>
			lines.find((x) => x.includes(`"${user.email}"`))!.replace(/,"[^"]*",(?:"[^"]*")?,"[^"]*",(?:"[^"]*")?$/, '')
		const line = (user: User) => full(user).replace(/,"(yes|no)",("\d+")?$/, '')
		expect(line(l.passed).startsWith(`"'=HYPERLINK(""x"")","${l.passed.email}","active",`)).toBe(true)
		// `_complete` is the stored entry state: these grades were written without the entry's progress row.
		expect(line(l.passed).endsWith(',"graded","9","10","no","yes","no"')).toBe(true)
		// Passed the assignment, not the course: its quiz is not passed.
		expect(full(l.passed)).toMatch(/,"graded","9","10","no","yes","no","no",("\d+")?$/)
		expect(line(l.failed).endsWith(',"graded","4","10","no","no","no"')).toBe(true)
		// The earlier returned submission's 3 points belong to work the learner has since replaced. Empty cells go unquoted.
		// Handed in before any due date (these rows were written without one): not late; nothing handed in: empty.
		expect(line(l.resubmitted).endsWith(',"submitted",,,"no",,"no"')).toBe(true)
		expect(line(l.returned).endsWith(',"returned",,,"no",,"no"')).toBe(true)
		expect(line(l.waiting).endsWith(',"submitted",,,"no",,"no"')).toBe(true)
		expect(line(l.none).endsWith(',"not_submitted",,,"no",,')).toBe(true)
		expect(lines.some((x) => x.includes('"10","10"'))).toBe(false)
		expect(csv.text).not.toContain(l.greta.email)
		expect(lines).toHaveLength(1 + 1 + 6) // header, the seeded learner, ours
	})

	it("lists a learner's own returned and graded work on their dashboard, nobody else's", async () => {
		const work = async (user: User, host = ACME) => {
			const page = await (await signIn(user, host)).get('/learn/dashboard')
			expect(page.status).toBe(200)
			const $ = load(page.text)
			return $('[role="region"][aria-label="Returned and graded work"] tbody tr')
				.toArray()
				.map((tr) => ({
					cells: $(tr)
						.find('td')
						.toArray()
						.slice(0, 3)
						.map(
							(td) =>
								$(td)
									.children()
									.toArray()
									.map((x) => $(x).text())
									.join(' | ') || $(td).text().trim(),
						),
					href: $(tr).find('a').attr('href'),
					date: $(tr).find('td').eq(3).text(),
				}))
		}
		expect(await work(l.passed)).toEqual([
			{
				cells: ['Build a sign-up form', 'Introduction to the Web', 'Graded | 9/10 (passed)'],
				href: `/learn/course/${COURSE}/entry/${ENTRY}`,
				// The date of the grade, in the page's locale (en: "Nov 25, 2026, 9:30 AM").
				date: expect.stringContaining(String(new Date().getUTCFullYear())),
			},
		])
		// Newest first; advanced-css is not a course this learner is enrolled in, so it is named by its slug.
		expect((await work(l.failed)).map((w) => w.cells)).toEqual([
			[ENTRY, 'advanced-css', 'Graded | 10/10 (passed)'],
			['Build a sign-up form', 'Introduction to the Web', 'Graded | 4/10 (not passed)'],
		])
		expect((await work(l.resubmitted)).map((w) => w.cells)).toEqual([
			['Build a sign-up form', 'Introduction to the Web', 'Returned for revision | 3/10'],
		])
		expect((await work(l.returned)).map((w) => w.cells)).toEqual([
			['Build a sign-up form', 'Introduction to the Web', 'Returned for revision'],
		])
		expect(await work(l.waiting)).toEqual([])
		expect(await work(l.none)).toEqual([])
		// The same course and entry slugs in another tenant: only Globex's own grade.
		expect((await work(l.greta, GLOBEX)).map((w) => w.cells)).toEqual([[ENTRY, COURSE, 'Graded | 7/10 (passed)']])
	})

	it('a dashboard without assignment work has no such section', async () => {
		const page = await (await signIn(l.none)).get('/learn/dashboard')
		expect(page.status).toBe(200)
		expect(page.text).not.toContain('Returned and graded work')
	})
})
