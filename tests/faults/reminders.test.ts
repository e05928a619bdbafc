/**
 * Reminders exactly once across processes and crashes (issue 41, decision 0047), against the built
 * app in processes of its own, as the loopback SMTP server sees it:
 *
 * - PostgreSQL, two app processes: the schedule gives one sweep job per period however many processes
 *   ask; then twenty sweep jobs written at one moment are taken by both processes, which sweep the same
 *   learners at the same time: each learner gets one mail.
 * - PostgreSQL: the process holding the sweep job is killed (SIGKILL) in the middle of the sweep (held
 *   at one learner's reminder by a row lock of the test's); the other process runs the job again after
 *   its timeout: each learner gets one mail, those queued before the kill included.
 * - SQLite (one process): the process is killed while it holds the sweep job; a new process on the same
 *   file takes the job once its attempt timed out: each learner gets one mail.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { enqueue } from '#app/jobs.server.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startMailSink, type MailSink } from '#tests/support/mail.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { holdReminderKey, inactiveLearners, logLines, reportFault, sleep, until } from './support.ts'

const TIMEOUT_SECONDS = 3

const sweepsStarted = (app: AppProcess) => logLines(app, 'job/started').filter((l) => l.job === 'reminders.sweep')

/** Reminders recorded for these learners. */
async function recorded(db: TestDatabase, learners: Array<{ id: string }>) {
	const r = db.t.reminders_sent
	const ids = new Set(learners.map((l) => l.id))
	return (await db.orm.select({ user: r.user_id }).from(r).where(eq(r.kind, 'inactivity'))).filter((row) =>
		ids.has(row.user),
	).length
}

describe.each(DIALECTS.filter((d) => d === 'pg'))('reminders across two app processes on %s', () => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	let mail: MailSink
	let acmeId = ''
	const procs: AppProcess[] = []
	const env = (more: Record<string, string> = {}) => ({
		DATABASE_URL: db.url,
		CMS_API_URL: cms.url,
		SMTP_HOST: '127.0.0.1',
		SMTP_PORT: String(mail.port),
		JOB_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
		JOB_RETRY_DELAY_SECONDS: '1',
		...more,
	})

	beforeAll(async () => {
		db = await createTestDatabase('pg')
		acmeId = (await seedDemoData(db, DEMO_PASSWORD)).tenants.acme.id
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		mail = await startMailSink()
	}, 90_000)
	afterAll(async () => {
		for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL')
		await Promise.all(procs.map((p) => p.exited))
		await mail?.close()
		await cms?.close()
		await db?.drop()
	})

	it('schedules one sweep per period, and two processes sweeping at the same moment mail each learner once', async () => {
		const learners = await inactiveLearners(db, acmeId, 20, 'two')
		// Both processes ask for a sweep every period (2 s here).
		const started = await Promise.all([
			startAppProcess(env({ REMINDER_SWEEP_SECONDS: '2' })),
			startAppProcess(env({ REMINDER_SWEEP_SECONDS: '2' })),
		])
		procs.push(...started)
		await until('every reminder mailed', 30_000, () => learners.every((l) => mail.count(l.email) >= 1))
		await sleep(5_000)
		const slots = (await db.orm.execute(
			sql.raw(
				`select singleton_on, count(*)::int as n from pgboss.job where name = 'lms' and singleton_key = 'reminders.sweep' group by 1`,
			),
		)) as unknown as Array<{ n: number }>
		// One job per period although two processes asked several times each.
		expect(slots.length).toBeGreaterThanOrEqual(3)
		expect(slots.every((s) => s.n === 1)).toBe(true)

		// Now sixty sweeps at one moment over twenty more learners: each process takes some of them (a
		// worker polls again at once after a full batch of ten, so fewer could all go to the first to poll).
		const more = await inactiveLearners(db, acmeId, 20, 'burst')
		const before = started.map((p) => sweepsStarted(p).length)
		await Promise.all(Array.from({ length: 60 }, () => enqueue(db, 'reminders.sweep', {})))
		await until('the burst mailed', 30_000, () => more.every((l) => mail.count(l.email) >= 1))
		await sleep(3_000)
		const swept = started.map((p, i) => sweepsStarted(p).length - before[i])
		expect(swept.every((n) => n >= 1)).toBe(true)
		for (const l of [...learners, ...more]) expect(mail.count(l.email)).toBe(1)
		expect(await recorded(db, [...learners, ...more])).toBe(40)
		const queuedBy = started.map((p) => logLines(p, 'reminders/queued').reduce((a, l) => a + Number(l.reminders), 0))
		reportFault('reminders with two processes sweeping at once', 'pg', {
			'sweep jobs per period': 1,
			'sweeps of the burst per process': swept.join(' + '),
			'reminders queued per process': queuedBy.join(' + '),
			'mails per learner': 1,
		})
		for (const p of started) p.child.kill('SIGTERM')
		await Promise.all(started.map((p) => p.exited))
	}, 90_000)

	it('a SIGKILL of the process holding the sweep, mid-sweep: the other process finishes it, each learner mailed once', async () => {
		// The burst above may leave sweeps queued: its processes stopped, and a stopping process starts no
		// job. Here the one sweep is the test's, so those go first.
		await db.orm.execute(
			sql.raw(
				`delete from pgboss.job where name = 'lms' and data->>'name' = 'reminders.sweep' and state in ('created', 'retry')`,
			),
		)
		const learners = await inactiveLearners(db, acmeId, 12, 'killed')
		const older = mail.messages.length
		// No schedule here: the one sweep is the test's.
		const pair = await Promise.all([
			startAppProcess(env({ REMINDER_SWEEP_SECONDS: '0' })),
			startAppProcess(env({ REMINDER_SWEEP_SECONDS: '0' })),
		])
		procs.push(...pair)
		// Earlier learners were reminded above: only the twelve new ones are due (the sweep skips recorded keys).
		// The test's own transaction holds one learner's key: the sweep waits there, having queued those before it.
		// The sweep goes in user id order: the middle one, so that some are queued before it and some after.
		const held = [...learners].sort((a, b) => (a.id < b.id ? -1 : 1))[6]
		const releaseKey = await holdReminderKey(db, acmeId, held)
		await enqueue(db, 'reminders.sweep', {})
		// The sweep starts, queues the learners before the held one and waits on its key (for up to the
		// app's 2 s client deadline, then the attempt fails and is retried): the kill lands in that wait.
		await until('the sweep to start', 10_000, () => pair.some((p) => sweepsStarted(p).length > 0))
		await sleep(400)
		const holderProc = pair.find((p) => sweepsStarted(p).length > 0)!
		const survivor = pair.find((p) => p !== holderProc)!
		const killedAt = Date.now()
		holderProc.child.kill('SIGKILL')
		await holderProc.exited
		const queuedBeforeKill = await recorded(db, learners)
		await releaseKey()
		await until('every learner mailed', 40_000, () => learners.every((l) => mail.count(l.email) >= 1))
		const after = Date.now() - killedAt
		await sleep(3_000)
		for (const l of learners) expect(mail.count(l.email)).toBe(1)
		expect(mail.messages.length - older).toBe(learners.length)
		expect(await recorded(db, learners)).toBe(learners.length)
		expect(sweepsStarted(survivor).length).toBeGreaterThanOrEqual(1)
		const [job] = (await db.orm.execute(
			sql.raw(
				`select state, retry_count from pgboss.job where name = 'lms' and data->>'name' = 'reminders.sweep' and singleton_key is null order by created_on desc limit 1`,
			),
		)) as unknown as Array<{ state: string; retry_count: number }>
		expect(job).toMatchObject({ state: 'completed' })
		expect(job.retry_count).toBeGreaterThanOrEqual(1)
		reportFault('SIGKILL of the process holding the reminder sweep', 'pg', {
			'reminders queued before the kill': queuedBeforeKill,
			'learners mailed': `${learners.length}, each once`,
			'all mailed after the kill within (s)': (after / 1000).toFixed(1),
		})
	}, 90_000)
})

describe.each(DIALECTS.filter((d) => d === 'sqlite'))('reminders after a SIGKILL on %s (one process)', () => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	let mail: MailSink
	const procs: AppProcess[] = []

	beforeAll(async () => {
		db = await createTestDatabase('sqlite')
		await seedDemoData(db, DEMO_PASSWORD)
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		mail = await startMailSink()
	}, 90_000)
	afterAll(async () => {
		for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL')
		await Promise.all(procs.map((p) => p.exited))
		await mail?.close()
		await cms?.close()
		await db?.drop()
	})

	it('the restarted process takes the killed one’s sweep after its timeout: each learner mailed once', async () => {
		const acme = (await db.orm.select().from(db.t.tenants).where(eq(db.t.tenants.slug, 'acme')))[0]
		// Enough learners that the sweep takes a while (the kill lands in it, see the report's count).
		const learners = await inactiveLearners(db, acme.id, 200, 'sq')
		const env = {
			DATABASE_URL: db.url,
			CMS_API_URL: cms.url,
			SMTP_HOST: '127.0.0.1',
			SMTP_PORT: String(mail.port),
			JOB_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
			JOB_RETRY_DELAY_SECONDS: '1',
			REMINDER_SWEEP_SECONDS: '0',
		}
		const first = await startAppProcess(env)
		procs.push(first)
		await enqueue(db, 'reminders.sweep', {})
		await until('the sweep to start', 10_000, () => sweepsStarted(first).length > 0)
		first.child.kill('SIGKILL')
		await first.exited
		const queuedBeforeKill = await recorded(db, learners)
		const second = await startAppProcess(env)
		procs.push(second)
		await until('every learner mailed', 60_000, () => learners.every((l) => mail.count(l.email) >= 1))
		await sleep(2_000)
		for (const l of learners) expect(mail.count(l.email)).toBe(1)
		expect(await recorded(db, learners)).toBe(learners.length)
		reportFault('SIGKILL of the process holding the reminder sweep', 'sqlite', {
			'reminders queued before the kill': queuedBeforeKill,
			'learners mailed': `${learners.length}, each once`,
			'sweeps started after the restart': sweepsStarted(second).length,
		})
		second.child.kill('SIGTERM')
		await second.exited
	}, 120_000)
})
