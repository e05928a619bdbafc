import { randomUUID } from 'node:crypto'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
	createMemoryDriver,
	createRedisDriver,
	createUpstashDriver,
	databaseWindows,
	POLICIES,
	type RateLimitDriver,
} from '#app/platform/rate-limit.server.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { REDIS_URL, startUpstashAdapter } from '#tests/support/upstash.ts'

type Factory = () => RateLimitDriver
const closers: Array<() => Promise<unknown>> = []
const drivers: Record<'memory' | 'redis' | 'upstash', { make?: Factory; shared: boolean }> = {
	memory: { make: createMemoryDriver, shared: false },
	redis: { shared: true },
	upstash: { shared: true },
}

beforeAll(async () => {
	// Each `make` is a fresh connection, as a separate process would have.
	drivers.redis.make = () => {
		const client = createClient({ url: REDIS_URL })
		void client.connect()
		closers.push(() => client.quit())
		return createRedisDriver(client)
	}
	const adapter = await startUpstashAdapter('test-upstash-token')
	closers.push(() => adapter.close())
	drivers.upstash.make = () => createUpstashDriver(adapter.url, 'test-upstash-token')
})
afterAll(async () => {
	for (const close of closers.reverse()) await close()
})

describe.each(Object.keys(drivers) as Array<keyof typeof drivers>)('the %s rate-limit driver', (name) => {
	const make = () => drivers[name].make!()
	const key = () => `test|${randomUUID()}`

	it('allows exactly the policy’s points, then refuses with a Retry-After inside the window', async () => {
		const driver = make()
		const k = key()
		for (let i = 0; i < POLICIES['auth.signIn'].points; i++)
			expect((await driver.consume('auth.signIn', k)).allowed, `attempt ${i + 1}`).toBe(true)
		const refused = await driver.consume('auth.signIn', k)
		expect(refused.allowed).toBe(false)
		expect(refused.retryAfter).toBeGreaterThan(0)
		expect(refused.retryAfter).toBeLessThanOrEqual(POLICIES['auth.signIn'].windowMs / 1000)
	})

	it('counts keys and policies apart', async () => {
		const driver = make()
		const k = key()
		for (let i = 0; i < POLICIES.magic.points; i++) await driver.consume('magic', k)
		expect((await driver.consume('magic', k)).allowed).toBe(false)
		expect((await driver.consume('magic', key())).allowed).toBe(true)
		expect((await driver.consume('auth.signIn', k)).allowed).toBe(true)
	})

	it('lets exactly the points through under 50 concurrent hits', async () => {
		const driver = make()
		const k = key()
		const results = await Promise.all(Array.from({ length: 50 }, () => driver.consume('auth.signIn', k)))
		expect(results.filter((r) => r.allowed)).toHaveLength(POLICIES['auth.signIn'].points)
	})

	it(drivers[name].shared ? 'shares counts between two processes' : 'keeps counts inside its process', async () => {
		const [a, b] = [make(), make()]
		const k = key()
		for (let i = 0; i < 5; i++) await a.consume('magic', k)
		expect((await b.consume('magic', k)).allowed).toBe(!drivers[name].shared)
	})
})

describe('a shared driver whose store is down', () => {
	it("counts in the process's memory instead, without waiting on the store", async () => {
		const driver = createUpstashDriver('http://127.0.0.1:9', 'token')
		const started = performance.now()
		const results = []
		for (let i = 0; i <= POLICIES['auth.signIn'].points; i++) results.push(await driver.consume('auth.signIn', 'any'))
		// Neither locked out nor unlimited: the policy's points in this process, then 429.
		expect(results.slice(0, -1).every((r) => r.allowed)).toBe(true)
		expect(results.at(-1)!.allowed).toBe(false)
		expect(driver.degraded!()).toBe(true)
		// One failed call to the store, then a second of local counting: no request waits on it.
		expect(performance.now() - started).toBeLessThan(1_000)
	})
})

// Decision 0035: the database as a shared driver's other store, on both dialects.
describe.each(DIALECTS)('the database store of a shared driver (%s)', (dialect) => {
	let db: TestDatabase
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
	})
	afterAll(async () => {
		await db?.drop()
	})
	// Upstash's adapter at a closed port: the shared store is down.
	const downStore = () => createUpstashDriver('http://127.0.0.1:9', 'token', databaseWindows(db))
	const key = () => `test|${randomUUID()}`

	it('counts the credential policies in the database, shared by two processes, however many hits come together', async () => {
		const [a, b] = [downStore(), downStore()]
		const k = key()
		const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).consume('auth.signIn', k)))
		expect(results.filter((r) => r.allowed)).toHaveLength(POLICIES['auth.signIn'].points)
		// Not a failing store for these: the database is where they count.
		expect(a.degraded!()).toBe(false)
	})

	it('counts every other policy there while the shared store fails', async () => {
		const [a, b] = [downStore(), downStore()]
		const k = key()
		const results = []
		for (let i = 0; i < POLICIES.enrollment.points + 2; i++)
			results.push(await (i % 2 ? a : b).consume('enrollment', k))
		expect(results.filter((r) => r.allowed)).toHaveLength(POLICIES.enrollment.points)
		expect(a.degraded!()).toBe(true)
	})

	it('takes back a hit the request answered with our failure, never below zero, and restarts an ended window', async () => {
		const driver = downStore()
		const k = key()
		const hits = []
		for (let i = 0; i < POLICIES['auth.signIn'].points; i++) hits.push(await driver.consume('auth.signIn', k))
		expect((await driver.consume('auth.signIn', k)).allowed).toBe(false)
		// Every allowed hit taken back (an outage answered them 503), and twice more: the count (11 with the
		// refused hit) goes to zero and stays there, so the next ten are allowed and the eleventh is not.
		for (const hit of hits) await hit.undo!()
		await hits[0].undo!()
		await hits[1].undo!()
		for (let i = 0; i < POLICIES['auth.signIn'].points; i++)
			expect((await driver.consume('auth.signIn', k)).allowed, `attempt ${i + 1} after the undo`).toBe(true)
		expect((await driver.consume('auth.signIn', k)).allowed).toBe(false)
		// A window that ended starts again from one.
		await db.orm.update(db.t.rate_limit_windows).set({ expires_at_ms: Date.now() - 1 })
		expect((await driver.consume('auth.signIn', k)).allowed).toBe(true)
	})

	it('answers the database being down as an error for the credential policies (the request is answered 503, nothing counted)', async () => {
		const broken = {
			hit: () => Promise.reject(Object.assign(new Error('down'), { code: 'ECONNREFUSED' })),
			unhit: async () => {},
		}
		const driver = createUpstashDriver('http://127.0.0.1:9', 'token', broken)
		await expect(driver.consume('auth.signIn', key())).rejects.toThrow('down')
		// Any other policy falls back to this process's memory.
		expect((await driver.consume('enrollment', key())).allowed).toBe(true)
	})
})
