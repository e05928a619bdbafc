/**
 * The mixed load of issue 46 from outside: CLIENTS clients over LEARNERS
 * learners (each learner driven by one client only, so no two writes of one
 * learner overlap), each request sent to one of two app processes on one
 * PostgreSQL database in turn; 35 % quiz submissions with a fresh form key
 * each, the rest signed-in page reads, THINK_MS between requests. Every
 * acknowledged attempt is looked up in the database afterwards. Used by
 * `npm run bench:load` (bench/quiz-load.ts) and tests/faults/load.test.ts.
 */
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { hashPassword } from '#app/accounts/password.server.ts'
import { startCms } from '#cms/server.ts'
import { idFromFormKey } from '#db/ids.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startMailSink } from '#tests/support/mail.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { recorder, sleep, statusCounts, type Answer } from './support.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const QUIZ = 'basics-quiz'
/** The lessons before the quiz in its module: complete, so the quiz is open. */
const BEFORE_QUIZ = ['what-is-http', 'html-forms']
const READS = [
	'/learn/dashboard',
	`/learn/course/${COURSE}`,
	`/learn/course/${COURSE}/entry/what-is-http`,
	`/learn/course/${COURSE}/entry/${QUIZ}`,
	'/learn/account',
]

export interface LoadOptions {
	clients: number
	learners?: number
	seconds: number
	quizShare?: number
	thinkMs?: number
	/** Extra environment for both app processes. */
	env?: Record<string, string>
}

export interface LoadFigures {
	seconds: number
	clients: number
	learners: number
	requests: number
	statuses: string
	fiveHundreds: number
	quizSubmissions: number
	acknowledged: number
	found: number
	storedButFailed: number
	p50: number
	p95: number
	p99: number
	slowest: number
	quizP99: number
	/** The first few 5xx answers and missing writes, for the report. */
	failures: string[]
	/** Log lines of the app processes that say a request failed. */
	serverErrors: string[]
}

const quantile = (xs: number[], q: number) =>
	xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] : 0

export async function runQuizLoad(options: LoadOptions): Promise<LoadFigures> {
	const learnerCount = options.learners ?? 60
	const quizShare = options.quizShare ?? 0.35
	const thinkMs = options.thinkMs ?? 50
	const db = await createTestDatabase('pg')
	const apps: AppProcess[] = []
	const cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
	const mail = await startMailSink()
	try {
		const seeded = await seedDemoData(db, DEMO_PASSWORD)
		const tenantId = seeded.tenants.acme.id
		const hash = await hashPassword(DEMO_PASSWORD)
		const learners: Array<{ id: string; email: string; cookie: string }> = []
		for (let i = 0; i < learnerCount; i++) {
			const user = await createUser(db, {
				tenant_id: tenantId,
				email: `load-${i}@acme.test`,
				name: `Load ${i}`,
				role: 'student',
				password_hash: hash,
				email_verified_at: new Date(),
			})
			const scope = { tenantId, userId: user.id }
			await putEnrollment(db, scope, COURSE, 'active')
			for (const slug of BEFORE_QUIZ) await markEntryCompleteRow(db, scope, COURSE, slug)
			learners.push({ id: user.id, email: user.email, cookie: '' })
		}
		const env = { DATABASE_URL: db.url, CMS_API_URL: cms.url, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(mail.port) }
		apps.push(...(await Promise.all([0, 1].map(() => startAppProcess({ ...env, ...options.env })))))
		const http = apps.map((app) => recorder(app.port, ACME))
		let turn = 0
		const send = (...args: Parameters<(typeof http)[number]['send']>) => http[turn++ % http.length].send(...args)
		for (const learner of learners) {
			const res = await send('sign-in', 'POST', '/learn/sign-in', {
				form: { email: learner.email, password: DEMO_PASSWORD },
			})
			learner.cookie = String(res.headers['set-cookie']).match(/lms_session=[^;]+/)?.[0] ?? ''
			if (!learner.cookie) throw new Error(`sign-in of ${learner.email} answered ${res.status}`)
		}
		const acknowledged: Array<{ learner: number; id: string; number: number }> = []
		const refused: Array<{ learner: number; id: string; status: number }> = []
		const load: Answer[] = []
		const stopAt = Date.now() + options.seconds * 1000
		const started = Date.now()
		async function client(c: number) {
			const mine = learners.map((_, i) => i).filter((i) => i % options.clients === c)
			if (!mine.length) return
			while (Date.now() < stopAt) {
				const i = mine[Math.floor(Math.random() * mine.length)]
				const { cookie } = learners[i]
				if (Math.random() < quizShare) {
					const submission = randomBytes(12).toString('base64url')
					const res = await send('quiz', 'POST', `/learn/course/${COURSE}/entry/${QUIZ}`, {
						cookie,
						form: {
							intent: 'submit-quiz',
							submission,
							'q:q-method': Math.random() < 0.5 ? 'get' : 'post',
							'q:q-nojs': 'true',
							'q:q-element': 'form',
						},
					})
					load.push(res)
					const id = idFromFormKey('quiz-attempt', { tenantId, userId: learners[i].id }, COURSE, QUIZ, submission)!
					const number = /[?&]attempt=(\d+)/.exec(res.location ?? '')?.[1]
					if ((res.status === 302 || res.status === 303) && number)
						acknowledged.push({ learner: i, id, number: Number(number) })
					// 409: every attempt used; 429: the per-learner limit. Answers, not writes.
					else if (res.status !== 409 && res.status !== 429) refused.push({ learner: i, id, status: res.status })
				} else {
					load.push(await send('read', 'GET', READS[Math.floor(Math.random() * READS.length)], { cookie }))
				}
				await sleep(thinkMs)
			}
		}
		await Promise.all(Array.from({ length: options.clients }, (_, c) => client(c)))
		const seconds = (Date.now() - started) / 1000
		for (const h of http) h.close()

		const q = db.t.quiz_attempts
		const stored = async (id: string) =>
			(
				await db.orm
					.select({ id: q.id })
					.from(q)
					.where(and(eq(q.id, id), eq(q.tenant_id, tenantId)))
			).length > 0
		const failures: string[] = []
		let found = 0
		for (const a of acknowledged) {
			if (await stored(a.id)) found++
			else failures.push(`acknowledged attempt ${a.number} of learner ${a.learner} is not stored`)
		}
		let storedButFailed = 0
		for (const r of refused) if (await stored(r.id)) storedButFailed++
		for (const a of load.filter((x) => x.status >= 500 || x.status === 0).slice(0, 10))
			failures.push(`${a.kind} → ${a.status} after ${a.ms} ms: ${a.body.replace(/\s+/g, ' ').slice(0, 120)}`)
		const ms = load.map((a) => a.ms)
		const quizMs = load.filter((a) => a.kind === 'quiz').map((a) => a.ms)
		const serverErrors = apps.flatMap((app) => app.output.join('').split('\n')).filter((l) => /"level":"error"/.test(l))
		return {
			seconds,
			clients: options.clients,
			learners: learnerCount,
			requests: load.length,
			statuses: statusCounts(load),
			fiveHundreds: load.filter((a) => a.status >= 500 || a.status === 0).length,
			quizSubmissions: quizMs.length,
			acknowledged: acknowledged.length,
			found,
			storedButFailed,
			p50: quantile(ms, 0.5),
			p95: quantile(ms, 0.95),
			p99: quantile(ms, 0.99),
			slowest: Math.max(0, ...ms),
			quizP99: quantile(quizMs, 0.99),
			failures,
			serverErrors,
		}
	} finally {
		for (const app of apps) app.child.kill('SIGKILL')
		await cms.close()
		await mail.close()
		await db.drop()
	}
}

/** One line: `load (pg, 2 processes): …`. */
export function describeLoad(f: LoadFigures) {
	return `load (pg, 2 processes): ${f.seconds.toFixed(1)} s, ${f.clients} clients over ${f.learners} learners, ${f.requests} requests (${(f.requests / f.seconds).toFixed(0)}/s), statuses ${f.statuses}, ${f.fiveHundreds} 5xx, ${f.quizSubmissions} quiz submissions, ${f.acknowledged} acknowledged, ${f.found} found, ${f.storedButFailed} stored but answered as failed, ms p50 ${f.p50} / p95 ${f.p95} / p99 ${f.p99} / slowest ${f.slowest} (quiz p99 ${f.quizP99})`
}
