import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { normalizeAnswer } from '#app/learning/quiz.server.ts'
import { findEnrollment, listProgress } from '#db/learning.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { listSubmissions } from '#db/submissions.ts'
import type { Tenant } from '#db/tenants.ts'
import { type User } from '#db/users.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { DIALECTS, execRaw } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, createUser, recordAttempt } from '#tests/support/repository.ts'

/** The href of the page's link with `rel` (attributes in any order). */
function linkRel(html: string, rel: string) {
	const tag = [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]).find((a) => a.includes(` rel="${rel}"`))
	return tag ? /\shref="([^"]*)"/.exec(tag)?.[1] : undefined
}

/** The `<input>` tags of the page's field `name` with `value` (the quiz form's options and text fields). */
function inputs(html: string, name: string) {
	return [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((tag) => tag.includes(` name="${name}"`))
}
const checkedValue = (html: string, name: string) =>
	inputs(html, name)
		.filter((tag) => /\schecked(="[^"]*")?/.test(tag))
		.map((tag) => /\svalue="([^"]*)"/.exec(tag)?.[1])
const count = (text: string, part: string) => text.split(part).length - 1

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'
const entryPath = (slug: string, query = '') => `${COURSE}/entry/${slug}${query}`

const WRONG = { intent: 'submit-quiz', 'q:q-method': 'get', 'q:q-nojs': 'false', 'q:q-element': 'div' }
// Short answer with extra space and capitals: matched after normalization.
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': '  FORM ' }
// One of three right (33%, not passed): the method.
const PARTLY = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'false', 'q:q-element': 'div' }
// What gives the answers away: the explanations, the accepted short answers, the words that introduce an answer.
const REVEALING = [
	'Correct answer:',
	'GET must not change data',
	'Forms are plain HTML',
	'The &lt;form&gt; element',
	'form element',
	'correctOptionId',
	'acceptedAnswers',
]

describe.each(DIALECTS)("the learner's path on %s", (dialect) => {
	let stack: Stack
	let acme: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	let counter = 0
	/** A new student of Acme, signed in. */
	async function newLearner(): Promise<{
		b: ReturnType<Stack['browser']>
		user: User
		scope: { tenantId: string; userId: string }
	}> {
		const user = await createUser(stack.db, {
			tenant_id: acme.id,
			email: `learner-${++counter}@acme.test`,
			name: `Learner ${counter}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		const b = stack.browser(ACME)
		const res = await b.post('/learn/sign-in', { email: user.email, password: DEMO_PASSWORD })
		expect(res.status).toBe(302)
		return { b, user, scope: { tenantId: acme.id, userId: user.id } }
	}
	async function enrolled() {
		const l = await newLearner()
		expect((await l.b.post(`${COURSE}/enroll`, {})).status).toBe(302)
		return l
	}
	const complete = (b: ReturnType<Stack['browser']>, slug: string) => b.post(entryPath(slug), { intent: 'complete' })

	it('shows the public landing, 404 for unknown and draft courses, 410 for an archived one', async () => {
		const landing = await stack.request(ACME, COURSE)
		expect(landing.status).toBe(200)
		expect(landing.text).toContain('Introduction to the Web')
		expect(landing.text).toContain('Sign in to enroll')
		expect((await stack.request(ACME, '/learn/course/draft-course')).status).toBe(404)
		expect((await stack.request(ACME, '/learn/course/no-such-course')).status).toBe(404)
		expect((await stack.request(ACME, '/learn/course/retired-course')).status).toBe(410)
		const paid = await stack.request(ACME, '/learn/course/advanced-css')
		expect(paid.text).toContain('$49.00')
		expect(paid.text).toContain('paid course')
		// Another tenant's course does not exist on this host.
		expect((await stack.request('globex.localhost', '/learn/course/intro-to-web')).status).toBe(404)
	})

	it('shows an entry’s title once: a body that opens with it does not repeat it', async () => {
		const { b } = await enrolled()
		const $ = load((await b.get(entryPath('what-is-http'))).text)
		const headings = $('main h1, main h2')
			.toArray()
			.map((el) => $(el).text())
		expect(headings.filter((h) => h === 'What is HTTP?')).toEqual(['What is HTTP?'])
		expect($('main h1').text()).toBe('What is HTTP?')
	})

	it('sends visitors to sign-in from enroll and entry routes', async () => {
		for (const path of [`${COURSE}/enroll`, entryPath('what-is-http')]) {
			const res = await stack.request(ACME, path)
			expect(res.status).toBe(302)
			expect(res.headers.location).toBe(`/learn/sign-in?callbackUrl=${encodeURIComponent(path)}`)
		}
		const post = await stack.browser(ACME).post(`${COURSE}/enroll`, {})
		expect(post.headers.location).toBe(`/learn/sign-in?callbackUrl=${encodeURIComponent(`${COURSE}/enroll`)}`)
	})

	it('enrolls once: an active row, an audit row, the progress tag revalidated; duplicates change nothing', async () => {
		const { b, scope } = await newLearner()
		const before = stack.tags.version(`progress:${scope.userId}`)
		const res = await b.post(`${COURSE}/enroll`, {})
		expect(res.status).toBe(302)
		expect(res.headers.location).toBe(`${COURSE}?notice=enrolled`)
		const row = (await findEnrollment(stack.db, scope, 'intro-to-web'))!
		expect(row).toMatchObject({ status: 'active', tenant_id: acme.id, user_id: scope.userId, completed_at: null })
		expect(stack.tags.version(`progress:${scope.userId}`)).toBe(before + 1)
		expect((await auditRowsFor(stack.db, acme.id, row.id)).map((a) => a.action)).toEqual(['enrollment.created'])

		const again = await b.post(`${COURSE}/enroll`, {})
		expect(again.headers.location).toBe(COURSE)
		expect(await auditRowsFor(stack.db, acme.id, row.id)).toHaveLength(1)
		const home = await b.get(COURSE)
		expect(home.text).toContain('Start the course')
		expect(home.text).toContain('0 of 5 entries complete')
	})

	it('answers 501 for a paid course and writes nothing', async () => {
		const { b, scope } = await newLearner()
		const res = await b.post('/learn/course/advanced-css/enroll', {})
		expect(res.status).toBe(501)
		expect(res.text).toContain('online payment is not available')
		expect(await findEnrollment(stack.db, scope, 'advanced-css')).toBeNull()
	})

	it('reuses a cancelled enrollment: enrolled_at bumped, completed_at cleared, audit row', async () => {
		const { b, scope } = await enrolled()
		const e = stack.db.t.enrollments
		const old = new Date('2026-01-01T00:00:00Z')
		await stack.db.orm
			.update(e)
			.set({ status: 'cancelled', enrolled_at: old, completed_at: old })
			.where(and(eq(e.user_id, scope.userId), eq(e.course_slug, 'intro-to-web')))
		expect((await b.get(COURSE)).text).toContain('Enroll again')
		await b.post(`${COURSE}/enroll`, {})
		const row = (await findEnrollment(stack.db, scope, 'intro-to-web'))!
		expect(row.status).toBe('active')
		expect(row.completed_at).toBeNull()
		expect(row.enrolled_at.getTime()).toBeGreaterThan(old.getTime())
		expect((await auditRowsFor(stack.db, acme.id, row.id)).map((a) => a.action).sort()).toEqual([
			'enrollment.created',
			'enrollment.reactivated',
		])
	})

	it('leaves one row after 50 concurrent enrollments', async () => {
		const { b, scope } = await newLearner()
		const answers = await Promise.all(Array.from({ length: 50 }, () => b.post(`${COURSE}/enroll`, {})))
		const to = (location: string) => answers.filter((r) => r.status === 302 && r.headers.location === location).length
		const limited = answers.filter((r) => r.status === 429).length
		console.log(
			`enrollment race on ${dialect}: 50 requests, ${to(`${COURSE}?notice=enrolled`)} enrolled, ${to(COURSE)} duplicates, ${limited} answered 429`,
		)
		// The enrollment policy allows 30 a minute per user; a request over it writes nothing and answers 429.
		expect(answers.every((r) => r.status === 302 || r.status === 429)).toBe(true)
		expect(to(`${COURSE}?notice=enrolled`) + to(COURSE) + limited).toBe(50)
		expect(limited).toBe(20)
		// Exactly one request created the enrollment; the others found it.
		expect(to(`${COURSE}?notice=enrolled`)).toBe(1)
		const rows = await stack.db.orm
			.select()
			.from(stack.db.t.enrollments)
			.where(eq(stack.db.t.enrollments.user_id, scope.userId))
		expect(rows).toHaveLength(1)
		expect(rows[0].status).toBe('active')
		expect(await auditRowsFor(stack.db, acme.id, rows[0].id)).toHaveLength(1)
	})

	it('gates entries within a module, redirects a deep link with the reason, and records views', async () => {
		const { b, scope } = await enrolled()
		const locked = await b.get(entryPath('basics-quiz'))
		expect(locked.status).toBe(302)
		expect(locked.headers.location).toBe(entryPath('what-is-http', '?notice=complete_previous_in_module'))
		const shown = await b.get(locked.headers.location as string)
		expect(shown.status).toBe(200)
		expect(shown.text).toContain('That entry is locked')
		// The next entry is shown as locked, with why, not as a link that would only bounce back.
		const nav = load(shown.text)('nav.entry-nav')
		expect(nav.find('a[rel="next"]')).toHaveLength(0)
		expect(nav.find('.entry-next-locked').text()).toBe('HTML forms (locked: finish the earlier entries first)')
		// The first entry of the next module is open: no cross-module gating by default.
		expect((await b.get(entryPath('progressive-enhancement'))).status).toBe(200)
		const viewed = await listProgress(stack.db, scope, 'intro-to-web')
		expect(viewed.map((r) => r.entry_slug).sort()).toEqual(['progressive-enhancement', 'what-is-http'])
		expect(viewed.every((r) => r.last_viewed_at && !r.completed_at)).toBe(true)
		// An entry that is not in the course.
		expect((await b.get(entryPath('no-such-entry'))).status).toBe(404)
	})

	it('renders the entry when recording the view fails, and logs it', async () => {
		const { b, scope } = await enrolled()
		// A database fault only for view records: rows without a completion.
		const faults =
			stack.db.dialect === 'pg'
				? [
						`CREATE FUNCTION fail_views() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'view recording is down'; END $$ LANGUAGE plpgsql`,
						`CREATE TRIGGER fail_views BEFORE INSERT OR UPDATE ON entry_progress FOR EACH ROW WHEN (NEW.completed_at IS NULL) EXECUTE FUNCTION fail_views()`,
					]
				: [
						`CREATE TRIGGER fail_view_inserts BEFORE INSERT ON entry_progress WHEN NEW.completed_at IS NULL BEGIN SELECT RAISE(ABORT, 'view recording is down'); END`,
						`CREATE TRIGGER fail_view_updates BEFORE UPDATE ON entry_progress WHEN NEW.completed_at IS NULL BEGIN SELECT RAISE(ABORT, 'view recording is down'); END`,
					]
		const logged: string[] = []
		const original = console.log
		console.log = (line: unknown, ...rest: unknown[]) => {
			logged.push(String(line))
			original(line, ...rest)
		}
		try {
			for (const statement of faults) await execRaw(stack.db, statement)
			const page = await b.get(entryPath('what-is-http'))
			expect(page.status).toBe(200)
			expect(page.text).toContain('What is HTTP?')
			expect(await listProgress(stack.db, scope, 'intro-to-web')).toHaveLength(0)
			expect(logged.some((l) => l.includes('"event":"progress/view-not-recorded"'))).toBe(true)
		} finally {
			console.log = original
			const cleanup =
				stack.db.dialect === 'pg'
					? ['DROP TRIGGER fail_views ON entry_progress', 'DROP FUNCTION fail_views()']
					: ['DROP TRIGGER fail_view_inserts', 'DROP TRIGGER fail_view_updates']
			for (const statement of cleanup) await execRaw(stack.db, statement)
		}
	})

	it('gates across modules with the per-course sequential flag', async () => {
		const { b } = await enrolled()
		const t = stack.db.t.tenants
		await stack.db.orm
			.update(t)
			.set({ feature_flags_json: { courses: { 'intro-to-web': { sequential: true } } } })
			.where(eq(t.id, acme.id))
		// Written behind the app's back, so tell it (as the admin settings action does).
		stack.tags.revalidate(['tenants'])
		try {
			const res = await b.get(entryPath('progressive-enhancement'))
			expect(res.headers.location).toBe(entryPath('what-is-http', '?notice=complete_previous_in_course'))
		} finally {
			await stack.db.orm.update(t).set({ feature_flags_json: {} }).where(eq(t.id, acme.id))
			stack.tags.revalidate(['tenants'])
		}
	})

	it('marks entries complete, moving on through prev/next across modules, and revalidates tags', async () => {
		const { b, scope } = await enrolled()
		const before = [stack.tags.version('course:intro-to-web'), stack.tags.version(`progress:${scope.userId}`)]
		const res = await complete(b, 'what-is-http')
		// It moves on to the next entry and says that this one counted.
		expect(res.headers.location).toBe(entryPath('html-forms', '?notice=entry_completed'))
		expect((await b.get(String(res.headers.location))).text).toContain('Marked as complete. Here is the next entry.')
		expect(stack.tags.version('course:intro-to-web')).toBe(before[0] + 1)
		expect(stack.tags.version(`progress:${scope.userId}`)).toBe(before[1] + 1)
		const page = await b.get(entryPath('html-forms'))
		expect(linkRel(page.text, 'prev')).toBe(entryPath('what-is-http'))
		// The quiz stays locked until this entry is done: no link to it yet.
		expect(linkRel(page.text, 'next')).toBeUndefined()
		await complete(b, 'html-forms')
		expect(linkRel((await b.get(entryPath('html-forms'))).text, 'next')).toBe(entryPath('basics-quiz'))
		// The last entry of module one links to the first of module two.
		const quizPage = await b.get(entryPath('basics-quiz'))
		expect(linkRel(quizPage.text, 'next')).toBe(entryPath('progressive-enhancement'))
		// A quiz is completed by attempts, not by the button.
		expect((await complete(b, 'basics-quiz')).status).toBe(400)
		const done = (await listProgress(stack.db, scope, 'intro-to-web'))
			.filter((r) => r.completed_at)
			.map((r) => r.entry_slug)
		expect(done.sort()).toEqual(['html-forms', 'what-is-http'])
	})

	it('refuses progress without an enrollment', async () => {
		const { b, scope } = await newLearner()
		const res = await complete(b, 'what-is-http')
		expect(res.headers.location).toBe(`${COURSE}?notice=enroll_first`)
		expect(await listProgress(stack.db, scope, 'intro-to-web')).toHaveLength(0)
	})

	it('never sends correct or accepted answers before submission', async () => {
		const { b } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		const page = await b.get(entryPath('basics-quiz'))
		expect(page.status).toBe(200)
		expect(page.text).toContain('Which method should a form use')
		for (const secret of [
			'correctOptionId',
			'acceptedAnswers',
			'form element',
			'GET must not change data',
			'The &lt;form&gt; element',
			'Forms are plain HTML',
			'"correct"',
		]) {
			expect(page.text, secret).not.toContain(secret)
		}
	})

	it('grades server-side, fails then passes, and completes the quiz entry on a pass', async () => {
		const { b, scope } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		const first = await b.post(entryPath('basics-quiz'), WRONG)
		expect(first.headers.location).toBe(entryPath('basics-quiz', '?attempt=1'))
		const feedback = await b.get(first.headers.location as string)
		expect(feedback.text).toContain('Attempt 1: 0% · 0 of 3 correct · Not passed')
		expect(feedback.text).toContain('2 attempts left.')
		const second = await b.post(entryPath('basics-quiz'), RIGHT)
		expect(second.headers.location).toBe(entryPath('basics-quiz', '?attempt=2'))
		expect((await b.get(second.headers.location as string)).text).toContain('Attempt 2: 100% · 3 of 3 correct · Passed')
		const attempts = await listAttempts(stack.db, scope, 'intro-to-web', 'basics-quiz')
		expect(attempts.map((a) => [a.attempt_number, a.score, a.passed])).toEqual([
			[1, 0, false],
			[2, 100, true],
		])
		expect(attempts[1].answers_json).toEqual({ 'q-method': 'post', 'q-nojs': 'true', 'q-element': '  FORM ' })
		const progress = await listProgress(stack.db, scope, 'intro-to-web')
		expect(progress.find((r) => r.entry_slug === 'basics-quiz')?.completed_at).toBeTruthy()
	})

	it('completes the entry on the last allowed attempt, then is review-only', async () => {
		const { b, scope } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		for (let i = 1; i <= 3; i++)
			expect((await b.post(entryPath('basics-quiz'), WRONG)).headers.location).toBe(
				entryPath('basics-quiz', `?attempt=${i}`),
			)
		const fourth = await b.post(entryPath('basics-quiz'), RIGHT)
		expect(fourth.status).toBe(409)
		expect(fourth.text).toContain('review-only')
		const page = await b.get(entryPath('basics-quiz'))
		expect(page.text).toContain('This quiz is now review-only')
		expect(page.text).not.toContain('name="q:q-method"')
		expect((await listAttempts(stack.db, scope, 'intro-to-web', 'basics-quiz')).map((a) => a.attempt_number)).toEqual([
			1, 2, 3,
		])
		expect(
			(await listProgress(stack.db, scope, 'intro-to-web')).find((r) => r.entry_slug === 'basics-quiz')?.completed_at,
		).toBeTruthy()
	})

	it('after a failed attempt with attempts left, keeps the answers, marks the wrong ones and gives no answer away', async () => {
		const { b } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		const first = await b.post(entryPath('basics-quiz'), PARTLY)
		expect(first.headers.location).toBe(entryPath('basics-quiz', '?attempt=1'))
		for (const path of [first.headers.location as string, entryPath('basics-quiz')]) {
			const page = await b.get(path)
			for (const secret of REVEALING) expect(page.text, `${path}: ${secret}`).not.toContain(secret)
			// The form again, filled in with the answers sent, the two wrong ones marked for eyes and screen readers.
			expect(checkedValue(page.text, 'q:q-method')).toEqual(['post'])
			expect(checkedValue(page.text, 'q:q-nojs')).toEqual(['false'])
			expect(inputs(page.text, 'q:q-element')[0]).toContain(' value="div"')
			expect(page.text).toContain('Your previous answers are filled in.')
			const marked = [...page.text.matchAll(/<fieldset\b[^>]*aria-describedby="([^"]+)"[^>]*>/g)].map((m) => m[1])
			expect(marked).toEqual(['question-2-status', 'question-3-status'])
			for (const id of marked)
				expect(page.text).toMatch(new RegExp(`<p id="${id}" class="question-status">Incorrect</p>`))
		}
		const feedback = await b.get(first.headers.location as string)
		expect(feedback.text).toContain('2 attempts left.')
		expect(feedback.text).toContain('The correct answers are shown once you pass or have used every attempt.')

		// A second failure: attempts left are said beside the newest attempt only, never about a past one.
		await b.post(entryPath('basics-quiz'), PARTLY)
		const past = await b.get(entryPath('basics-quiz', '?attempt=1'))
		expect(past.text).toContain('Attempt 1: 33% · 1 of 3 correct · Not passed')
		expect(past.text).not.toMatch(/attempts? left\./)
		expect((await b.get(entryPath('basics-quiz', '?attempt=2'))).text).toContain('1 attempt left.')

		// A pass reveals the answers and explanations, and the form starts empty again.
		const third = await b.post(entryPath('basics-quiz'), RIGHT)
		const passed = await b.get(third.headers.location as string)
		expect(passed.text).toContain('Attempt 3: 100% · 3 of 3 correct · Passed')
		expect(passed.text).toContain('GET must not change data')
		expect(passed.text).toMatch(/Correct answer: <span lang="en">POST<\/span>/)
		expect(checkedValue(passed.text, 'q:q-method')).toEqual([])
		const earlier = await b.get(entryPath('basics-quiz', '?attempt=1'))
		// True and False are the interface's words, not the content's: no lang of their own.
		expect(earlier.text).toMatch(/Correct answer: (<!-- -->)?True(<!-- -->)?\./)
	})

	it('after the last attempt shows every attempt with its answers, score, outcome and the answers revealed', async () => {
		const { b } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		await b.post(entryPath('basics-quiz'), WRONG)
		await b.post(entryPath('basics-quiz'), PARTLY)
		await b.post(entryPath('basics-quiz'), WRONG)
		for (const path of [entryPath('basics-quiz'), entryPath('basics-quiz', '?attempt=1')]) {
			const page = await b.get(path)
			expect(page.text).toContain('This quiz is now review-only')
			expect(page.text).toContain('Your attempts')
			expect(page.text).toContain('Attempt 1: 0% · 0 of 3 correct · Not passed')
			expect(page.text).toContain('Attempt 2: 33% · 1 of 3 correct · Not passed')
			expect(page.text).toContain('Attempt 3: 0% · 0 of 3 correct · Not passed')
			expect(count(page.text, 'Submitted ')).toBe(3)
			// The learner's answers, then the correct one and the explanation, for every attempt.
			expect(page.text).toMatch(/Your answer: <span lang="en">GET<\/span>/)
			expect(page.text).toMatch(/Your answer: <span lang="en">div<\/span>/)
			expect(count(page.text, 'Correct answer: <span lang="en">POST</span>')).toBe(3)
			// (Counted as shown: the page's serialized data names each string once more.)
			expect(count(page.text, '<span lang="en">GET must not change data; POST is meant for it.</span>')).toBe(3)
			expect(page.text).not.toMatch(/attempts? left\./)
			expect(page.text).not.toContain('name="q:q-method"')
		}
	})

	it('keeps attempt numbers exactly 1..maxAttempts under 50 concurrent submissions', async () => {
		const { scope } = await newLearner()
		const results = await Promise.all(
			Array.from({ length: 50 }, () =>
				recordAttempt(stack.db, scope, 'intro-to-web', 'basics-quiz', 3, {
					score: 0,
					passed: false,
					answers: {},
					feedback: [],
				}),
			),
		)
		console.log(`quiz race (data layer) on ${dialect}: 50 submissions, ${results.filter(Boolean).length} recorded`)
		expect(results.filter(Boolean)).toHaveLength(3)
		expect((await listAttempts(stack.db, scope, 'intro-to-web', 'basics-quiz')).map((a) => a.attempt_number)).toEqual([
			1, 2, 3,
		])
	})

	it('keeps attempt numbers exactly 1..maxAttempts under 50 concurrent quiz posts by one user', async () => {
		const { b, scope } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		const answers = await Promise.all(Array.from({ length: 50 }, () => b.post(entryPath('basics-quiz'), WRONG)))
		const count = (status: number) => answers.filter((r) => r.status === status).length
		console.log(
			`quiz race (HTTP) on ${dialect}: 50 posts, ${count(302)} recorded, ${count(409)} review-only, ${count(429)} rate-limited`,
		)
		// Recorded (302 to the result), review-only once the attempts are used (409), or the quizSubmission limit (429).
		expect(answers.every((r) => [302, 409, 429].includes(r.status))).toBe(true)
		expect(count(302)).toBe(3)
		expect(
			answers
				.filter((r) => r.status === 302)
				.map((r) => r.headers.location)
				.sort(),
		).toEqual([1, 2, 3].map((n) => entryPath('basics-quiz', `?attempt=${n}`)))
		expect((await listAttempts(stack.db, scope, 'intro-to-web', 'basics-quiz')).map((a) => a.attempt_number)).toEqual([
			1, 2, 3,
		])
		// The last allowed attempt completed the entry.
		expect(
			(await listProgress(stack.db, scope, 'intro-to-web')).find((r) => r.entry_slug === 'basics-quiz')?.completed_at,
		).toBeTruthy()
	})

	it('completes the course when every entry is complete', async () => {
		const { b, scope } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		await b.post(entryPath('basics-quiz'), RIGHT)
		await complete(b, 'progressive-enhancement')
		// The graded assignment: handing in is not completing (decision 0027) ...
		const handIn = await b.post(entryPath('build-a-form'), { intent: 'hand-in', text: 'My form' })
		expect(handIn.headers.location).toBe(`${entryPath('build-a-form')}?notice=handed_in`)
		expect((await findEnrollment(stack.db, scope, 'intro-to-web'))!.status).toBe('active')
		// ... a passing grade by the course's staff is.
		const [submission] = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		const author = stack.browser(ACME)
		await author.post('/learn/sign-in', { email: 'author@acme.test', password: DEMO_PASSWORD })
		const grade = await author.post(`/admin/courses/intro-to-web/submissions/${submission.id}`, {
			intent: 'grade',
			score: '7',
			feedback: 'Labels everywhere.',
		})
		expect(grade.status).toBe(302)
		const row = (await findEnrollment(stack.db, scope, 'intro-to-web'))!
		expect(row.status).toBe('completed')
		expect(row.completed_at).not.toBeNull()
		expect((await auditRowsFor(stack.db, acme.id, row.id)).map((a) => a.action).sort()).toEqual([
			'enrollment.completed',
			'enrollment.created',
		])
		expect((await auditRowsFor(stack.db, acme.id, submission.id)).map((a) => a.action)).toEqual(['submission.graded'])
		const home = await b.get(`${COURSE}?notice=course_completed`)
		expect(home.text).toContain('You have completed this course')
		expect(home.text).toContain('5 of 5 entries complete')
	})

	it('lets staff preview without enrollment or locks, writing nothing', async () => {
		const author = stack.browser(ACME)
		await author.post('/learn/sign-in', { email: 'author@acme.test', password: DEMO_PASSWORD })
		const authorId = stack.seeded.users['acme:author@acme.test'].id
		const page = await author.get(entryPath('basics-quiz', '?preview=1'))
		expect(page.status).toBe(200)
		expect(page.text).toContain('Preview mode.')
		expect((await author.get(`${COURSE}?preview=1`)).text).toContain('Preview mode.')
		// Staff may try the quiz: graded and shown, never stored (decision 0026).
		const submit = await author.post(entryPath('basics-quiz', '?preview=1'), RIGHT)
		expect(submit.status).toBe(200)
		expect(submit.text).toContain('Nothing was saved')
		expect((await author.post(entryPath('what-is-http', '?preview=1'), { intent: 'complete' })).status).toBe(403)
		const scope = { tenantId: acme.id, userId: authorId }
		expect(await listProgress(stack.db, scope, 'intro-to-web')).toHaveLength(0)
		expect(await listAttempts(stack.db, scope, 'intro-to-web', 'basics-quiz')).toHaveLength(0)
		// Without ?preview=1 staff are treated like any unenrolled user.
		expect((await author.get(entryPath('what-is-http'))).headers.location).toBe(`${COURSE}?notice=enroll_first`)
		// A student cannot preview.
		const { b } = await enrolled()
		expect((await b.get(entryPath('basics-quiz', '?preview=1'))).status).toBe(302)
	})

	it('shows enrolled courses, resume links and recent quiz scores on the dashboard, scoped to the user', async () => {
		const { b } = await enrolled()
		await complete(b, 'what-is-http')
		await complete(b, 'html-forms')
		await b.post(entryPath('basics-quiz'), WRONG)
		await b.get(entryPath('progressive-enhancement'))
		const dash = await b.get('/learn/dashboard')
		expect(dash.status).toBe(200)
		expect(dash.text).toContain('Introduction to the Web')
		expect(dash.text).toContain('2 of 5 entries complete')
		expect(dash.text).toMatch(/Continue where you left off[\s\S]*Progressive enhancement/)
		expect(dash.text).toContain('0% (not passed)')
		// Someone else's dashboard shows none of it.
		const other = await newLearner()
		const theirs = await other.b.get('/learn/dashboard')
		expect(theirs.text).toContain('You are not enrolled in any course yet')
		expect(theirs.text).not.toContain('Recent quiz scores')
	})

	it('rate-limits enrollment with 429 and Retry-After', async () => {
		const { b } = await newLearner()
		const answers = []
		for (let i = 0; i < 31; i++) answers.push(await b.post('/learn/course/advanced-css/enroll', {}))
		expect(answers[29].status).toBe(501)
		expect(answers[30].status).toBe(429)
		expect(Number(answers[30].headers['retry-after'])).toBeGreaterThan(0)
	})
})

describe('short-answer normalization', () => {
	it('ignores surrounding space, case, inner runs of whitespace and compatibility forms', () => {
		expect(normalizeAnswer('  The   FORM\telement ')).toBe('the form element')
		expect(normalizeAnswer('ＦＯＲＭ')).toBe('form')
		expect(normalizeAnswer('form')).not.toBe(normalizeAnswer('forms'))
	})
})
