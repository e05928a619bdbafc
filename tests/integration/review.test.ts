import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import type { Tenant } from '#db/tenants.ts'
import { type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

// Review that keeps history (issue 39 part A): every attempt after a pass, graded feedback first,
// superseded hand-ins said so and counted in the queue, a locked deep link sent to the open entry
// of its own module. Through HTTP, as the learner and staff read the pages.

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const entryPath = (slug: string) => `/learn/course/${COURSE}/entry/${slug}`
const QUIZ = entryPath('basics-quiz')
const ASSIGNMENT = entryPath('build-a-form')
const QUEUE = `/admin/courses/${COURSE}/submissions`
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }
const WRONG = { intent: 'submit-quiz', 'q:q-method': 'get', 'q:q-nojs': 'false', 'q:q-element': 'div' }

describe.each(DIALECTS)('review that keeps history on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	let n = 0
	async function learner(done: string[] = []) {
		n += 1
		const user = await createUser(stack.db, {
			tenant_id: acme.id,
			email: `review-${n}@acme.test`,
			name: `Review ${n}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		const scope = { tenantId: acme.id, userId: user.id }
		await putEnrollment(stack.db, scope, COURSE, 'active')
		for (const slug of done) await markEntryCompleteRow(stack.db, scope, COURSE, slug)
		const b = stack.browser(ACME)
		expect((await b.post('/learn/sign-in', { email: user.email, password: DEMO_PASSWORD })).status).toBe(302)
		return { user, b }
	}
	let staffBrowser: Promise<Browser> | null = null
	const author = () =>
		(staffBrowser ??= (async () => {
			const b = stack.browser(ACME)
			expect((await b.post('/learn/sign-in', { email: 'author@acme.test', password: DEMO_PASSWORD })).status).toBe(302)
			return b
		})())
	async function submissionsOf(user: User) {
		const s = stack.db.t.assignment_submissions
		return stack.db.orm
			.select()
			.from(s)
			.where(and(eq(s.user_id, user.id), eq(s.course_slug, COURSE)))
			.orderBy(s.submission_number)
	}

	/** Which comes first in the page: the hand-in history or the hand-in form (both must be there). */
	const firstOf = (html: string) => {
		const both = load(html)('#hand-in-history, form[enctype="multipart/form-data"]')
		expect(both).toHaveLength(2)
		return both.first().is('form') ? 'form' : 'history'
	}

	it('after a pass, keeps every attempt visible with its answers and feedback', async () => {
		const { b } = await learner(['what-is-http', 'html-forms'])
		expect((await b.post(QUIZ, WRONG)).status).toBe(302)
		expect((await b.post(QUIZ, RIGHT)).status).toBe(302)
		const $ = load((await b.get(QUIZ)).text)
		const attempts = $('.quiz-attempts > li')
		expect(attempts).toHaveLength(2)
		// Oldest first; each with the learner's answers, right or wrong, and (passed: revealed) the correct answer.
		expect(attempts.eq(0).text()).toMatch(/Attempt 1/)
		expect(attempts.eq(0).find('.quiz-feedback li')).toHaveLength(3)
		expect(attempts.eq(0).text()).toContain('Your answer')
		expect(attempts.eq(0).text()).toContain('Correct answer')
		expect(attempts.eq(1).text()).toMatch(/Attempt 2/)
		expect($('.notice-ok').text()).toContain('You passed')
	})

	it('puts the graded feedback before the hand-in form, and says which hand-ins were superseded', async () => {
		const { user, b } = await learner(['progressive-enhancement'])
		expect((await b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: 'First version' })).status).toBe(302)
		expect((await b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: 'Second version' })).status).toBe(302)
		let $ = load((await b.get(ASSIGNMENT)).text)
		const items = $('.submissions > li')
		expect(items.eq(0).text()).toContain('Submission 2 · Awaiting grading')
		expect(items.eq(1).text()).toContain('Submission 1 · Superseded by a later hand-in')

		// The queue lists the newest only, and says how many wait from this learner.
		const queue = load((await (await author()).get(QUEUE)).text)
		const row = queue(`table tbody tr:contains("${user.email}")`)
		expect(row).toHaveLength(1)
		expect(row.find('td').first().text()).toContain('2 hand-ins waiting from this learner')

		// Graded below the pass mark: the learner may hand in again, and the grade and feedback come first.
		const [, newest] = await submissionsOf(user)
		const graded = await (
			await author()
		).post(`${QUEUE}/${newest.id}`, { intent: 'grade', score: '4', feedback: 'Label every field.' })
		expect(graded.status).toBe(302)
		const page = (await b.get(ASSIGNMENT)).text
		$ = load(page)
		expect($('form[enctype="multipart/form-data"]')).toHaveLength(1)
		expect(firstOf(page)).toBe('history')
		expect($('.submissions > li').first().text()).toContain('Label every field.')
		// The superseded one stays superseded: it was never graded.
		expect($('.submissions > li').eq(1).text()).toContain('Superseded by a later hand-in')
		expect(
			load((await (await author()).get(QUEUE)).text)(`table tbody tr:contains("${user.email}")`).text(),
		).not.toMatch(/waiting from this learner/)
	})

	it('before any grade, the form comes first and the history after it', async () => {
		const { b } = await learner(['progressive-enhancement'])
		expect((await b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: 'Only version' })).status).toBe(302)
		expect(firstOf((await b.get(ASSIGNMENT)).text)).toBe('form')
	})

	it('sends a locked deep link to the open entry of its own module, not another module’s first entry', async () => {
		// Nothing done: module 1 starts with what-is-http, module 2 with progressive-enhancement.
		const { b } = await learner()
		const locked = await b.get(ASSIGNMENT)
		expect(locked.status).toBe(302)
		expect(locked.headers.location).toBe(`${entryPath('progressive-enhancement')}?notice=complete_previous_in_module`)
		const inFirst = await b.get(QUIZ)
		expect(inFirst.headers.location).toBe(`${entryPath('what-is-http')}?notice=complete_previous_in_module`)
		// Part of the first module done: its next open entry, in order.
		const { b: b2 } = await learner(['what-is-http'])
		expect((await b2.get(QUIZ)).headers.location).toBe(`${entryPath('html-forms')}?notice=complete_previous_in_module`)
	})
})
