// Soak run (issue 12): `npm run test:soak` builds, then runs this file.
//
// One app process (the production build, spawned as a child so that the load
// generator and the server do not share an event loop) on loopback, against
// a fresh migrated and seeded database: PostgreSQL when TEST_DATABASE_URL is
// set, else SQLite. The content service and the mail sink run in this process.
// SOAK_CLIENTS clients (default 50, one pre-created student each) send mixed
// traffic for SOAK_SECONDS (default 60): sign-ins, public and signed-in page
// views, progress writes (mark entry complete) and quiz submissions. Every
// write the server acknowledged (a redirect that confirms it) is recorded and
// afterwards looked up in the database. It prints one summary line,
//   soak (<dialect>): <s> s, <clients> clients, <n> requests (…), statuses …, <k> 5xx, <w> acknowledged writes checked, <m> missing
// and exits non-zero on any 5xx, network error, timeout, missing write or a
// crashed server.
import { request as httpRequest, Agent } from 'node:http'
import { hashPassword } from '#app/accounts/password.server.ts'
import { startCms } from '#cms/server.ts'
import { listProgress, putEnrollment } from '#db/learning.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { seedDemoData } from '#db/seed.ts'
import { listSubmissions } from '#db/submissions.ts'
import { createUser } from '#db/users.ts'
import { createTestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startMailSink } from '#tests/support/mail.ts'
import { startAppProcess } from '#tests/support/process.ts'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 50)
const DIALECT = process.env.TEST_DATABASE_URL ? 'pg' : 'sqlite'
const HOST = 'acme.localhost'
const COURSE = 'intro-to-web'
/** The lessons in course order (so none is ever locked), the quiz, and the assignment handed in after them. */
const ENTRIES = ['what-is-http', 'html-forms', 'progressive-enhancement']
const ASSIGNMENT = 'build-a-form'
const QUIZ = 'basics-quiz'
const REQUEST_TIMEOUT_MS = 30_000
/** Sign-in allows 10 per 15 minutes per IP and email: each client stays below. */
const MAX_SIGN_INS = 8

type Kind = 'sign-in' | 'sign-out' | 'public page' | 'signed-in page' | 'complete' | 'quiz' | 'hand-in'

interface Response {
	status: number
	location?: string
	setCookie: string[]
	body: string
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS * 2 })

function send(
	port: number,
	method: string,
	path: string,
	headers: Record<string, string>,
	body?: string,
): Promise<Response> {
	return new Promise((resolveResponse, reject) => {
		const req = httpRequest(
			{
				host: '127.0.0.1',
				port,
				path,
				method,
				agent,
				headers: {
					host: `${HOST}:${port}`,
					...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
					...headers,
				},
			},
			(res) => {
				const chunks: Buffer[] = []
				res.on('data', (c: Buffer) => chunks.push(c))
				res.on('end', () => {
					const setCookie = res.headers['set-cookie'] ?? []
					resolveResponse({
						status: res.statusCode ?? 0,
						location: res.headers.location,
						setCookie,
						body: Buffer.concat(chunks).toString('utf8'),
					})
				})
				res.on('error', reject)
			},
		)
		req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)))
		req.on('error', reject)
		if (body !== undefined) req.write(body)
		req.end()
	})
}

async function main() {
	const started = Date.now()
	const db = await createTestDatabase(DIALECT)
	const seeded = await seedDemoData(db, DEMO_PASSWORD)
	const acme = seeded.tenants.acme.id
	const cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
	const mail = await startMailSink()

	// One student per client, created directly (hashed password, enrolled), so no per-email limit stops the run.
	const hash = await hashPassword(DEMO_PASSWORD)
	const students: Array<{ id: string; email: string }> = []
	for (let i = 0; i < CLIENTS; i++) {
		const user = await createUser(db, {
			tenant_id: acme,
			email: `soak-${i}@acme.test`,
			name: `Soak ${i}`,
			role: 'student',
			password_hash: hash,
			email_verified_at: new Date(),
		})
		await putEnrollment(db, { tenantId: acme, userId: user.id }, COURSE, 'active')
		students.push({ id: user.id, email: user.email })
	}

	// The app: the production build in a child process.
	const app = await startAppProcess({
		DATABASE_URL: db.url,
		CMS_API_URL: cms.url,
		SMTP_HOST: '127.0.0.1',
		SMTP_PORT: String(mail.port),
	})
	const { port, child, output } = app

	// Counters.
	const byKind = new Map<Kind, number>()
	const latency = new Map<Kind, number[]>()
	const statuses = new Map<number, number>()
	const failures: string[] = []
	let fiveHundreds = 0
	const acked = {
		complete: [] as Array<{ userId: string; entry: string }>,
		quiz: [] as Array<{ userId: string; attempt: number }>,
		handIn: [] as Array<{ userId: string }>,
	}
	const origin = `http://${HOST}:${port}`

	async function hit(kind: Kind, method: string, path: string, cookie: string, form?: Record<string, string>) {
		byKind.set(kind, (byKind.get(kind) ?? 0) + 1)
		const headers: Record<string, string> = cookie ? { cookie } : {}
		let body: string | undefined
		if (form) {
			body = new URLSearchParams(form).toString()
			headers['content-type'] = 'application/x-www-form-urlencoded'
			headers.origin = origin
		}
		try {
			const t0 = performance.now()
			const res = await send(port, method, path, headers, body)
			const list = latency.get(kind) ?? []
			list.push(performance.now() - t0)
			latency.set(kind, list)
			statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
			if (res.status >= 500) {
				fiveHundreds++
				failures.push(`${kind} ${method} ${path} → ${res.status}: ${res.body.slice(0, 200)}`)
			}
			return res
		} catch (error) {
			failures.push(`${kind} ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`)
			return null
		}
	}

	const stopAt = Date.now() + SECONDS * 1000
	const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]

	async function client(index: number) {
		const me = students[index]
		let cookie = ''
		let signIns = 0
		let nextEntry = 0
		const signIn = async () => {
			signIns++
			const res = await hit('sign-in', 'POST', '/learn/sign-in', '', { email: me.email, password: DEMO_PASSWORD })
			const session = res?.setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('lms_session='))
			if (res?.status === 302 && session) cookie = session
			else if (res) failures.push(`sign-in of ${me.email} → ${res.status}`)
		}
		await signIn()
		while (Date.now() < stopAt) {
			const roll = Math.random()
			if (roll < 0.25) {
				await hit(
					'public page',
					'GET',
					pick([
						'/learn',
						'/learn/course/intro-to-web',
						'/blog',
						'/blog/welcome',
						'/about',
						'/robots.txt',
						'/sitemap.xml',
					]),
					'',
				)
			} else if (roll < 0.55) {
				const res = await hit(
					'signed-in page',
					'GET',
					pick([
						'/learn/dashboard',
						`/learn/course/${COURSE}`,
						`/learn/course/${COURSE}/entry/${pick(ENTRIES)}`,
						`/learn/course/${COURSE}/entry/${QUIZ}`,
						'/learn/account',
					]),
					cookie,
				)
				if (res && res.status === 302 && res.location?.startsWith('/learn/sign-in'))
					failures.push(`${me.email} lost the session`)
			} else if (roll < 0.8 || (roll < 0.93 && nextEntry < 2)) {
				// (the quiz opens once the two lessons before it in its module are complete)
				// Entries in course order, so each is open when completed (completion is idempotent).
				const entry = ENTRIES[nextEntry % ENTRIES.length]
				nextEntry++
				if (nextEntry > ENTRIES.length) {
					// Past the lessons: a text hand-in on the assignment (decision 0027), open once they are complete.
					const res = await hit('hand-in', 'POST', `/learn/course/${COURSE}/entry/${ASSIGNMENT}`, cookie, {
						intent: 'hand-in',
						text: `Soak hand-in ${nextEntry} by ${me.email}`,
					})
					if (res && res.status === 302 && res.location?.includes('notice=handed_in'))
						acked.handIn.push({ userId: me.id })
					// 429: the per-user hand-in limit, an answer and not a write.
					else if (res && res.status !== 429)
						failures.push(`hand-in by ${me.email} not acknowledged: ${res.status} ${res.location ?? ''}`)
					continue
				}
				const res = await hit('complete', 'POST', `/learn/course/${COURSE}/entry/${entry}`, cookie, {
					intent: 'complete',
				})
				// Acknowledged: on to the next entry or the course (a locked entry would redirect with a notice instead).
				const location = res?.location ?? ''
				const confirmed =
					location.startsWith(`/learn/course/${COURSE}`) &&
					// Moving on says it counted (entry_completed, or course_completed at the end); any other notice is a refusal.
					(!location.includes('notice=') || /notice=(entry|course)_completed\b/.test(location))
				if (res && (res.status === 302 || res.status === 303) && confirmed)
					acked.complete.push({ userId: me.id, entry })
				else if (res && res.status < 500)
					failures.push(`complete ${entry} by ${me.email} not acknowledged: ${res.status} ${res.location ?? ''}`)
			} else if (roll < 0.93) {
				const res = await hit('quiz', 'POST', `/learn/course/${COURSE}/entry/${QUIZ}`, cookie, {
					intent: 'submit-quiz',
					'q:q-method': pick(['get', 'post', 'head']),
					'q:q-nojs': pick(['true', 'false']),
					'q:q-element': pick(['form', 'input', 'button']),
				})
				const attempt = res?.location ? /[?&]attempt=(\d+)/.exec(res.location)?.[1] : undefined
				if (res && (res.status === 302 || res.status === 303) && attempt)
					acked.quiz.push({ userId: me.id, attempt: Number(attempt) })
				// 409: every attempt used (maxAttempts 3); 429: the per-user quiz limit. Both are answers, not writes.
				else if (res && res.status !== 409 && res.status !== 429)
					failures.push(`quiz by ${me.email} not acknowledged: ${res.status} ${res.location ?? ''}`)
			} else if (signIns < MAX_SIGN_INS) {
				await hit('sign-out', 'POST', '/learn/sign-out', cookie, {})
				cookie = ''
				await signIn()
			} else {
				await hit('public page', 'GET', '/learn', '')
			}
		}
	}

	const loadStarted = Date.now()
	await Promise.all(students.map((_, i) => client(i)))
	const loadSeconds = (Date.now() - loadStarted) / 1000

	// Stop the app (SIGTERM drains in-flight requests), then check every acknowledged write.
	child.kill('SIGTERM')
	const exitCode = await Promise.race([
		app.exited,
		new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000)),
	])
	if (exitCode !== 0) failures.push(`the app exited with ${exitCode}`)
	const crashLines = output
		.join('')
		.split('\n')
		.filter((l) => /"event":"request\/failed"|Unhandled|FATAL/.test(l))
	for (const l of crashLines.slice(0, 5)) failures.push(`server log: ${l.slice(0, 300)}`)

	let checked = 0
	let missing = 0
	for (const student of students) {
		const scope = { tenantId: acme, userId: student.id }
		const completes = acked.complete.filter((w) => w.userId === student.id)
		const quizzes = acked.quiz.filter((w) => w.userId === student.id)
		if (completes.length) {
			const rows = await listProgress(db, scope, COURSE)
			for (const w of completes) {
				checked++
				if (!rows.some((r) => r.entry_slug === w.entry && r.completed_at)) {
					missing++
					failures.push(`acknowledged completion of ${w.entry} by ${student.email} is not in the database`)
				}
			}
		}
		if (quizzes.length) {
			const rows = await listAttempts(db, scope, COURSE, QUIZ)
			for (const w of quizzes) {
				checked++
				if (!rows.some((r) => r.attempt_number === w.attempt && r.submitted_at)) {
					missing++
					failures.push(`acknowledged quiz attempt ${w.attempt} by ${student.email} is not in the database`)
				}
			}
			if (rows.length > 3) failures.push(`${student.email} has ${rows.length} quiz attempts (maxAttempts 3)`)
		}
	}
	for (const student of students) {
		const handIns = acked.handIn.filter((w) => w.userId === student.id).length
		if (handIns === 0) continue
		const rows = await listSubmissions(db, { tenantId: acme, userId: student.id }, COURSE, ASSIGNMENT)
		checked += handIns
		// Each acknowledged hand-in is a submission of its own, numbered 1..n without gaps.
		if (rows.length < handIns) {
			missing += handIns - rows.length
			failures.push(`${handIns} acknowledged hand-ins by ${student.email}, ${rows.length} stored`)
		}
		if (rows.some((r, i) => r.submission_number !== i + 1)) failures.push(`${student.email}'s hand-ins are not 1..n`)
	}
	if (acked.complete.length === 0 || acked.quiz.length === 0 || acked.handIn.length === 0)
		failures.push('no acknowledged writes of some kind: the run checked nothing')

	const requests = [...byKind.values()].reduce((a, b) => a + b, 0)
	const kinds = [...byKind].map(([k, n]) => `${k} ${n}`).join(', ')
	const codes = [...statuses]
		.sort(([a], [b]) => a - b)
		.map(([s, n]) => `${s}:${n}`)
		.join(' ')
	console.log(
		`soak (${DIALECT}): ${loadSeconds.toFixed(1)} s, ${CLIENTS} clients, ${requests} requests (${kinds}), ${(requests / loadSeconds).toFixed(0)} req/s, statuses ${codes}, ${fiveHundreds} 5xx, ${checked} acknowledged writes checked (${acked.complete.length} completions, ${acked.quiz.length} quiz attempts, ${acked.handIn.length} hand-ins), ${missing} missing, ${failures.length} failures, total ${((Date.now() - started) / 1000).toFixed(0)} s`,
	)
	const ms = (xs: number[], q: number) =>
		[...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))].toFixed(0)
	console.log(
		`  latency ms (p50/p95/max): ${[...latency].map(([k, xs]) => `${k} ${ms(xs, 0.5)}/${ms(xs, 0.95)}/${ms(xs, 1)}`).join(', ')}`,
	)
	for (const f of [...new Set(failures)].slice(0, 20)) console.log(`  failure: ${f}`)

	agent.destroy()
	await cms.close()
	await mail.close()
	await db.drop()
	return failures.length === 0 && fiveHundreds === 0 && missing === 0
}

main().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error) => {
		console.error(`soak: ${error instanceof Error ? error.stack : String(error)}`)
		process.exit(1)
	},
)
