import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { openDatabase, type Database } from '#db/client.ts'
import { newId } from '#db/ids.ts'
import { markEntryCompleteRow } from '#db/learning.ts'
import { seedDemoData } from '#db/seed.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { browser, type Browser } from '#tests/support/client.ts'
import { contentWithCopies } from '#tests/support/content-copies.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS, testEnv } from '#tests/support/env.ts'
import { freePort } from '#tests/support/http.ts'
import { loadBuiltServer } from '#tests/support/stack.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

// Queries per signed-in learner page (issue 47): each page sends a fixed number of SQL statements,
// the same for a learner in one course as in ten, and for a course of five entries as for one of
// fifty. Counted from the statements the app's own database handle sends (drizzle's logger), on
// each database.

const COURSE = '/learn/course/intro-to-web'
/** The course's pages, each one a learner opens; every entry here is open once the lessons before it are done. */
const PAGES = {
	dashboard: '/learn/dashboard',
	'course home': COURSE,
	lesson: `${COURSE}/entry/what-is-http`,
	quiz: `${COURSE}/entry/basics-quiz`,
	assignment: `${COURSE}/entry/build-a-form`,
}
/**
 * What each page sends, on both databases: the session with its user (1), then the page's own reads. The
 * dashboard: enrollments, progress, recent attempts, graded work, results, certificates, and the due
 * lines' zone, hand-ins awaiting a grade and extensions (9). A course page: the course's enrollment and
 * progress once (2) and its due lines' three; the home adds the course result's quiz and assignment scores (2); an
 * entry records the view (1), a quiz reads its attempts and allowance (2), an assignment its hand-ins
 * and allowance (2).
 */
const EXPECTED: Record<keyof typeof PAGES, number> = {
	dashboard: 10,
	'course home': 8,
	lesson: 7,
	quiz: 9,
	assignment: 9,
}
const DAY = 24 * 60 * 60 * 1000
const COPIES = 9
/** A course with ten times intro-to-web's modules (the first one as it is). */
const BIG = 'big-course'

describe.each(DIALECTS)('queries per learner page on %s', (dialect) => {
	let db: TestDatabase
	let counting: Database
	let close: () => Promise<void>
	let statements: string[] | null = null
	let port: number
	const learners: { one?: Browser; ten?: Browser } = {}

	beforeAll(async () => {
		const content = contentWithCopies(COPIES, BIG)
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
		// The app's own handle: every statement it sends while a page is asked for is counted; the job
		// queue's polls (a timer, not the page) are left out.
		counting = openDatabase(db.url, {
			onQuery: (sql, params) => {
				if (statements && !/\b(jobs|pgboss)\b/.test(sql)) statements.push(`${sql} ${JSON.stringify(params)}`)
			},
		})
		const cms = await startCms({
			apiKey: TEST_SECRETS.CMS_API_UUID,
			projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
			contentDir: content.dir,
		})
		const { listen } = await loadBuiltServer()
		port = await freePort()
		// AUTH_URL is the origin browsers use: its port is the app's (the sign-in form's origin check).
		const env = testEnv({ AUTH_URL: `http://localhost:${port}`, DATABASE_URL: db.url, CMS_API_URL: cms.url })
		const app = await listen({ env, db: counting, port, host: '127.0.0.1' })
		close = async () => {
			await app.close()
			await cms.close()
			await counting.close()
			await db.drop()
			rmSync(content.dir, { recursive: true, force: true })
		}
		const acme = (await findTenantBySlug(db, 'acme'))!
		const passwordHash = await hashPassword(DEMO_PASSWORD)
		/** A learner enrolled 20 days ago (both due entries overdue) in `courses`, each's lessons done up to the quiz and the assignment. */
		async function learner(name: string, courses: string[]) {
			const user = await createUser(db, {
				tenant_id: acme.id,
				email: `${name}-${dialect}@acme.test`,
				name,
				role: 'student',
				password_hash: passwordHash,
				email_verified_at: new Date(),
			})
			const row = { tenant_id: acme.id, user_id: user.id }
			const enrolledAt = new Date(Date.now() - 20 * DAY)
			for (const course of courses) {
				await db.orm
					.insert(db.t.enrollments)
					.values({ ...row, id: newId(), course_slug: course, status: 'active', enrolled_at: enrolledAt })
				for (const entry of ['what-is-http', 'html-forms', 'progressive-enhancement'])
					await markEntryCompleteRow(db, { tenantId: acme.id, userId: user.id }, course, entry, enrolledAt)
			}
			const b = browser(port, 'acme.localhost')
			const res = await b.post('/learn/sign-in', { email: user.email, password: DEMO_PASSWORD })
			if (res.status !== 302) throw new Error(`sign-in: ${res.status}`)
			return b
		}
		learners.one = await learner('one', ['intro-to-web'])
		learners.ten = await learner('ten', ['intro-to-web', ...content.slugs])
	})
	afterAll(() => close?.())

	/** The statements one page view sends (asked twice: the first fills the content cache). */
	async function queriesOf(b: Browser, path: string) {
		expect((await b.get(path)).status).toBe(200)
		statements = []
		const res = await b.get(path)
		const sent = statements
		statements = null
		expect(res.status, path).toBe(200)
		return sent
	}

	it.each(Object.keys(PAGES) as (keyof typeof PAGES)[])(
		'%s: the same fixed count for one enrollment and for ten',
		async (page) => {
			const one = await queriesOf(learners.one!, PAGES[page])
			const ten = await queriesOf(learners.ten!, PAGES[page])
			expect(ten.length, ten.join('\n')).toBe(one.length)
			expect(one.length, one.join('\n')).toBe(EXPECTED[page])
			// Nothing is read twice in one view: no statement is sent again with the same values.
			expect(ten.filter((q, i) => ten.indexOf(q) !== i)).toEqual([])
		},
	)

	it('course home and entries: the same count in a course ten times as long', async () => {
		for (const page of ['course home', 'lesson', 'quiz', 'assignment'] as const) {
			const small = await queriesOf(learners.ten!, PAGES[page])
			const big = await queriesOf(learners.ten!, PAGES[page].replace('intro-to-web', BIG))
			expect(big.length, `${page}: ${big.join('\n')}`).toBe(small.length)
		}
	})
})
