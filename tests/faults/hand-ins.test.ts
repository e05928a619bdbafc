/**
 * Fault: large hand-ins, many at once, with and without the database failing mid-body (issue 36,
 * item 7). The app runs as `npm run start:prod` does (migrations, then serve) on a 192 MB heap, in a
 * process of its own; PostgreSQL is reached through the fault proxy, SQLite is locked by another
 * connection. Asserted per case: the process stays up and then serves a page, its RSS stays under
 * RSS_BOUND_MB, every answer is one the design allows (302 stored, 503 busy or database down), and
 * no unclaimed file is left once the case's answers are in (or, after a SIGKILL mid-upload, once
 * the next process's sweep has run).
 */
import { readFileSync } from 'node:fs'
import { isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startFaultProxy, type FaultProxy } from '#tests/support/fault-proxy.ts'
import { request } from '#tests/support/http.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { streamHandIn, type StreamedAnswer } from '#tests/support/uploads.ts'
import { holdPgLock, holdSqliteWriteLock, reportFault, sleep } from './support.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const ASSIGNMENT = `/learn/course/${COURSE}/entry/build-a-form`
const LEARNERS = 6
const MB10 = 10_000_000
/**
 * The RSS a 192 MB-heap process may reach while taking these hand-ins: its RSS at rest (150–180 MB)
 * plus a few MB of buffers per hand-in slot, and what the heap grows to meanwhile. Measured with the
 * bounded reader (3 slots, printed per case): 205–220 MB on SQLite, 244–253 MB on PostgreSQL since
 * chunks go to it as bytes (decision 0068). Before, the driver sent each 256 KiB chunk as a 512 KiB
 * hex string that waited in the heap for a full collection: 304–390 MB, and in one CI run in four
 * the heap's collection fell behind and the process ended ("Ineffective mark-compacts near heap
 * limit"). The bound fails that (its 6-at-once case measured 359 MB here) and leaves a fresh
 * machine's slower start room.
 */
const RSS_BOUND_MB = 320
const CONCURRENCY = 3

function rssMb(pid: number) {
	try {
		const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
		return kb ? Math.round(Number(kb) / 1024) : 0
	} catch {
		return 0
	}
}

describe.each(DIALECTS)('hand-ins of 3 x 10 MB, many at once, with the database failing mid-body (%s)', (dialect) => {
	let db: TestDatabase
	let proxy: FaultProxy | null = null
	let app: AppProcess
	let cms: Awaited<ReturnType<typeof startCms>>
	let appDatabaseUrl = ''
	const learners: string[] = []
	const cookies: string[] = []
	const env = () => ({
		DATABASE_URL: appDatabaseUrl,
		CMS_API_URL: cms.url,
		NODE_OPTIONS: '--max-old-space-size=192',
		HAND_IN_CONCURRENCY: String(CONCURRENCY),
		HAND_IN_QUEUE_SECONDS: '1',
		// A body that stops arriving is cut well within the test's time, and what a failed clean-up
		// leaves is swept within 30 s (every 10 s, once 20 s old).
		HAND_IN_BODY_SECONDS: '15',
		HAND_IN_ORPHAN_GRACE_SECONDS: '20',
	})

	async function signIn() {
		cookies.length = 0
		for (const email of learners) {
			const res = await request(app.port, ACME, '/learn/sign-in', {
				method: 'POST',
				body: new URLSearchParams({ email, password: DEMO_PASSWORD }).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${ACME}:${app.port}` },
			})
			expect(res.status, `sign-in of ${email}`).toBe(302)
			cookies.push(String(res.headers['set-cookie']).match(/lms_session=[^;]+/)![0])
		}
	}

	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		const seeded = await seedDemoData(db, DEMO_PASSWORD)
		const tenantId = seeded.tenants.acme.id
		const hash = await hashPassword(DEMO_PASSWORD)
		for (let i = 0; i < LEARNERS; i++) {
			const user = await createUser(db, {
				tenant_id: tenantId,
				email: `upload-${i}@acme.test`,
				name: `Upload ${i}`,
				role: 'student',
				password_hash: hash,
				email_verified_at: new Date(),
			})
			await putEnrollment(db, { tenantId, userId: user.id }, COURSE, 'active')
			// The assignment opens once the module's lesson before it is complete.
			await markEntryCompleteRow(db, { tenantId, userId: user.id }, COURSE, 'progressive-enhancement')
			learners.push(user.email)
		}
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		appDatabaseUrl = db.url
		if (dialect === 'pg') {
			const url = new URL(db.url)
			proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port) })
			url.host = `127.0.0.1:${proxy.port}`
			appDatabaseUrl = url.toString()
		}
		app = await startAppProcess(env(), { script: 'start-prod' })
		await signIn()
	}, 120_000)
	afterAll(async () => {
		app?.child.kill('SIGKILL')
		await proxy?.close()
		await cms?.close()
		await db?.drop()
	})

	const unclaimed = async () => {
		const f = db.t.submission_files
		return (await db.orm.select({ id: f.id }).from(f).where(isNull(f.submission_id))).length
	}
	const chunks = async () => (await db.orm.select({ id: db.t.file_chunks.file_id }).from(db.t.file_chunks)).length

	/**
	 * `count` learners hand in 3 x 10 MB at once; `fault` starts once the first of them has sent
	 * `faultAfter` bytes and answers when it is over. Answers the statuses and the RSS peak.
	 */
	async function handIns(count: number, fault?: { after: number; run: () => Promise<void> }) {
		const pid = app.child.pid!
		const before = rssMb(pid)
		let peak = before
		const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50)
		let faultRun: Promise<void> | null = null
		const answers: StreamedAnswer[] = await Promise.all(
			Array.from({ length: count }, (_, i) =>
				streamHandIn(app.port, ACME, ASSIGNMENT, {
					cookie: cookies[i],
					fields: [
						['intent', 'hand-in'],
						['text', `Hand-in ${i}`],
						['submission', `fault-${Date.now()}-${i}`],
					],
					files: [1, 2, 3].map((n) => ({ name: `part-${n}.txt`, size: MB10 })),
					onSent: (bytes) => {
						if (fault && !faultRun && bytes >= fault.after) faultRun = fault.run()
					},
				}),
			),
		)
		await faultRun
		clearInterval(sampler)
		peak = Math.max(peak, rssMb(pid))
		return { answers, peak, before }
	}

	/**
	 * The process is up and serves a signed-in page within 2 s of the fault's end (issue 46: full service
	 * within 2 s of the database's return; the pool asks the server again every 200 ms once it is down).
	 */
	async function stillServing() {
		const deadline = Date.now() + 2_000
		for (;;) {
			if (app.child.exitCode !== null) return `exited (${app.child.exitCode}): ${app.output.join('').slice(-400)}`
			const live = await request(app.port, ACME, '/api/health/live').catch((e) => ({ status: String(e) }))
			const page = await request(app.port, ACME, ASSIGNMENT, { headers: { cookie: cookies[0] } }).catch((e) => ({
				status: String(e),
			}))
			if (live.status === 200 && page.status === 200) return 'yes'
			if (Date.now() > deadline) return `live ${live.status}, page ${page.status}`
			await sleep(100)
		}
	}

	const statuses = (answers: StreamedAnswer[]) =>
		answers
			.map((a) => a.status)
			.sort()
			.join(' ')
	/**
	 * Unclaimed files, waited for: a hand-in the database failed removes its files after its answer,
	 * trying again while the database is away or locked (a statement sent as the connection was cut
	 * may never be answered: each try is bounded); what is still left then, the sweep takes.
	 */
	async function leftOver() {
		for (let i = 0; i < 140 && (await unclaimed()) > 0; i++) await sleep(250)
		return unclaimed()
	}

	async function check(name: string, run: Awaited<ReturnType<typeof handIns>>, allowed: number[]) {
		const up = await stillServing()
		const left = await leftOver()
		const unexpected = run.answers.filter((a) => !allowed.includes(a.status))
		reportFault(
			name,
			dialect,
			{
				answers: statuses(run.answers),
				'slowest answer': `${Math.max(...run.answers.map((a) => a.ms))} ms`,
				'RSS before / peak': `${run.before} / ${run.peak} MB (bound ${RSS_BOUND_MB} MB)`,
				'still serving': up,
				'unclaimed files left': left,
			},
			{
				requests: run.answers.length,
				acknowledged: run.answers.filter((a) => a.status === 302).length,
				slowestMs: Math.max(...run.answers.map((a) => a.ms)),
			},
		)
		// What the app logged, for an answer the design does not allow.
		if (unexpected.length > 0) console.log(app.output.join('').slice(-4000))
		expect(up).toBe('yes')
		expect(run.peak, 'RSS peak in MB').toBeLessThanOrEqual(RSS_BOUND_MB)
		expect(unexpected.map((a) => `${a.status} ${a.body.slice(0, 120)}`)).toEqual([])
		expect(left).toBe(0)
		return run
	}

	it('takes 3 concurrent hand-ins of 3 x 10 MB and stays up within its memory', async () => {
		const run = await check(`hand-ins 3 x 30 MB`, await handIns(3), [302])
		// Every one stored (an empty list must not pass: three answers, each 302).
		expect(run.answers.map((a) => a.status)).toEqual([302, 302, 302])
	}, 120_000)

	it('answers 6 concurrent hand-ins with 302 or a 503 to try again, and stays up', async () => {
		const run = await check(`hand-ins 6 x 30 MB`, await handIns(6), [302, 503])
		expect(run.answers.filter((a) => a.status === 302).length).toBeGreaterThanOrEqual(CONCURRENCY)
		for (const a of run.answers.filter((x) => x.status === 503)) expect(a.headers['retry-after']).toBeTruthy()
	}, 120_000)

	it('survives the database failing while the files arrive', async () => {
		const faults =
			dialect === 'pg'
				? [
						{
							name: 'hand-ins 3 x 30 MB, postgres restart mid-body',
							run: async () => {
								proxy!.down()
								await sleep(1_000)
								proxy!.up()
							},
						},
						{
							name: 'hand-ins 3 x 30 MB, file_chunks locked mid-body',
							run: async () => {
								const release = await holdPgLock(db, 'file_chunks')
								await sleep(4_000)
								await release()
							},
						},
					]
				: [
						{
							name: 'hand-ins 3 x 30 MB, sqlite locked mid-body',
							run: async () => {
								const release = holdSqliteWriteLock(db)
								await sleep(6_000)
								release()
							},
						},
					]
		for (const fault of faults) {
			// A restart ends the sessions' connections too: sign in again only if a session was lost.
			const run = await handIns(3, { after: 5_000_000, run: fault.run })
			await check(fault.name, run, [302, 503])
		}
	}, 120_000)

	it('leaves nothing behind a process killed mid-upload once the next one has swept', async () => {
		const pid = app.child.pid!
		const chunksBefore = await chunks()
		const uploads = Promise.all(
			[0, 1, 2].map((i) =>
				streamHandIn(app.port, ACME, ASSIGNMENT, {
					cookie: cookies[i],
					fields: [['intent', 'hand-in']],
					files: [1, 2, 3].map((n) => ({ name: `killed-${n}.txt`, size: MB10 })),
				}),
			),
		)
		// Killed once files are half stored: rows unclaimed, chunks written.
		for (let i = 0; i < 200 && ((await unclaimed()) < 2 || (await chunks()) < chunksBefore + 8); i++) await sleep(25)
		app.child.kill('SIGKILL')
		const answers = await uploads
		await app.exited
		const leftByKill = await unclaimed()
		const chunksByKill = await chunks()
		// The next process sweeps unclaimed files older than its grace (1 s here), at start and then periodically.
		const started = Date.now()
		app = await startAppProcess(
			{ ...env(), HAND_IN_BODY_SECONDS: '1', HAND_IN_ORPHAN_GRACE_SECONDS: '2' },
			{ script: 'start-prod' },
		)
		let left = await unclaimed()
		while (left > 0 && Date.now() - started < 20_000) {
			await sleep(250)
			left = await unclaimed()
		}
		const chunksLeft = await chunks()
		reportFault('hand-ins killed mid-upload', dialect, {
			'killed process pid': pid,
			answers: statuses(answers),
			'unclaimed files after the kill': leftByKill,
			'unclaimed files after the sweep': left,
			'swept within': `${Date.now() - started} ms of the restart`,
			'chunks before / after': `${chunksByKill} / ${chunksLeft}`,
		})
		expect(leftByKill, 'the kill left unclaimed files (else the case shows nothing)').toBeGreaterThan(0)
		expect(left).toBe(0)
		await signIn()
		expect(await stillServing()).toBe('yes')
	}, 120_000)
})
