/**
 * Fault: PostgreSQL goes away under load, for four seconds and then for a
 * 0.3 s restart (issue 26, cases 1 and 3). The app runs in its own process
 * and reaches the database through a loopback proxy that the test cuts;
 * learners keep working through a course the whole time, retrying what the
 * app refused. Asserted: every answer during and after the outage within
 * 2.5 s, recovery within a second, no 5xx but the branded 503, every
 * acknowledged write stored, no write stored that was answered as failed,
 * and every learner able to finish the course.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { putEnrollment } from '#db/learning.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startFaultProxy, type FaultProxy } from '#tests/support/fault-proxy.ts'
import { startMailSink } from '#tests/support/mail.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { recorder, reportFault, sleep, statusCounts, type Answer } from './support.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const LEARNERS = 6
const WRONG = { 'q:q-method': 'get', 'q:q-nojs': 'false', 'q:q-element': 'div' }
const RIGHT = { 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }
/**
 * 503s in a row after which a learner's write fails the case: a retry comes every 350 ms or more, so this is over
 * ten seconds of refusals, more than twice the longest outage (4 s) with its recovery (1 s).
 */
const MAX_503 = 30

describe.each(DIALECTS.filter((d) => d === 'pg'))('PostgreSQL going away under load (%s)', () => {
	let db: TestDatabase
	let proxy: FaultProxy
	let app: AppProcess
	let cms: Awaited<ReturnType<typeof startCms>>
	let mail: Awaited<ReturnType<typeof startMailSink>>
	const learners: Array<{ id: string; email: string }> = []
	let tenantId = ''

	beforeAll(async () => {
		db = await createTestDatabase('pg')
		const seeded = await seedDemoData(db, DEMO_PASSWORD)
		tenantId = seeded.tenants.acme.id
		const hash = await hashPassword(DEMO_PASSWORD)
		for (let i = 0; i < LEARNERS; i++) {
			const user = await createUser(db, {
				tenant_id: tenantId,
				email: `outage-${i}@acme.test`,
				name: `Outage ${i}`,
				role: 'student',
				password_hash: hash,
				email_verified_at: new Date(),
			})
			await putEnrollment(db, { tenantId, userId: user.id }, COURSE, 'active')
			learners.push({ id: user.id, email: user.email })
		}
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		mail = await startMailSink()
		const url = new URL(db.url)
		proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port) })
		url.host = `127.0.0.1:${proxy.port}`
		app = await startAppProcess({
			DATABASE_URL: url.toString(),
			CMS_API_URL: cms.url,
			SMTP_HOST: '127.0.0.1',
			SMTP_PORT: String(mail.port),
		})
	}, 120_000)
	afterAll(async () => {
		app?.child.kill('SIGKILL')
		await proxy?.close()
		await cms?.close()
		await mail?.close()
		await db?.drop()
	})

	it('answers fast during and after the outage, loses nothing, stores nothing half, and lets every learner finish', async () => {
		const http = recorder(app.port, ACME)
		const cookies = await Promise.all(
			learners.map(async (l) => {
				const res = await http.send('sign-in', 'POST', '/learn/sign-in', {
					form: { email: l.email, password: DEMO_PASSWORD },
				})
				expect(res.status).toBe(302)
				return String(res.headers['set-cookie']).match(/lms_session=[^;]+/)![0]
			}),
		)
		const acknowledged: Array<{ learner: number; what: string }> = []
		/** Writes answered 503 yet stored, each once, with its first refused answer (when it was sent and answered). */
		const storedButFailed: Array<{ label: string; sent: number; answered: number }> = []
		const outages: Array<{ down: number; up: number }> = []

		const entry = (slug: string) => `/learn/course/${COURSE}/entry/${slug}`
		const attempts = (userId: string) =>
			db.orm
				.select()
				.from(db.t.quiz_attempts)
				.where(and(eq(db.t.quiz_attempts.user_id, userId), eq(db.t.quiz_attempts.entry_slug, 'basics-quiz')))
		const submissions = (userId: string) =>
			db.orm.select().from(db.t.assignment_submissions).where(eq(db.t.assignment_submissions.user_id, userId))
		const completed = async (userId: string, slug: string) =>
			(
				await db.orm
					.select()
					.from(db.t.entry_progress)
					.where(and(eq(db.t.entry_progress.user_id, userId), eq(db.t.entry_progress.entry_slug, slug)))
			)[0]?.completed_at != null

		/**
		 * One write, retried after each 503 until it is acknowledged; a refused one must have stored nothing. Any
		 * other answer ends the learner at once with what it was (issue 46: retrying every answer alike left a
		 * learner looping until the case's timeout, which said nothing of why), and so do MAX_503 in a row.
		 */
		async function write(i: number, what: string, send: () => Promise<Answer>, stored: () => Promise<boolean>) {
			const refused: Answer[] = []
			let found = false
			for (;;) {
				const res = await send()
				if (res.status === 302 || res.status === 303) return acknowledged.push({ learner: i, what })
				if (res.status !== 503) throw new Error(`${what} of learner ${i}: ${res.status} ${res.body.slice(0, 200)}`)
				refused.push(res)
				if (refused.length >= MAX_503)
					throw new Error(
						`${what} of learner ${i}: ${refused.length} answers 503 in a row, sent from ${refused[0].at} ms to ${
							res.at
						} ms (outages ${JSON.stringify(outages)}), slowest ${Math.max(...refused.map((a) => a.ms))} ms; the last: ${res.body.slice(0, 200)}`,
					)
				// The database is reached directly here, not through the proxy: what did the refused write leave?
				// Counted once per write: its retries during the outage find the same row.
				await sleep(200)
				if (!found && (await stored())) {
					found = true
					storedButFailed.push({ label: `${what} of learner ${i}`, sent: res.at, answered: res.at + res.ms })
				}
				await sleep(150)
			}
		}

		async function learner(i: number) {
			const { id } = learners[i]
			const cookie = cookies[i]
			const view = (slug: string) => http.send('view', 'GET', entry(slug), { cookie })
			const complete = (slug: string) =>
				write(
					i,
					`complete ${slug}`,
					() => http.send('complete', 'POST', entry(slug), { cookie, form: { intent: 'complete' } }),
					() => completed(id, slug),
				)
			// The same form's key on every retry: a hand-in told it failed is the same submission when sent again.
			const handIn = () =>
				write(
					i,
					'hand-in',
					() =>
						http.send('hand-in', 'POST', entry('build-a-form'), {
							cookie,
							form: { intent: 'hand-in', text: `Outage hand-in ${i}`, submission: `outage-hand-in-${i}` },
						}),
					async () => (await submissions(id)).length > 0,
				)
			const quiz = async (answers: Record<string, string>) => {
				// The key a rendered form carries: a retry of the same submission is the same attempt.
				const before = (await attempts(id)).length
				const submission = `outage-${i}-${before}-${Date.now()}`
				await write(
					i,
					`quiz attempt ${before + 1}`,
					() =>
						http.send('quiz', 'POST', entry('basics-quiz'), {
							cookie,
							form: { intent: 'submit-quiz', submission, ...answers },
						}),
					async () => (await attempts(id)).length > before,
				)
			}
			for (const step of [
				() => complete('what-is-http'),
				() => complete('html-forms'),
				() => quiz(WRONG),
				() => quiz(RIGHT),
				() => complete('progressive-enhancement'),
				() => handIn(),
			]) {
				await view('what-is-http')
				await step()
				await sleep(250)
			}
		}

		const probes: Answer[] = []
		let probing = true
		const probe = (async () => {
			while (probing) {
				probes.push(await http.send('health', 'GET', '/api/health'))
				await sleep(100)
			}
		})()
		const work = Promise.all(learners.map((_, i) => learner(i)))
		const outage = async (ms: number) => {
			const down = http.now()
			proxy.down()
			await sleep(ms)
			proxy.up()
			outages.push({ down, up: http.now() })
		}
		// A four-second outage early in the work, then a 0.3 s restart.
		await sleep(400)
		await outage(4_000)
		await sleep(1_500)
		await outage(300)
		await work
		// The graded assignment: the course's admin grades every hand-in, and a pass completes the course.
		const author = await http.send('sign-in', 'POST', '/learn/sign-in', {
			form: { email: 'author@acme.test', password: DEMO_PASSWORD },
		})
		const authorCookie = String(author.headers['set-cookie']).match(/lms_session=[^;]+/)![0]
		for (const { id } of learners)
			for (const row of await submissions(id))
				await http.send('grade', 'POST', `/admin/courses/${COURSE}/submissions/${row.id}`, {
					cookie: authorCookie,
					form: { intent: 'grade', score: '8', feedback: 'Graded after the outage' },
				})
		await sleep(1_000)
		probing = false
		await probe
		http.close()

		const answers = http.answers
		const during = answers.filter((a) => outages.some((o) => a.at >= o.down && a.at <= o.up))
		const after = answers.filter((a) => outages.every((o) => a.at > o.up + 1_000 || a.at < o.down))
		const firstGood = outages.map(
			(o) => Math.min(...answers.filter((a) => a.at >= o.up && a.status > 0 && a.status < 500).map((a) => a.at)) - o.up,
		)
		const others = answers
			.filter((a) => a.status >= 500 && a.status !== 503)
			.concat(answers.filter((a) => a.status === 0))
		const unbranded = answers.filter(
			(a) =>
				a.status === 503 &&
				!(a.body.includes('We could not reach our database') || a.body.includes('"SERVICE_UNAVAILABLE"')),
		)
		const slowest = Math.max(...answers.map((a) => a.ms))
		const finished = await db.orm
			.select()
			.from(db.t.enrollments)
			.where(
				and(
					eq(db.t.enrollments.tenant_id, tenantId),
					eq(db.t.enrollments.course_slug, COURSE),
					eq(db.t.enrollments.status, 'completed'),
				),
			)
		const missing: string[] = []
		for (const { learner: i, what } of acknowledged) {
			const { id } = learners[i]
			if (what.startsWith('complete ') && !(await completed(id, what.slice('complete '.length))))
				missing.push(`${what} of learner ${i}`)
		}
		for (const [i, { id }] of learners.entries()) {
			const rows = await attempts(id)
			if (rows.length !== 2) missing.push(`learner ${i} has ${rows.length} quiz attempts, not 2`)
			const handedIn = await submissions(id)
			if (handedIn.length !== 1) missing.push(`learner ${i} has ${handedIn.length} hand-ins, not 1`)
		}

		reportFault(
			'postgres outage',
			'pg',
			{
				requests: answers.length,
				statuses: statusCounts(answers),
				'slowest answer': `${slowest} ms`,
				'slowest during an outage': `${Math.max(...during.map((a) => a.ms))} ms`,
				'recovery after 4 s / 0.3 s': `${firstGood.map((ms) => `${ms} ms`).join(' / ')}`,
				'health probes': statusCounts(probes),
				'writes acknowledged': acknowledged.length,
				found: acknowledged.length - missing.filter((m) => !m.includes('quiz attempts')).length,
				'stored but answered as failed': `${storedButFailed.length} (${storedButFailed.map((w) => w.label).join(', ') || 'none'})`,
				'learners finished': `${finished.length} of ${LEARNERS}`,
			},
			{
				requests: answers.length,
				acknowledged: acknowledged.length,
				found: acknowledged.length - missing.filter((m) => !m.includes('quiz attempts')).length,
				failedButStored: storedButFailed.length,
				slowestMs: slowest,
				recoveryMs: Math.max(...firstGood),
			},
		)
		expect(others.map((a) => `${a.kind} ${a.status} ${a.body.slice(0, 80)}`)).toEqual([])
		expect(unbranded.map((a) => `${a.kind}: ${a.body.slice(0, 120)}`)).toEqual([])
		expect(Math.max(...during.map((a) => a.ms)), 'slowest answer during an outage').toBeLessThanOrEqual(2_500)
		expect(Math.max(...after.map((a) => a.ms)), 'slowest answer outside the outages').toBeLessThanOrEqual(2_500)
		for (const ms of firstGood)
			expect(ms, 'time to the first good answer after the database came back').toBeLessThanOrEqual(1_000)
		expect(probes.filter((p) => p.status !== 200 && p.status !== 503)).toEqual([])
		expect(missing).toEqual([])
		// A write whose COMMIT reached the server as the connection was cut is stored but answered 503:
		// nobody can tell it from outside (its acknowledgement is what was lost). Its retry carries the
		// same form key and is answered as done without a second row (the counts above are exact). Such a
		// write was under way when an outage began: sent before the cut, answered after it (several can
		// be, one per learner whose write was in flight). One that did not straddle a cut would be a write
		// failing after its commit, the app's fault.
		const straddles = (w: { sent: number; answered: number }) =>
			outages.some((o) => w.sent <= o.down && w.answered >= o.down)
		expect(
			storedButFailed
				.filter((w) => !straddles(w))
				.map((w) => `${w.label}: sent ${w.sent} ms, answered ${w.answered} ms`),
			`outages ${JSON.stringify(outages)}`,
		).toEqual([])
		expect(finished).toHaveLength(LEARNERS)
	}, 120_000)
})
