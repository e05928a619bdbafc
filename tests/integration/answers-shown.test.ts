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

// Issue 52, through HTTP: a second chance after the quiz showed its answers asks staff to confirm
// and is recorded with that fact (decision 0054); the quiz's top says Passed or Not passed with the
// score that counts; the outline, the roster and its CSV say a quiz's result beside its state.

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const COURSE = 'intro-to-web'
const QUIZ = `/learn/course/${COURSE}/entry/basics-quiz`
const LESSONS = ['what-is-http', 'html-forms', 'progressive-enhancement']
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }
const WRONG = { intent: 'submit-quiz', 'q:q-method': 'get', 'q:q-nojs': 'false', 'q:q-element': 'div' }
const learnerPage = (userId: string) => `/admin/courses/${COURSE}/learners/${userId}`
const text = (html: string, selector: string) => load(html)(selector).text().replace(/\s+/g, ' ').trim()

describe.each(DIALECTS)('answers shown and results beside states on %s', (dialect) => {
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
	async function enrolled() {
		n += 1
		const user = await createUser(stack.db, {
			tenant_id: acme.id,
			email: `shown-${n}@acme.test`,
			name: `Shown ${n}`,
			role: 'student',
			locale: 'en',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		const scope = { tenantId: acme.id, userId: user.id }
		await putEnrollment(stack.db, scope, COURSE, 'active')
		for (const slug of LESSONS) await markEntryCompleteRow(stack.db, scope, COURSE, slug)
		return { user, b: await stack.signIn(user.email, ACME) }
	}
	let authorBrowser: Promise<Browser> | null = null
	const author = () => (authorBrowser ??= stack.signIn('author@acme.test', ACME))
	async function grants(user: User) {
		const g = stack.db.t.second_chances
		return stack.db.orm.select().from(g).where(eq(g.user_id, user.id))
	}
	async function grantAudits(user: User) {
		const a = stack.db.t.audit_log
		return stack.db.orm
			.select()
			.from(a)
			.where(and(eq(a.action, 'learner.attempts_granted'), eq(a.target_id, user.id)))
	}
	/** The staff page's one-time key for the quiz's grant form. */
	async function grantKey(user: User) {
		const $ = load((await (await author()).get(learnerPage(user.id))).text)
		return $('form:has(input[name="intent"][value="grant-attempts"]) input[name="key"]').attr('value')!
	}
	const grant = (key: string, extra: Record<string, string> = {}) => ({
		intent: 'grant-attempts',
		entry: 'basics-quiz',
		attempts: '1',
		reason: 'Ill on the day',
		key,
		...extra,
	})

	describe('a learner who used every attempt and was shown the answers', () => {
		let learner: User
		let b: Browser
		let key: string
		beforeAll(async () => {
			;({ user: learner, b } = await enrolled())
			for (let i = 0; i < 3; i++) expect((await b.post(QUIZ, WRONG)).status).toBe(302)
			// Shown: the quiz's default rule reveals once every attempt is used.
			expect(text((await b.get(QUIZ)).text, '.quiz-attempts')).toContain('Correct answer: POST.')
			key = await grantKey(learner)
		})

		it('the quiz’s top says Not passed with the score that counts; the outline, roster and CSV say Complete · Not passed', async () => {
			const quiz = (await b.get(QUIZ)).text
			expect(text(quiz, '.quiz-standing')).toBe('Not passed score that counts: 0% (your best attempt)')
			const home = (await b.get(`/learn/course/${COURSE}`)).text
			const entry = load(home)(`li.entry:has(a[href$="/entry/basics-quiz"]) > span.hint`).text()
			expect(entry).toBe('Quiz · Complete · Not passed')
			// The spec's progress (every entry but the assignment complete) with the course's own result beside it.
			expect(text(home, '.progress span')).toMatch(/^80\s?% · 4 of 5 entries complete · Not passed$/)
			const roster = load((await (await author()).get(`/admin/courses/${COURSE}/dashboard`)).text)
			const row = roster(`table tbody tr:contains("${learner.email}")`)
			expect(row.text()).toContain('Complete · Not passed · 0% (3 attempts)')
			const csv = (await (await author()).get(`/admin/courses/${COURSE}/export`)).text.trim().split('\r\n')
			const header = csv[0].split(',').map((c) => c.replace(/"/g, ''))
			const cells = csv.find((l) => l.includes(learner.email))!.split(',')
			const cell = (name: string) => cells[header.indexOf(name)].replace(/"/g, '')
			expect([cell('basics-quiz_complete'), cell('basics-quiz_passed')]).toEqual(['yes', 'no'])
		})

		it('a GET with the confirmation in its query grants nothing', async () => {
			const query = new URLSearchParams(grant(key, { confirmed: 'yes' })).toString()
			const page = await (await author()).get(`${learnerPage(learner.id)}?${query}`)
			expect(page.status).toBe(200)
			expect(await grants(learner)).toEqual([])
		})

		it('a learner posting the grant form, confirmed or not, is refused and grants nothing', async () => {
			expect((await b.post(learnerPage(learner.id), grant(key))).status).toBe(403)
			expect((await b.post(learnerPage(learner.id), grant(key, { confirmed: 'yes' }))).status).toBe(403)
			expect(await grants(learner)).toEqual([])
		})

		it('another tenant’s course staff, confirmed, on its own host: 404 and nothing granted', async () => {
			const globexAdmin = await stack.signIn('admin@globex.test', GLOBEX)
			expect((await globexAdmin.post(learnerPage(learner.id), grant(key, { confirmed: 'yes' }))).status).toBe(404)
			expect(await grants(learner)).toEqual([])
		})

		it('staff are told the answers were shown and asked to confirm; a confirmation that is not "yes" asks again', async () => {
			for (const confirmed of [undefined, 'no', 'YES', 'yes ']) {
				const asked = await (
					await author()
				).post(learnerPage(learner.id), grant(key, confirmed === undefined ? {} : { confirmed }))
				// A malformed confirmation is refused by the form's schema; a missing one is asked for.
				if (confirmed === undefined) {
					expect(asked.status).toBe(200)
					const $ = load(asked.text)
					expect($('.confirm').text()).toContain('has been shown the correct answers of “Basics quiz”')
					// The confirmation is a plain form posting the same fields again.
					const form = $('.confirm form[method="post"]')
					expect(form.find('input[name="confirmed"]').attr('value')).toBe('yes')
					expect(form.find('input[name="key"]').attr('value')).toBe(key)
					expect(form.find('input[name="reason"]').attr('value')).toBe('Ill on the day')
				} else expect(asked.status).toBe(400)
			}
			expect(await grants(learner)).toEqual([])
		})

		it('confirmed: granted once and recorded with the fact; the confirmation replayed grants nothing more', async () => {
			const first = await (await author()).post(learnerPage(learner.id), grant(key, { confirmed: 'yes' }))
			expect(first.status).toBe(302)
			expect(first.headers.location).toBe(`${learnerPage(learner.id)}?notice=attempts-granted`)
			const again = await (await author()).post(learnerPage(learner.id), grant(key, { confirmed: 'yes' }))
			expect(again.status).toBe(302)
			expect(await grants(learner)).toHaveLength(1)
			const audits = await grantAudits(learner)
			expect(audits).toHaveLength(1)
			expect(audits[0].metadata).toMatchObject({ answersShown: true, extraAttempts: 1, entrySlug: 'basics-quiz' })
			// With an attempt again, the answers are withheld again and the learner may try.
			const quiz = (await b.get(QUIZ)).text
			expect(quiz).not.toContain('Correct answer: POST.')
			expect(load(quiz)('button[type="submit"]').text()).toContain('1 attempt left')
		})
	})

	it('a learner not shown the answers: granted without a question, recorded as not shown', async () => {
		const { user, b } = await enrolled()
		expect((await b.post(QUIZ, WRONG)).status).toBe(302)
		const granted = await (await author()).post(learnerPage(user.id), grant(await grantKey(user)))
		expect(granted.status).toBe(302)
		const [audit] = await grantAudits(user)
		expect(audit.metadata).toMatchObject({ answersShown: false })
	})

	it('a pass on the last attempt: the quiz’s top says Passed with the score that counts, not only review-only', async () => {
		const { b } = await enrolled()
		expect((await b.post(QUIZ, WRONG)).status).toBe(302)
		expect((await b.post(QUIZ, WRONG)).status).toBe(302)
		expect((await b.post(QUIZ, RIGHT)).status).toBe(302)
		const quiz = (await b.get(QUIZ)).text
		expect(text(quiz, '.quiz-standing')).toBe('Passed score that counts: 100% (your best attempt)')
		expect(load(quiz)('.quiz-standing .badge-ok')).toHaveLength(1)
		const home = (await b.get(`/learn/course/${COURSE}`)).text
		expect(load(home)(`li.entry:has(a[href$="/entry/basics-quiz"]) > span.hint`).text()).toBe(
			'Quiz · Complete · Passed',
		)
	})
})
