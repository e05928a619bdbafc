import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { seedDemoData } from '#db/seed.ts'
import { findUserByEmail, updateUser } from '#db/users.ts'
import { browser } from '#tests/support/client.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { request } from '#tests/support/http.ts'
import { REDIS_URL } from '#tests/support/upstash.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/**
 * Two app processes started with `npm run start:prod`'s script on an
 * unmigrated PostgreSQL database (both migrate at once under the advisory
 * lock), sharing that database and one Redis. PostgreSQL only: that is the
 * production mode this checks.
 */
describe.each(DIALECTS.filter((d) => d === 'pg'))('two app processes on %s and Redis', () => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	const procs: AppProcess[] = []

	async function startProcess() {
		const proc = await startAppProcess(
			{ DATABASE_URL: db.url, REDIS_URL, RATE_LIMIT_DRIVER: 'redis', CMS_API_URL: cms.url },
			{ script: 'start-prod' },
		)
		procs.push(proc)
		return proc
	}

	let a: AppProcess
	let b: AppProcess
	beforeAll(async () => {
		db = await createTestDatabase('pg', { migrate: false })
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		;[a, b] = await Promise.all([startProcess(), startProcess()])
		await seedDemoData(db, DEMO_PASSWORD)
	}, 120_000)
	afterAll(async () => {
		for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL')
		await cms?.close()
		await db?.drop()
	})

	it('migrated once under the lock and reports the database and Redis', async () => {
		for (const p of [a, b]) {
			const health = await request(p.port, 'localhost', '/api/health')
			expect(health.json()).toEqual({ status: 'ok', database: 'up', redis: 'up' })
		}
		const [{ n }] = (await db.orm.execute(
			`select count(*)::int as n from drizzle.__drizzle_migrations` as never,
		)) as unknown as Array<{ n: number }>
		// Each migration recorded once, though both processes started at the same time.
		const journal = JSON.parse(readFileSync('drizzle/pg/meta/_journal.json', 'utf8')) as { entries: unknown[] }
		expect(n).toBe(journal.entries.length)
	})

	it('answers the 11th sign-in attempt across both processes with 429', async () => {
		// Redis outlives test runs: an address of this run only.
		const email = `nobody-${Date.now()}@acme.test`
		const statuses: number[] = []
		for (let i = 0; i < 11; i++) {
			const p = i % 2 === 0 ? a : b
			statuses.push((await browser(p.port, ACME).post('/learn/sign-in', { email, password: 'wrong-password' })).status)
		}
		expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
		expect(statuses[10]).toBe(429)
	})

	it('carries a webhook to process A into the page cache of process B within a second', async () => {
		await request(b.port, ACME, '/learn/course/intro-to-web')
		expect((await request(b.port, ACME, '/learn/course/intro-to-web')).headers['x-page-cache']).toBe('hit')
		const hook = await request(a.port, ACME, '/api/cms/revalidate', {
			method: 'POST',
			body: '{"tag":"course:intro-to-web"}',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_SECRETS.CMS_WEBHOOK_SECRET}` },
		})
		expect(hook.status).toBe(200)
		const deadline = Date.now() + 1000
		let state: unknown = 'hit'
		while (Date.now() < deadline && state === 'hit') {
			await new Promise((r) => setTimeout(r, 50))
			state = (await request(b.port, ACME, '/learn/course/intro-to-web')).headers['x-page-cache']
		}
		expect(state).toBe('miss')
	})

	it('signs a user out on B when A deactivates them', async () => {
		const onB = browser(b.port, ACME)
		expect((await onB.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })).status).toBe(302)
		expect((await onB.get('/learn/dashboard')).status).toBe(200)
		const admin = browser(a.port, ACME)
		expect((await admin.post('/learn/sign-in', { email: 'admin@acme.test', password: DEMO_PASSWORD })).status).toBe(302)
		const acme = (await findTenantBySlug(db, 'acme'))!
		const learner = (await findUserByEmail(db, acme.id, 'learner@acme.test'))!
		expect((await admin.post(`/admin/users/${learner.id}`, { intent: 'deactivate', confirmed: 'yes' })).status).toBe(
			302,
		)
		expect((await onB.get('/learn/dashboard')).status).toBe(302)
		await updateUser(db, learner.id, { deactivated_at: null })
	})

	it('drains an in-flight request on SIGTERM, then exits 0', async () => {
		cms.faults.delayMs = 1500
		try {
			// A page never read before: its content request is slow.
			const slow = request(a.port, ACME, '/blog/welcome')
			await new Promise((r) => setTimeout(r, 300))
			a.child.kill('SIGTERM')
			const res = await slow
			expect(res.status).toBe(200)
			expect(res.text).toContain('Welcome to Acme Academy')
			expect(await a.exited).toBe(0)
		} finally {
			cms.faults.delayMs = 0
		}
		// B still serves.
		expect((await request(b.port, ACME, '/learn')).status).toBe(200)
	})
})
