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
//   soak (<dialect>): <s> s, <clients> clients, <n> requests (…), <r> req/s = <ratio> of the floor (…),
//     signed-in pages p50 <ms> ms p99 <ms> ms, statuses …, <k> 5xx, <w> acknowledged writes checked, <m> missing
// and exits non-zero on any 5xx, network error, timeout, missing write or a
// crashed server.
//
// Its throughput is judged as a ratio (issue 47, decisions 0078 and 0091): the soak's requests a second
// over a floor measured in the same run, before and after the load — the app's own /bench/bare route
// rendering a page as long as the dashboard, asked by the same client loop — so that a slower or
// busier machine does not read as a slower app. A run fails below 0.85 of the ratio recorded in tests/soak/baseline.json
// for its dialect (when run with the recorded seconds and clients); SOAK_RECORD=1 writes the
// ratio of a run that passed with a steady floor (it moved by at most 25 % from before to after;
// a run whose floor moved more is shown, not judged), to be committed with the change that moved it,
// never from a faster machine alone (decision 0099).
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http'
import { cpus } from 'node:os'
import { hashPassword } from '#app/accounts/password.server.ts'
import { startCms } from '#cms/server.ts'
import { listProgress, putEnrollment } from '#db/learning.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { seedDemoData } from '#db/seed.ts'
import { listSubmissions } from '#db/submissions.ts'
import { createTestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startMailSink } from '#tests/support/mail.ts'
import { startAppProcess } from '#tests/support/process.ts'
import { createUser } from '#tests/support/repository.ts'

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
/** Each of the two measurements of the floor (before and after the load). */
const FLOOR_SECONDS = Number(process.env.SOAK_FLOOR_SECONDS ?? 2)
/** The page whose length the floor's page matches: a signed-in page, as most of the soak's reads are. */
const FLOOR_PAGE = '/learn/dashboard'
/** The committed ratio per dialect (SOAK_RECORD=1 writes it after a run that passed). */
const RECORD_FILE = 'tests/soak/baseline.json'
/**
 * A run fails below this share of the recorded ratio (decision 0091), which is the lowest seen on a
 * machine of the kind (decision 0099: the same code ran at 0.26–0.45 on machines that report the same
 * CPU; 0.26–0.33 in four runs on one of them).
 */
const GATE = 0.85
/** The most the floor may move between before and after for the run to be judged. */
const FLOOR_MOVE = 0.25

type Kind = 'sign-in' | 'sign-out' | 'public page' | 'signed-in page' | 'complete' | 'quiz' | 'hand-in'

interface Response {
	status: number
	location?: string
	setCookie: string[]
	headers: IncomingHttpHeaders
	body: Buffer
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
						headers: res.headers,
						body: Buffer.concat(chunks),
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

interface Recorded {
	/** Soak requests a second over the floor's requests a second. */
	ratio: number
	soakRps: number
	floorRps: number
	seconds: number
	clients: number
	date: string
	machine: string
	commit: string
}

const machine = () => `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`

function readRecorded(): Partial<Record<'pg' | 'sqlite', Recorded>> {
	try {
		return JSON.parse(readFileSync(RECORD_FILE, 'utf8'))
	} catch {
		return {}
	}
}

/**
 * The floor the soak's throughput is divided by (decision 0091): the same app process's baseline
 * route, /bench/bare (root middleware and loader, then React Router rendering HTML as long as
 * `length` bytes; no data of its own), asked by the soak's own client (the same agent and `send`,
 * CLIENTS loops). It runs the app's JavaScript, rendering and garbage collection in the app's
 * process, so what the ratio cancels is this machine's speed and load in the regime the app runs
 * in, and what it keeps is the pages' own work: their reads, writes and components.
 */
async function bareFloor(port: number, length: number) {
	const lengthOf = async (bytes: number) => {
		const res = await send(port, 'GET', `/bench/bare?bytes=${bytes}`, {})
		if (res.status !== 200) throw new Error(`/bench/bare answered ${res.status} (BENCH_ROUTES)`)
		return res.body.length
	}
	const base = await lengthOf(0)
	const perByte = ((await lengthOf(10_000)) - base) / 10_000
	const path = `/bench/bare?bytes=${Math.max(0, Math.round((length - base) / perByte))}`
	return {
		path,
		/** Requests a second of CLIENTS loops asking for the bare page for FLOOR_SECONDS. */
		async measure() {
			const stopAt = Date.now() + FLOOR_SECONDS * 1000
			let n = 0
			const t0 = performance.now()
			await Promise.all(
				Array.from({ length: CLIENTS }, async () => {
					while (Date.now() < stopAt) {
						const res = await send(port, 'GET', path, {})
						if (res.status !== 200) throw new Error(`the floor answered ${res.status}`)
						n++
					}
				}),
			)
			return n / ((performance.now() - t0) / 1000)
		},
	}
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

	// One more student, signed in only for the floor's page (the soak's own keep their sign-in limits).
	const floorUser = await createUser(db, {
		tenant_id: acme,
		email: 'soak-floor@acme.test',
		name: 'Soak floor',
		role: 'student',
		password_hash: hash,
		email_verified_at: new Date(),
	})
	await putEnrollment(db, { tenantId: acme, userId: floorUser.id }, COURSE, 'active')

	// The app: the production build in a child process.
	const app = await startAppProcess({
		DATABASE_URL: db.url,
		CMS_API_URL: cms.url,
		SMTP_HOST: '127.0.0.1',
		SMTP_PORT: String(mail.port),
		// The floor's route (bareFloor).
		BENCH_ROUTES: 'true',
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
				failures.push(`${kind} ${method} ${path} → ${res.status}: ${res.body.toString('utf8', 0, 200)}`)
			}
			return res
		} catch (error) {
			failures.push(`${kind} ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`)
			return null
		}
	}

	/** Set once the floor before the load has been measured. */
	let stopAt = 0
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

	// The floor, before and after the load (the machine is shared: its mean stands for the minute between).
	// Retried a few times: on a starved machine a sign-in may meet the database-unavailable answer.
	let floorCookie = ''
	let floorAnswer: Response | null = null
	for (let attempt = 0; attempt < 5 && floorAnswer?.status !== 200; attempt++) {
		if (attempt) await new Promise((r) => setTimeout(r, 1000))
		const form = new URLSearchParams({ email: floorUser.email, password: DEMO_PASSWORD }).toString()
		const signedIn = await send(
			port,
			'POST',
			'/learn/sign-in',
			{ 'content-type': 'application/x-www-form-urlencoded', origin },
			form,
		)
		floorCookie = signedIn.setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('lms_session=')) ?? ''
		if (floorCookie) floorAnswer = await send(port, 'GET', FLOOR_PAGE, { cookie: floorCookie })
	}
	if (floorAnswer?.status !== 200)
		throw new Error(`the floor's page ${FLOOR_PAGE} answered ${floorAnswer?.status ?? 'nothing'}`)
	const floor = await bareFloor(port, floorAnswer.body.length)
	// Unmeasured first, three times: a cold process renders at half its speed for its first seconds (its
	// JIT's), and one round left the floor before the load at 344 req/s against 669 after (CI run 2).
	for (let round = 0; round < 3; round++) await floor.measure()
	const floorBefore = await floor.measure()

	const loadStarted = Date.now()
	stopAt = loadStarted + SECONDS * 1000
	await Promise.all(students.map((_, i) => client(i)))
	const loadSeconds = (Date.now() - loadStarted) / 1000

	const floorAfter = await floor.measure()

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
	const rps = requests / loadSeconds
	const floorRps = (floorBefore + floorAfter) / 2
	const ratio = rps / floorRps
	// Judged only in the configuration it was recorded in (a 20 s run warms up for a larger share of it).
	const recordedAll = readRecorded()
	const recorded = recordedAll[DIALECT]
	const comparable = recorded && recorded.seconds === SECONDS && recorded.clients === CLIENTS
	// The floor moving by more than a quarter within the run says the machine's load changed under it:
	// the mean of the two would not stand for the minute between, and the ratio is shown, not judged.
	const steady = Math.abs(floorBefore - floorAfter) / Math.max(floorBefore, floorAfter) <= FLOOR_MOVE
	if (comparable && steady && ratio < recorded.ratio * GATE)
		failures.push(
			`throughput ${ratio.toFixed(4)} of the floor, below ${GATE} × the recorded ${recorded.ratio.toFixed(4)} (${recorded.date}, ${recorded.commit}, ${recorded.machine})`,
		)
	const judged = !steady
		? `not judged: the floor moved by more than ${FLOOR_MOVE * 100} % during the run`
		: comparable
			? `recorded ${recorded.ratio.toFixed(4)} on ${recorded.date}, fails below ${(recorded.ratio * GATE).toFixed(4)}`
			: `not judged: no ratio recorded for ${SECONDS} s and ${CLIENTS} clients on ${DIALECT}`
	const signedIn = latency.get('signed-in page') ?? []
	const pct = (xs: number[], q: number) =>
		xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))].toFixed(0) : '-'
	const kinds = [...byKind].map(([k, n]) => `${k} ${n}`).join(', ')
	const codes = [...statuses]
		.sort(([a], [b]) => a - b)
		.map(([s, n]) => `${s}:${n}`)
		.join(' ')
	console.log(
		`soak (${DIALECT}): ${loadSeconds.toFixed(1)} s, ${CLIENTS} clients, ${requests} requests (${kinds}), ${rps.toFixed(0)} req/s = ${ratio.toFixed(4)} of the floor (the app's ${floor.path}, as long as ${FLOOR_PAGE}, to the same ${CLIENTS}-client loop: ${floorBefore.toFixed(0)} req/s before, ${floorAfter.toFixed(0)} after; ${judged}), signed-in pages p50 ${pct(signedIn, 0.5)} ms p99 ${pct(signedIn, 0.99)} ms, statuses ${codes}, ${fiveHundreds} 5xx, ${checked} acknowledged writes checked (${acked.complete.length} completions, ${acked.quiz.length} quiz attempts, ${acked.handIn.length} hand-ins), ${missing} missing, ${failures.length} failures, total ${((Date.now() - started) / 1000).toFixed(0)} s`,
	)
	console.log(
		`  latency ms (p50/p95/max): ${[...latency].map(([k, xs]) => `${k} ${pct(xs, 0.5)}/${pct(xs, 0.95)}/${pct(xs, 1)}`).join(', ')}`,
	)
	const ok = failures.length === 0 && fiveHundreds === 0 && missing === 0
	if (ok && steady && process.env.SOAK_RECORD === '1') {
		const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim()
		const entry: Recorded = {
			ratio: Number(ratio.toFixed(5)),
			soakRps: Math.round(rps),
			floorRps: Math.round(floorRps),
			seconds: SECONDS,
			clients: CLIENTS,
			date: new Date().toISOString().slice(0, 10),
			machine: machine(),
			commit,
		}
		writeFileSync(RECORD_FILE, `${JSON.stringify({ ...recordedAll, [DIALECT]: entry }, null, '\t')}\n`)
		console.log(`  recorded: ${RECORD_FILE} ${DIALECT} ratio ${entry.ratio} (commit it with the change that moved it)`)
	} else if (comparable && ratio > recorded.ratio * 1.1)
		console.log(
			`  ${ratio.toFixed(4)} is ${((ratio / recorded.ratio - 1) * 100).toFixed(0)} % above the recorded ratio: SOAK_RECORD=1 raises the bar`,
		)
	for (const f of [...new Set(failures)].slice(0, 20)) console.log(`  failure: ${f}`)

	agent.destroy()
	await cms.close()
	await mail.close()
	await db.drop()
	return ok
}

main().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error) => {
		console.error(`soak: ${error instanceof Error ? error.stack : String(error)}`)
		process.exit(1)
	},
)
