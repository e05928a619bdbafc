/**
 * Outgoing webhooks under faults (issue 49, decision 0072): the app process killed in the middle of
 * a delivery, and the receiver gone for a minute, as the issue asks (WEBHOOK_FAULT_STOP_SECONDS, 60 by
 * default; 10 makes a quick local run) while events keep being written. Another process takes over:
 * every event arrives verified (standardwebhooks) at least once, and the receiver's de-duplication
 * by webhook-id leaves exactly one effect per event. The two databases run at the same time: the
 * file mostly waits, and one after the other would be over two minutes.
 */
import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { seedDemoData } from '#db/seed.ts'
import { createUser } from '#tests/support/repository.ts'
import { browser } from '#tests/support/client.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startMailSink, type MailSink } from '#tests/support/mail.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { answers, startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'
import { reportFault, sleep, until } from './support.ts'

const ACME = 'acme.localhost'
const STOP_SECONDS = Number(process.env.WEBHOOK_FAULT_STOP_SECONDS ?? 60)
const TIMEOUT_SECONDS = 3
/**
 * The retries, compressed from the production day: doubling from 1 s to 8 s, then every 8 s for
 * twice the receiver's absence. Spanning it, with a bounded last gap, so the wait after the receiver
 * is back is seconds whatever the stop, and no event runs out of attempts meanwhile.
 */
const RETRY_SCHEDULE = [1, 2, 4, 8, ...Array<number>(Math.ceil((2 * STOP_SECONDS) / 8)).fill(8)].join(',')

describe.concurrent.each(DIALECTS)('outgoing webhooks under faults on %s', (dialect) => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	let mail: MailSink
	let receiver: WebhookReceiver
	let acmeId = ''
	let env: Record<string, string> = {}
	const procs: AppProcess[] = []

	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		acmeId = (await seedDemoData(db, DEMO_PASSWORD)).tenants.acme.id
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		mail = await startMailSink()
		receiver = await startWebhookReceiver()
		env = {
			DATABASE_URL: db.url,
			CMS_API_URL: cms.url,
			SMTP_HOST: '127.0.0.1',
			SMTP_PORT: String(mail.port),
			JOB_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
			JOB_RETRY_DELAY_SECONDS: '1',
			WEBHOOK_ALLOW_LOOPBACK: 'true',
			WEBHOOK_RETRY_SCHEDULE_SECONDS: RETRY_SCHEDULE,
		}
		procs.push(await startAppProcess(env))
	}, 90_000)
	afterAll(async () => {
		for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL')
		await Promise.all(procs.map((p) => p.exited))
		await receiver?.close()
		await mail?.close()
		await cms?.close()
		await db?.drop()
	})

	let n = 0
	const newUsers = async (count: number) => {
		const ids: string[] = []
		for (let i = 0; i < count; i++) {
			n += 1
			const user = await createUser(db, {
				tenant_id: acmeId,
				email: `fault-hook-${n}@acme.test`,
				name: `Fault ${n}`,
				role: 'student',
				password_hash: 'x',
			})
			ids.push(user.id)
		}
		return ids
	}

	it(
		'delivers every event at least once, verified, across a killed process and a stopped receiver; one effect each',
		async () => {
			// The endpoint, added by the tenant's admin on the first process's page.
			const admin = browser(procs[0].port, ACME)
			expect((await admin.post('/learn/sign-in', { email: 'admin@acme.test', password: DEMO_PASSWORD })).status).toBe(
				302,
			)
			const form = [
				['intent', 'add'],
				['url', receiver.url()],
				['events', 'user.created'],
			]
			const added = await admin.post('/admin/settings/webhooks', form as unknown as Record<string, string>)
			expect(added.status).toBe(200)
			receiver.state.secrets = [load(added.text)('code.webhook-secret').text()]

			// The receiver holds every delivery without answering: the process is killed mid-delivery.
			receiver.state.answer = answers.hang
			const users = await newUsers(5)
			await until('a delivery under way', 20_000, () => receiver.deliveries.length > 0)
			procs[0].child.kill('SIGKILL')
			await procs[0].exited
			// The receiver gone too; events keep being written with no process running.
			await receiver.down()
			users.push(...(await newUsers(3)))
			procs.push(await startAppProcess(env))
			const stoppedAt = Date.now()
			users.push(...(await newUsers(2)))
			await sleep(STOP_SECONDS * 1000)
			receiver.state.answer = answers.ok
			await receiver.up()
			const back = Date.now()

			const ev = db.t.webhook_events
			const events = await db.orm
				.select({ id: ev.id })
				.from(ev)
				.where(and(eq(ev.tenant_id, acmeId), eq(ev.type, 'user.created')))
			const mine = new Set(events.map((e) => e.id))
			await receiver.waitFor((list) => [...mine].every((id) => list.some((d) => d.id === id)), 120_000)
			const effects = [...receiver.effects.values()].filter((d) => mine.has(d.id))
			// One event per user, each arrived verified; duplicates (the killed attempt, retries) are deliveries, not effects.
			expect(events).toHaveLength(users.length)
			expect(effects).toHaveLength(users.length)
			expect(new Set(effects.map((d) => (d.data.user as { id: string }).id))).toEqual(new Set(users))
			for (const d of effects) expect(d.verifiedBy).toEqual([0])
			const delivered = receiver.deliveries.filter((d) => mine.has(d.id))
			expect(delivered.every((d) => d.verifiedBy.length === 1)).toBe(true)
			reportFault('webhooks: process killed mid-delivery, receiver stopped', dialect, {
				events: users.length,
				deliveries: delivered.length,
				effects: effects.length,
				'receiver stopped s': STOP_SECONDS,
				'all arrived after s': Math.round((Date.now() - back) / 100) / 10,
				'receiver back after the second process started s': Math.round((back - stoppedAt) / 100) / 10,
			})
		},
		STOP_SECONDS * 1000 + 180_000,
	)
})
