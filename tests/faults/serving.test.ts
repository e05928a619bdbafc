/**
 * Fault: PostgreSQL down after the host cache expired (issue 26, case 2).
 * What can be served without the database keeps being served: page-cache
 * hits and the discovery files it holds, for a known host, from the last
 * good host resolution; what needs the database answers the branded 503 at
 * once. The app runs in this process (its host cache is shortened to 300 ms
 * instead of waiting a minute) and reaches PostgreSQL through a fault proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS, testEnv } from '#tests/support/env.ts'
import { startFaultProxy, type FaultProxy } from '#tests/support/fault-proxy.ts'
import { freePort, request } from '#tests/support/http.ts'
import { loadBuiltServer } from '#tests/support/stack.ts'
import { reportFault, sleep } from './support.ts'

const ACME = 'acme.localhost'
const CACHED = [
	'/',
	'/learn',
	'/learn/course/intro-to-web',
	'/blog',
	'/blog/welcome',
	'/about',
	'/robots.txt',
	'/sitemap.xml',
]

describe.each(DIALECTS.filter((d) => d === 'pg'))('serving through a database outage (%s)', () => {
	let db: TestDatabase
	let proxy: FaultProxy
	let cms: Awaited<ReturnType<typeof startCms>>
	let app: Awaited<ReturnType<Awaited<ReturnType<typeof loadBuiltServer>>['listen']>>

	beforeAll(async () => {
		db = await createTestDatabase('pg')
		await seedDemoData(db, DEMO_PASSWORD)
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		const url = new URL(db.url)
		proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port) })
		url.host = `127.0.0.1:${proxy.port}`
		const port = await freePort()
		const { listen } = await loadBuiltServer()
		app = await listen({
			env: testEnv({ AUTH_URL: `http://localhost:${port}`, DATABASE_URL: url.toString(), CMS_API_URL: cms.url }),
			port,
			host: '127.0.0.1',
			hostCacheTtlMs: 300,
		})
	}, 60_000)
	afterAll(async () => {
		proxy?.up()
		await app?.close()
		await proxy?.close()
		await cms?.close()
		await db?.drop()
	})

	it('keeps serving cached pages and files of a known host, and refuses the rest at once', async () => {
		const get = (path: string, host = ACME) => request(app.port, host, path)
		for (const path of CACHED) expect((await get(path)).status, path).toBe(200)
		proxy.down()
		// The host cache expires: the next requests must not need the database to find the tenant.
		await sleep(400)
		const timed = async (path: string, host = ACME) => {
			const started = Date.now()
			const res = await get(path, host)
			return { path, res, ms: Date.now() - started }
		}
		const cached = await Promise.all(CACHED.map((p) => timed(p)))
		const needsDatabase = await Promise.all(
			['/learn/course/advanced-css', '/learn/sign-in', '/api/health'].map((p) => timed(p)),
		)
		const unknownHost = await timed('/learn', 'never-seen.localhost')
		proxy.up()
		await sleep(300)
		const after = await timed('/learn/course/advanced-css')

		reportFault(
			'cached pages during an outage',
			'pg',
			{
				'cached answers': `${cached.filter((c) => c.res.status === 200).length} of ${cached.length}`,
				'slowest cached': `${Math.max(...cached.map((c) => c.ms))} ms`,
				'uncached or database answers': needsDatabase.map((c) => `${c.path} ${c.res.status} in ${c.ms} ms`).join(', '),
				'unknown host': `${unknownHost.res.status} in ${unknownHost.ms} ms`,
				'after recovery': `${after.res.status} in ${after.ms} ms`,
			},
			{
				requests: cached.length + needsDatabase.length + 2,
				slowestMs: Math.max(...[...cached, ...needsDatabase, unknownHost].map((c) => c.ms)),
				recoveryMs: after.ms,
			},
		)
		for (const c of cached) {
			expect(c.res.status, c.path).toBe(200)
			expect(c.res.headers['x-page-cache'], c.path).toBe('hit')
			expect(c.ms, c.path).toBeLessThan(500)
		}
		// The sign-in page renders without the database; the others answer the 503 within the bound.
		for (const c of needsDatabase) {
			expect([200, 503], c.path).toContain(c.res.status)
			expect(c.ms, c.path).toBeLessThanOrEqual(2_500)
		}
		expect(needsDatabase.find((c) => c.path === '/api/health')!.res.status).toBe(503)
		expect(unknownHost.res.status).toBe(503)
		expect(unknownHost.ms).toBeLessThanOrEqual(2_500)
		expect(after.res.status).toBe(200)
	}, 60_000)
})
