/**
 * Fault: Redis down, then answering nothing (issue 26, case 4). The app runs
 * in its own process with the shared rate limits on Redis, reached through a
 * fault proxy. While Redis fails, rate-limited requests must not wait on it
 * (they counted in this process's memory), the limits must still hold per
 * process, and the health probes must keep the process in service: readiness
 * depends on the database only, liveness on nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startFaultProxy, type FaultProxy } from '#tests/support/fault-proxy.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { REDIS_URL } from '#tests/support/upstash.ts'
import { recorder, reportFault, sleep, statusCounts } from './support.ts'

const ACME = 'acme.localhost'

describe.each(DIALECTS.filter((d) => d === 'pg'))('Redis failing under a running app (%s)', () => {
	let db: TestDatabase
	let proxy: FaultProxy
	let app: AppProcess
	let cms: Awaited<ReturnType<typeof startCms>>

	beforeAll(async () => {
		db = await createTestDatabase('pg')
		await seedDemoData(db, DEMO_PASSWORD)
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		const redis = new URL(REDIS_URL)
		proxy = await startFaultProxy({ host: redis.hostname, port: Number(redis.port || 6379) })
		app = await startAppProcess({
			DATABASE_URL: db.url,
			CMS_API_URL: cms.url,
			REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
			RATE_LIMIT_DRIVER: 'redis',
		})
	}, 90_000)
	afterAll(async () => {
		app?.child.kill('SIGKILL')
		await proxy?.close()
		await cms?.close()
		await db?.drop()
	})

	it('counts rate limits in the process at once, and stays ready, while Redis is down or silent', async () => {
		const http = recorder(app.port, ACME)
		// Redis outlives test runs: addresses of this run only.
		const run = Date.now()
		const signIns = async (label: string, email: string, n: number) => {
			const out = []
			for (let i = 0; i < n; i++)
				out.push(await http.send(label, 'POST', '/learn/sign-in', { form: { email, password: 'wrong-password' } }))
			return out
		}
		const probe = async () => ({
			ready: await http.send('ready', 'GET', '/api/health'),
			live: await http.send('live', 'GET', '/api/health/live'),
		})

		const normal = await signIns('redis up', `up-${run}@acme.test`, 3)
		const normalHealth = await probe()

		proxy.down()
		const down = await signIns('redis down', `down-${run}@acme.test`, 11)
		const downHealth = await probe()

		proxy.up()
		await sleep(1_500)
		const back = await probe()
		proxy.mode = 'stall'
		proxy.cut()
		await sleep(1_200)
		const stalled = await signIns('redis silent', `silent-${run}@acme.test`, 11)
		const stalledHealth = await probe()
		proxy.up()
		http.close()

		const slowest = (list: Array<{ ms: number }>) => Math.max(...list.map((a) => a.ms))
		reportFault(
			'redis down and silent',
			'pg',
			{
				requests: http.answers.length,
				statuses: statusCounts(http.answers),
				'slowest sign-in, Redis up / down / silent': `${slowest(normal)} / ${slowest(down)} / ${slowest(stalled)} ms`,
				'11th attempt while down / silent': `${down[10].status} / ${stalled[10].status}`,
				'readiness up / down / back / silent': [normalHealth, downHealth, back, stalledHealth]
					.map((h) => `${h.ready.status} ${JSON.parse(h.ready.body).redis ?? ''}`)
					.join(' / '),
				'liveness while down': downHealth.live.status,
			},
			{ requests: http.answers.length, slowestMs: Math.max(...http.answers.map((a) => a.ms)) },
		)
		expect(normalHealth.ready.status).toBe(200)
		// Fast: a refused or silent store costs at most one 250 ms command timeout a second, never seconds.
		expect(slowest(down)).toBeLessThan(1_000)
		expect(slowest(stalled)).toBeLessThan(1_000)
		// Limited: the policy's 10 attempts in this process, then 429.
		for (const list of [down, stalled]) {
			expect(list.slice(0, 10).every((a) => a.status === 401)).toBe(true)
			expect(list[10].status).toBe(429)
		}
		for (const h of [downHealth, stalledHealth]) {
			expect(h.ready.status).toBe(200)
			expect(JSON.parse(h.ready.body)).toEqual({ status: 'ok', database: 'up', redis: 'down' })
			expect(h.live.status).toBe(200)
			expect(h.ready.ms).toBeLessThan(1_500)
		}
		expect(JSON.parse(back.ready.body).redis).toBe('up')
	}, 90_000)
})
