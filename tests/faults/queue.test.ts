/**
 * The job queue under faults (issue 46, "The queue under faults"; decisions 0033, 0047 and 0058),
 * on PostgreSQL with two app processes that reach the database through a fault proxy, as the
 * loopback SMTP server sees it (mails counted per address):
 *
 * - Mail and reminder jobs across a PostgreSQL outage of QUEUE_OUTAGE_SECONDS (30 s, as CI runs it):
 *   forgot-password and magic-link requests answered and a reminder sweep done before it, while the
 *   SMTP server is down (so every job is still waiting when the database goes); the database
 *   unreachable; then back: every mail delivered once, and both processes serve.
 * - Two processes sending a sweep's reminders, one frozen (SIGSTOP) in the middle of a mail, its SMTP
 *   session and the rest of its batch held for several job timeouts while the other retries its
 *   jobs, then woken (SIGCONT) to finish what it had taken: each learner reminded once.
 * - Two processes, the one running the sweep frozen in the middle of it (in a reminder's transaction)
 *   for several job timeouts while the other retries the sweep, then woken: each learner reminded once.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { enqueue } from '#app/jobs.server.ts'
import { unfinishedJobs } from '#db/jobs.ts'
import { seedDemoData } from '#db/seed.ts'
import { browser } from '#tests/support/client.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startFaultProxy, type FaultProxy } from '#tests/support/fault-proxy.ts'
import { startMailSink, type MailSink } from '#tests/support/mail.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { holdReminderKey, inactiveLearners, logLines, reportFault, sleep, until } from './support.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const OUTAGE_SECONDS = Number(process.env.QUEUE_OUTAGE_SECONDS ?? 30)
const TIMEOUT_SECONDS = 3
/** How long the frozen process stays stopped: several job timeouts, so the other one retries what it held. */
const FROZEN_SECONDS = 4 * TIMEOUT_SECONDS

/** Mails delivered beyond the expected count per address, over every address. */
function duplicates(mail: MailSink, expected: Map<string, number>) {
	return [...expected].reduce((sum, [to, n]) => sum + Math.max(0, mail.count(to) - n), 0)
}

/** The job ids whose latest attempt in this process has started and not ended, by its log. */
function jobsUnderWay(app: AppProcess) {
	const last = new Map<unknown, unknown>()
	for (const line of app.output.join('').split('\n')) {
		const at = line.indexOf('{"')
		if (!line.includes('"event":"job/') || at < 0) continue
		const fields = JSON.parse(line.slice(at)) as Record<string, unknown>
		last.set(fields.id, fields.event)
	}
	return [...last].filter(([, event]) => event === 'job/started').map(([id]) => id)
}

/** How many of a process's log lines of `event` pass `filter`. */
function count(app: AppProcess, event: string, filter: (line: Record<string, unknown>) => boolean = () => true) {
	return logLines(app, event).filter(filter).length
}
const retried = (line: Record<string, unknown>) => line.job === 'mail.reminder' && Number(line.attempt) > 1

describe.each(DIALECTS.filter((d) => d === 'pg'))('the job queue under faults on %s, two processes', () => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	let mail: MailSink
	let proxy: FaultProxy
	let acmeId = ''
	const procs: AppProcess[] = []

	beforeAll(async () => {
		db = await createTestDatabase('pg')
		acmeId = (await seedDemoData(db, DEMO_PASSWORD)).tenants.acme.id
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		mail = await startMailSink()
		const url = new URL(db.url)
		proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port) })
		url.host = `127.0.0.1:${proxy.port}`
		const env = {
			DATABASE_URL: url.toString(),
			CMS_API_URL: cms.url,
			SMTP_HOST: '127.0.0.1',
			SMTP_PORT: String(mail.port),
			JOB_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
			JOB_RETRY_DELAY_SECONDS: '1',
			JOB_RETRY_LIMIT: '10',
		}
		procs.push(...(await Promise.all([startAppProcess(env), startAppProcess(env)])))
	}, 90_000)
	afterAll(async () => {
		for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL')
		await Promise.all(procs.map((p) => p.exited))
		await proxy?.close()
		await mail?.close()
		await cms?.close()
		await db?.drop()
	})

	it(
		`delivers mail and reminder jobs written before a ${OUTAGE_SECONDS} s PostgreSQL outage once each after it`,
		async () => {
			const hash = await hashPassword(DEMO_PASSWORD)
			const accounts: string[] = []
			for (let i = 0; i < 6; i++) {
				const email = `outage-mail-${i}@acme.test`
				await createUser(db, {
					tenant_id: acmeId,
					email,
					name: `Mail ${i}`,
					role: 'student',
					password_hash: hash,
					email_verified_at: new Date(),
				})
				accounts.push(email)
			}
			const learners = await inactiveLearners(db, acmeId, 10, 'outage-reminded')
			// The SMTP server down: every job written below fails its attempts and waits for a retry, so
			// each one is still in the queue when the database goes away.
			await mail.down()
			const answers = await Promise.all(
				accounts.flatMap((email, i) => {
					const b = browser(procs[i % 2].port, ACME)
					return [b.post('/learn/forgot', { email }), b.post('/learn/magic', { email })]
				}),
			)
			expect(answers.every((a) => a.status === 302 || a.status === 200)).toBe(true)
			await enqueue(db, 'reminders.sweep', {})
			const r = db.t.reminders_sent
			const ids = new Set(learners.map((l) => l.id))
			await until('the sweep to record every reminder', 20_000, async () => {
				const rows = await db.orm.select({ user: r.user_id }).from(r).where(eq(r.kind, 'inactivity'))
				return rows.filter((row) => ids.has(row.user)).length === learners.length
			})
			const failedBefore = procs.reduce((n, p) => n + logLines(p, 'email/failed').length, 0)
			// PostgreSQL unreachable from both processes; the SMTP server back a second later (an attempt
			// under way at the cut has failed at SMTP by then), so that only the database stands between
			// the jobs and their mail.
			const sentBefore = mail.messages.length
			proxy.down()
			await sleep(1_000)
			await mail.up()
			await sleep(OUTAGE_SECONDS * 1000 - 1_000)
			const sentDuring = mail.messages.length - sentBefore
			proxy.up()
			const back = Date.now()
			const expected = new Map<string, number>([
				...accounts.map((a) => [a, 2] as [string, number]),
				...learners.map((l) => [l.email, 1] as [string, number]),
			])
			await until('every mail delivered', 60_000, () => [...expected].every(([to, n]) => mail.count(to) >= n))
			const recovery = Date.now() - back
			await until('the queue drained', 30_000, async () => (await unfinishedJobs(db)) === 0)
			await sleep(2_000)
			const delivered = [...expected.keys()].reduce((n, to) => n + mail.count(to), 0)
			reportFault(`mail and reminder jobs across a ${OUTAGE_SECONDS} s PostgreSQL outage`, 'pg', {
				requests: answers.length,
				jobs: answers.length + learners.length + 1,
				'mails expected': accounts.length * 2 + learners.length,
				'mails delivered': delivered,
				duplicates: duplicates(mail, expected),
				'email/failed before the outage': failedBefore,
				'all delivered after the database was back within (s)': (recovery / 1000).toFixed(1),
			})
			for (const [to, n] of expected) expect(mail.count(to), to).toBe(n)
			expect(sentDuring).toBe(0)
			// Both processes serve again.
			for (const p of procs) expect((await browser(p.port, ACME).get('/learn/sign-in')).status).toBe(200)
		},
		(OUTAGE_SECONDS + 120) * 1000,
	)

	it('two processes sending reminders, one frozen mid-mail past the job timeout and woken: each learner reminded once', async () => {
		const learners = await inactiveLearners(db, acmeId, 12, 'frozen-reminded')
		// The SMTP server holds the next message unanswered: its sender is stuck in the middle of a mail,
		// with the rest of its batch taken and not run. When the frozen sender wakes, its SMTP client
		// gives up (nothing delivered): a server that said yes to a frozen sender would be a mail sent
		// that its sender never heard of, at least once (decision 0058).
		const held = mail.hold(20_000, 1)
		const before = procs.map((p) => ({
			retried: count(p, 'job/started', retried),
			started: count(p, 'job/started'),
			refused: count(p, 'email/already-sent'),
		}))
		await enqueue(db, 'reminders.sweep', {})
		const heldTo = (await held).to
		const heldFor = learners.find((l) => l.email === heldTo)!
		const [job] = (await db.orm.execute(
			sql`select id from pgboss.job where name = 'lms' and data->>'name' = 'mail.reminder' and data->'payload'->>'userId' = ${heldFor.id}`,
		)) as unknown as Array<{ id: string }>
		const frozen = await until('the held mail’s sender', 5_000, () =>
			procs.find((p) => jobsUnderWay(p).includes(job.id)),
		)
		const other = procs.find((p) => p !== frozen)!
		const mark = (p: AppProcess) => before[procs.indexOf(p)]
		frozen.child.kill('SIGSTOP')
		const frozenAt = Date.now()
		await sleep(FROZEN_SECONDS * 1000)
		const retriedByOther = count(other, 'job/started', retried) - mark(other).retried
		frozen.child.kill('SIGCONT')
		const woken = Date.now()
		await until('every learner mailed', 60_000, () => learners.every((l) => mail.count(l.email) >= 1))
		await until('the queue drained', 60_000, async () => (await unfinishedJobs(db)) === 0)
		const settled = Date.now() - woken
		// Long enough for a stale attempt of the woken process to show itself.
		await sleep(3_000)
		const expected = new Map(learners.map((l) => [l.email, 1]))
		const dupes = duplicates(mail, expected)
		reportFault('two processes sending reminders, one frozen past the job timeout', 'pg', {
			jobs: learners.length + 1,
			'mails expected': learners.length,
			'mails delivered': learners.reduce((n, l) => n + mail.count(l.email), 0),
			duplicates: dupes,
			'frozen for (s)': ((woken - frozenAt) / 1000).toFixed(1),
			'attempts retried by the other process': retriedByOther,
			'attempts of the woken process': count(frozen, 'job/started') - mark(frozen).started,
			'sends refused as already made': procs.reduce(
				(n, p, i) => n + count(p, 'email/already-sent') - before[i].refused,
				0,
			),
			'queue drained after waking within (s)': (settled / 1000).toFixed(1),
		})
		for (const l of learners) expect(mail.count(l.email), l.email).toBe(1)
		expect(retriedByOther).toBeGreaterThanOrEqual(1)
		// Each carries its job's mail key as Message-ID, the same for every attempt: a receiver can drop a repeat.
		const ids = mail.messages.filter((m) => expected.has(m.to)).map((m) => m.headers['message-id'])
		expect(ids.every((id) => /^<[0-9a-f-]{36}\.0@lms\.test>$/.test(id))).toBe(true)
		expect(new Set(ids).size).toBe(learners.length)
		for (const p of procs) expect((await browser(p.port, ACME).get('/learn/sign-in')).status).toBe(200)
	}, 120_000)

	it('two processes sweeping reminders, one frozen mid-sweep past the job timeout and woken: each learner reminded once', async () => {
		const learners = await inactiveLearners(db, acmeId, 12, 'frozen-sweep')
		// The sweep goes in user id order; it waits at the middle learner's key, held by the test, having
		// queued those before it.
		const held = [...learners].sort((a, b) => (a.id < b.id ? -1 : 1))[6]
		const releaseKey = await holdReminderKey(db, acmeId, held)
		const sweeps = (app: AppProcess) => logLines(app, 'job/started').filter((l) => l.job === 'reminders.sweep')
		const before = procs.map((p) => sweeps(p).length)
		await enqueue(db, 'reminders.sweep', {})
		const [frozen, other] = await until('a process sweeping', 10_000, () => {
			const i = procs.findIndex((p, n) => sweeps(p).length > before[n])
			return i < 0 ? null : [procs[i], procs[1 - i]]
		})
		await sleep(300)
		frozen.child.kill('SIGSTOP')
		const frozenAt = Date.now()
		// The key let go: the frozen sweep's own insert of it goes through on the server, in a transaction
		// its process cannot end. The other process retries the sweep after the job timeout and meets it.
		await releaseKey()
		const r = db.t.reminders_sent
		const ids = new Set(learners.map((l) => l.id))
		const recorded = async () =>
			(await db.orm.select({ user: r.user_id }).from(r).where(eq(r.kind, 'inactivity'))).filter((row) =>
				ids.has(row.user),
			).length
		const queuedBeforeWaking = await recorded()
		await sleep(FROZEN_SECONDS * 1000)
		const sweptByOther = sweeps(other).length - before[procs.indexOf(other)]
		frozen.child.kill('SIGCONT')
		const woken = Date.now()
		await until('every learner mailed', 60_000, () => learners.every((l) => mail.count(l.email) >= 1))
		await until('the queue drained', 60_000, async () => (await unfinishedJobs(db)) === 0)
		const settled = Date.now() - woken
		await sleep(3_000)
		const expected = new Map(learners.map((l) => [l.email, 1]))
		reportFault('two processes sweeping reminders, one frozen mid-sweep past the job timeout', 'pg', {
			jobs: `1 sweep + ${learners.length} mails`,
			'mails expected': learners.length,
			'mails delivered': learners.reduce((n, l) => n + mail.count(l.email), 0),
			duplicates: duplicates(mail, expected),
			'frozen for (s)': ((woken - frozenAt) / 1000).toFixed(1),
			'reminders recorded while frozen': queuedBeforeWaking,
			'sweep attempts of the other process while frozen': sweptByOther,
			'all mailed and the queue drained after waking within (s)': (settled / 1000).toFixed(1),
		})
		for (const l of learners) expect(mail.count(l.email), l.email).toBe(1)
		expect(await recorded()).toBe(learners.length)
		expect(sweptByOther).toBeGreaterThanOrEqual(1)
		for (const p of procs) expect((await browser(p.port, ACME).get('/learn/sign-in')).status).toBe(200)
	}, 120_000)
})
