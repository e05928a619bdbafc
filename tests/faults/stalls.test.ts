/**
 * Faults: dependencies that stop answering without refusing (issue 36 items
 * 6, 8, 10 and 11). Each app runs in its own process and reaches PostgreSQL
 * and Redis through fault proxies that swallow what is sent on connections
 * already open ('stall', as a SIGSTOPped server or a partition does); the
 * shared servers are never touched. Asserted, with one `fault …:` line each:
 * - a database stalled for longer than the host cache's lifetime: cached
 *   pages under 50 ms, every other answer within 3 s, liveness fast, and
 *   sign-ins answered 503 not counted (the learner signs in afterwards);
 * - Redis stalled: rate-limited requests within 3 s, and two processes
 *   together allowing the policy once (the database counts), also with
 *   both stalled (liveness still fast);
 * - `site:<host>` revalidation refreshing pages built from the site
 *   document, for a subdomain, the apex and a custom domain, also while the
 *   database is stalled;
 * - `npm run start:prod` waiting for a database that refuses, then serving.
 */
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startFaultProxy, type FaultProxy } from '#tests/support/fault-proxy.ts'
import { request } from '#tests/support/http.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { REDIS_URL } from '#tests/support/upstash.ts'
import { recorder, reportFault, sleep, statusCounts, type Answer } from './support.ts'

const ACME = 'acme.localhost'
const CACHED = ['/', '/learn', '/learn/course/intro-to-web', '/blog', '/about']
/** The host cache's lifetime in these processes: the stalls below last several of them. */
const HOST_TTL_SECONDS = '0.5'

const slowest = (list: Answer[]) => Math.max(0, ...list.map((a) => a.ms))
const cookieOf = (a: Answer) => String(a.headers['set-cookie']).match(/lms_session=[^;]+/)?.[0] ?? ''

/** A database proxy in front of the test database, and the URL that reaches it through the proxy. */
async function proxied(db: TestDatabase) {
	const url = new URL(db.url)
	const proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port) })
	url.host = `127.0.0.1:${proxy.port}`
	return { proxy, url: url.toString() }
}

/** A copy of the demo content the test can edit, served by a local content service. */
async function editableCms() {
	const dir = mkdtempSync(join(tmpdir(), 'lms-stalls-cms-'))
	cpSync('cms/content', dir, { recursive: true })
	const cms = await startCms({
		apiKey: TEST_SECRETS.CMS_API_UUID,
		projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
		contentDir: dir,
	})
	return {
		...cms,
		rename(site: string, from: string, to: string) {
			const file = join(dir, site, 'site.json')
			writeFileSync(file, readFileSync(file, 'utf8').replace(`"${from}"`, `"${to}"`))
			cms.reload()
		},
		async close() {
			await cms.close()
			rmSync(dir, { recursive: true, force: true })
		},
	}
}

function webhook(port: number, host: string, tags: string[]) {
	return request(port, host, '/api/cms/revalidate', {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-cms-webhook-secret': TEST_SECRETS.CMS_WEBHOOK_SECRET },
		body: JSON.stringify({ tags }),
	})
}

describe.each(DIALECTS.filter((d) => d === 'pg'))('a stalled database (%s)', () => {
	let db: TestDatabase
	let proxy: FaultProxy
	let app: AppProcess
	let cms: Awaited<ReturnType<typeof editableCms>>

	beforeAll(async () => {
		db = await createTestDatabase('pg')
		await seedDemoData(db, DEMO_PASSWORD)
		cms = await editableCms()
		const through = await proxied(db)
		proxy = through.proxy
		app = await startAppProcess({
			DATABASE_URL: through.url,
			CMS_API_URL: cms.url,
			HOST_CACHE_TTL_SECONDS: HOST_TTL_SECONDS,
		})
	}, 90_000)
	afterAll(async () => {
		app?.child.kill('SIGKILL')
		await proxy?.close()
		await cms?.close()
		await db?.drop()
	})

	it('serves cached pages at once, answers everything else within 3 s, and does not count 503 sign-ins', async () => {
		const http = recorder(app.port, ACME)
		const learner = { email: 'learner@acme.test', password: DEMO_PASSWORD }
		const signedIn = cookieOf(await http.send('sign-in', 'POST', '/learn/sign-in', { form: learner }))
		expect(signedIn).not.toBe('')
		for (const path of CACHED) await http.send('warm', 'GET', path)
		// Every connection of the pool open and idle, as on a busy server: what is asked during the stall
		// is sent on a connection at once, to a server that will not answer.
		await Promise.all(
			Array.from({ length: 30 }, () => http.send('warm', 'GET', '/learn/dashboard', { cookie: signedIn })),
		)

		proxy.mode = 'stall'
		const stalledAt = http.now()
		const cached: Answer[] = []
		/** Cached pages, one after another, for `ms`. */
		const browse = async (ms: number) => {
			const until = Date.now() + ms
			while (Date.now() < until) {
				for (const path of CACHED) cached.push(await http.send('cached', 'GET', path))
				await sleep(20)
			}
		}
		const live: Answer[] = []
		let probing = true
		const liveness = (async () => {
			while (probing) {
				live.push(await http.send('live', 'GET', '/api/health/live'))
				await sleep(100)
			}
		})()
		// First the host cache expires with nothing else going on, then two rounds of requests that need
		// the database arrive (six sign-ins each, twelve in all: more than the policy's ten, so counted,
		// the second round would meet the limit, and so would the learner afterwards). Cached pages are
		// browsed the whole time; `parked` are the ones answered while every other request waits on the database.
		await browse(1_200)
		const other: Answer[] = []
		const signIns: Answer[] = []
		const parked: Answer[] = []
		for (let round = 0; round < 2; round++) {
			const waiting = Promise.all([
				http.send('dashboard', 'GET', '/learn/dashboard', { cookie: signedIn }),
				http.send('course (signed in)', 'GET', '/learn/course/intro-to-web', { cookie: signedIn }),
				http.send('readiness', 'GET', '/api/health'),
				...Array.from({ length: 6 }, () => http.send('sign-in (stalled)', 'POST', '/learn/sign-in', { form: learner })),
			])
			await sleep(300)
			const from = cached.length
			await browse(1_200)
			parked.push(...cached.slice(from))
			const answers = await waiting
			other.push(...answers.slice(0, 3))
			signIns.push(...answers.slice(3))
			await browse(300)
		}
		probing = false
		await liveness
		const heldMs = http.now() - stalledAt
		proxy.up()

		// After recovery the learner signs in: the 503s were ours, not the learner's.
		let after: Answer | undefined
		const recoveredBy = Date.now() + 10_000
		while (Date.now() < recoveredBy) {
			after = await http.send('sign-in (after)', 'POST', '/learn/sign-in', { form: learner })
			if (after.status !== 503) break
			await sleep(200)
		}
		http.close()

		const sorted = cached.map((a) => a.ms).sort((x, y) => x - y)
		const p95 = sorted[Math.floor(sorted.length * 0.95)]
		reportFault(
			'database stalled past the host cache',
			'pg',
			{
				'stall held': `${heldMs} ms (host cache ${Number(HOST_TTL_SECONDS) * 1000} ms)`,
				'cached pages': `${cached.length}, ${statusCounts(cached)}, median ${sorted[sorted.length >> 1]} ms, p95 ${p95} ms, slowest ${slowest(cached)} ms`,
				'cached pages while others wait on the database': `${parked.length}, p99 ${
					[...parked].sort((x, y) => x.ms - y.ms)[Math.floor(parked.length * 0.99)]?.ms
				} ms, slowest ${slowest(parked)} ms`,
				'other answers': `${statusCounts(other)}, slowest ${slowest(other)} ms`,
				liveness: `${live.length}, ${statusCounts(live)}, slowest ${slowest(live)} ms`,
				'sign-ins while stalled': `${statusCounts(signIns)}, slowest ${slowest(signIns)} ms`,
				'sign-in after recovery': after?.status ?? 'none',
			},
			{
				requests: cached.length + parked.length + other.length + signIns.length + live.length,
				slowestMs: Math.max(slowest(cached), slowest(parked), slowest(other), slowest(signIns), slowest(live)),
			},
		)
		expect(heldMs).toBeGreaterThan(Number(HOST_TTL_SECONDS) * 1000 * 4)
		for (const a of cached) {
			expect(a.status).toBe(200)
			expect(a.headers['x-page-cache']).toBe('hit')
		}
		// Never waiting on the database: every cached page under 50 ms (issue 36), while other requests
		// wait on it as well as over the whole stall. This suite runs alone (VITEST_GROUP=timed); CI's
		// slowest so far was 11 ms, with a median of 1 ms.
		expect(slowest(parked), 'slowest cached page while others wait on the database').toBeLessThan(50)
		expect(slowest(cached), 'slowest cached page').toBeLessThan(50)
		expect(slowest(other), 'slowest other answer').toBeLessThanOrEqual(3_000)
		expect(other.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503])
		expect(live.every((a) => a.status === 200)).toBe(true)
		expect(slowest(live), 'slowest liveness').toBeLessThan(500)
		expect(signIns.map((a) => a.status)).toEqual(Array(12).fill(503))
		expect(slowest(signIns)).toBeLessThanOrEqual(3_000)
		expect(after?.status, 'the learner signs in after the 503s').toBe(302)
	}, 60_000)

	it('refreshes pages built from the site document on site:<host>, for every host kind, also while the database stalls', async () => {
		const http = recorder(app.port, ACME)
		const apex = recorder(app.port, 'localhost')
		const custom = recorder(app.port, 'learn.acme.test')
		const title = (a: Answer) => a.body.match(/<title>([^<]*)/)?.[1] ?? ''
		const warm = async () => {
			for (const path of CACHED) await http.send('warm', 'GET', path)
			await apex.send('warm', 'GET', '/')
			await custom.send('warm', 'GET', '/learn')
		}
		const shows = async (name: string) => {
			const pages = await Promise.all([
				...CACHED.map((p) => http.send('page', 'GET', p)),
				custom.send('page', 'GET', '/learn'),
			])
			return pages.filter((a) => a.status === 200 && title(a).includes(name)).length
		}
		const pages = CACHED.length + 1

		await warm()
		cms.rename('acme', 'Acme Academy', 'Acme Renamed')
		// Sent to the apex, as the content service does: the host in the tag names the site.
		const bySubdomain = await webhook(app.port, 'localhost', ['site:acme.localhost'])
		const renamed = await shows('Acme Renamed')

		cms.rename('acme', 'Acme Renamed', 'Acme Customised')
		const byCustomDomain = await webhook(app.port, 'localhost', ['site:learn.acme.test'])
		const customised = await shows('Acme Customised')

		// The database stalls: a subdomain's tag needs no lookup.
		await warm()
		proxy.mode = 'stall'
		cms.rename('acme', 'Acme Customised', 'Acme Stalled')
		const started = Date.now()
		const whileStalled = await webhook(app.port, 'localhost', ['site:acme.localhost'])
		const webhookMs = Date.now() - started
		const stalledShown = await Promise.all(CACHED.map((p) => http.send('page', 'GET', p)))
		proxy.up()

		const apexBefore = title(await apex.send('page', 'GET', '/'))
		cms.rename('_apex', apexBefore.split(' · ').pop()!, 'Platform Renamed')
		const byApex = await webhook(app.port, ACME, ['site:localhost'])
		const apexAfter = title(await apex.send('page', 'GET', '/'))
		http.close()
		apex.close()
		custom.close()

		reportFault('site:<host> revalidation', 'pg', {
			'subdomain tag': `${bySubdomain.status}, ${renamed} of ${pages} pages renamed`,
			'custom-domain tag': `${byCustomDomain.status}, ${customised} of ${pages} pages renamed`,
			'subdomain tag while the database stalls': `${whileStalled.status} in ${webhookMs} ms, ${
				stalledShown.filter((a) => title(a).includes('Acme Stalled')).length
			} of ${CACHED.length} pages renamed`,
			'apex tag': `${byApex.status}, '${apexBefore}' to '${apexAfter}'`,
		})
		expect([bySubdomain.status, byCustomDomain.status, whileStalled.status, byApex.status]).toEqual([
			200, 200, 200, 200,
		])
		expect(renamed).toBe(pages)
		expect(customised).toBe(pages)
		expect(webhookMs).toBeLessThan(1_000)
		expect(stalledShown.every((a) => a.status === 200 && title(a).includes('Acme Stalled'))).toBe(true)
		expect(apexAfter).toContain('Platform Renamed')
	}, 60_000)
})

describe.each(DIALECTS.filter((d) => d === 'pg'))('a stalled Redis, two processes (%s)', () => {
	let db: TestDatabase
	let dbProxy: FaultProxy
	let redisProxy: FaultProxy
	let apps: AppProcess[] = []
	let cms: Awaited<ReturnType<typeof startCms>>
	const redis = createClient({ url: REDIS_URL })

	beforeAll(async () => {
		db = await createTestDatabase('pg')
		await seedDemoData(db, DEMO_PASSWORD)
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		const through = await proxied(db)
		dbProxy = through.proxy
		const target = new URL(REDIS_URL)
		redisProxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) })
		const env = {
			DATABASE_URL: through.url,
			CMS_API_URL: cms.url,
			REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
			RATE_LIMIT_DRIVER: 'redis',
			HOST_CACHE_TTL_SECONDS: HOST_TTL_SECONDS,
		}
		apps = await Promise.all([startAppProcess(env), startAppProcess(env)])
		await redis.connect()
	}, 90_000)
	afterAll(async () => {
		for (const app of apps) app.child.kill('SIGKILL')
		await redis.quit().catch(() => {})
		await dbProxy?.close()
		await redisProxy?.close()
		await cms?.close()
		await db?.drop()
	})

	it('answers rate-limited requests within 3 s and allows each policy once across both processes', async () => {
		const [a, b] = apps.map((app) => recorder(app.port, ACME))
		// Redis outlives test runs: addresses of this run only.
		const run = Date.now()
		const wrong = (email: string) => ({ form: { email, password: 'wrong-password' } })
		// Both processes have had Redis answer before it stalls (open connections, as in production).
		await a.send('warm', 'POST', '/learn/sign-in', wrong(`warm-${run}@acme.test`))
		await b.send('warm', 'POST', '/learn/sign-in', wrong(`warm-${run}@acme.test`))

		redisProxy.mode = 'stall'
		const stalledAt = Date.now()
		// Sign-ins alternate between the processes: together they allow the policy's ten, not twenty.
		const signIns: Answer[] = []
		for (let i = 0; i < 14; i++)
			signIns.push(await (i % 2 ? b : a).send('sign-in', 'POST', '/learn/sign-in', wrong(`stall-${run}@acme.test`)))
		// A policy Redis counts (the webhook's 60 a minute per address): while it stalls, the database does.
		const hooks: Array<{ status: number; ms: number }> = []
		for (let i = 0; i < 64; i++) {
			const started = Date.now()
			const res = await webhook(apps[i % 2].port, ACME, ['course:intro-to-web'])
			hooks.push({ status: res.status, ms: Date.now() - started })
		}
		const redisStalledMs = Date.now() - stalledAt

		// Both stalled: liveness asks neither.
		dbProxy.mode = 'stall'
		const live: Answer[] = []
		for (let i = 0; i < 20; i++) {
			live.push(await (i % 2 ? b : a).send('live', 'GET', '/api/health/live'))
			await sleep(50)
		}
		dbProxy.up()
		redisProxy.up()
		a.close()
		b.close()

		// The sign-in count lives in the database: a Redis restart without persistence cannot forget it.
		const key = `lms:rl:auth.signIn:${createHash('sha256').update(`127.0.0.1|stall-${run}@acme.test`).digest('base64url').slice(0, 32)}`
		const [row] = await db.orm.select().from(db.t.rate_limit_windows).where(eq(db.t.rate_limit_windows.key, key))
		const inRedis = await redis.exists(key)

		const hookStatuses = new Map<number, number>()
		for (const h of hooks) hookStatuses.set(h.status, (hookStatuses.get(h.status) ?? 0) + 1)
		reportFault('redis stalled, two processes', 'pg', {
			'stall held': `${redisStalledMs} ms`,
			'sign-ins (alternating)': `${signIns.map((s) => s.status).join(' ')}, slowest ${slowest(signIns)} ms`,
			'webhooks (alternating, 60 a minute)': `${[...hookStatuses].map(([s, n]) => `${s}:${n}`).join(' ')}, slowest ${Math.max(...hooks.map((h) => h.ms))} ms`,
			'liveness with both stalled': `${statusCounts(live)}, slowest ${slowest(live)} ms`,
			'sign-in count in the database / in Redis': `${row?.count ?? 'none'} / ${inRedis ? 'present' : 'absent'}`,
		})
		expect(slowest(signIns)).toBeLessThanOrEqual(3_000)
		expect(signIns.slice(0, 10).every((s) => s.status === 401)).toBe(true)
		expect(signIns.slice(10).every((s) => s.status === 429)).toBe(true)
		expect(Math.max(...hooks.map((h) => h.ms))).toBeLessThanOrEqual(3_000)
		expect(hooks.slice(0, 60).every((h) => h.status === 200)).toBe(true)
		expect(hooks.slice(60).every((h) => h.status === 429)).toBe(true)
		expect(live.every((l) => l.status === 200)).toBe(true)
		expect(slowest(live)).toBeLessThan(50)
		expect(row?.count).toBe(14)
		expect(inRedis).toBe(0)
	}, 90_000)
})

describe.each(DIALECTS.filter((d) => d === 'pg'))('npm run start:prod and a database that refuses (%s)', () => {
	let db: TestDatabase
	let proxy: FaultProxy
	let app: AppProcess | undefined
	let cms: Awaited<ReturnType<typeof startCms>>

	beforeAll(async () => {
		// Not migrated: start-prod migrates it once it accepts.
		db = await createTestDatabase('pg', { migrate: false })
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
	}, 60_000)
	afterAll(async () => {
		app?.child.kill('SIGKILL')
		await proxy?.close()
		await cms?.close()
		await db?.drop()
	})

	it('waits and migrates again until the database accepts, then serves', async () => {
		const through = await proxied(db)
		proxy = through.proxy
		proxy.mode = 'refuse'
		const started = Date.now()
		const starting = startAppProcess({ DATABASE_URL: through.url, CMS_API_URL: cms.url }, { script: 'start-prod' })
		const refusedFor = 3_000
		await sleep(refusedFor)
		proxy.up()
		app = await starting
		const servedAfter = Date.now() - started
		const output = app.output.join('')
		const retries = output.match(/migrating again/g)?.length ?? 0
		const health = await request(app.port, 'localhost', '/api/health')

		reportFault('start-prod while the database refuses', 'pg', {
			'refused for': `${refusedFor} ms`,
			'migration attempts refused': retries,
			'serving after': `${servedAfter} ms`,
			readiness: health.status,
		})
		expect(retries).toBeGreaterThan(0)
		expect(output).toContain('migrated (pg)')
		expect(health.status).toBe(200)
		expect(app.child.exitCode).toBeNull()
	}, 90_000)
})
