import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { negotiateLocale } from '#app/platform/locale.server.ts'
import { eq } from 'drizzle-orm'
import { createTagStore } from '#app/content/cache-tags.server.ts'
import {
	createHostResolver,
	normalizeHost,
	resolveHost,
	siteOfHost,
	TENANTS_TAG,
	type HostResolution,
} from '#app/platform/tenant.server.ts'
import { openDatabase } from '#db/client.ts'
import { upsertTenant } from '#db/tenants.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('normalizeHost', () => {
	it.each([
		['acme.localhost:3000', 'acme.localhost'],
		['ACME.LocalHost', 'acme.localhost'],
		['learn.acme.test.', 'learn.acme.test'],
		['[::1]:3000', '[::1]'],
		['', ''],
		[undefined, ''],
		['evil host', ''],
		['a/b', ''],
	])('%s -> %s', (input, expected) => {
		expect(normalizeHost(input)).toBe(expected)
	})
})

describe('negotiateLocale', () => {
	it.each([
		[null, null, 'en'],
		['es-ES,es;q=0.9,en;q=0.8', null, 'es'],
		['pt-BR', null, 'pt'],
		['xx, de;q=0.5, fr;q=0.7', null, 'fr'],
		['zh-CN', null, 'zh'],
		['ja, ko', null, 'en'],
		['es;q=0, de', null, 'de'],
		['es', 'fr', 'fr'],
		['es', 'klingon', 'es'],
	])('%s (cookie %s) -> %s', (header, cookie, expected) => {
		expect(negotiateLocale(header, cookie)).toBe(expected)
	})
})

describe.each(DIALECTS)('resolveHost on %s', (dialect) => {
	let db: TestDatabase
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
		// A tenant whose custom domain is another tenant's subdomain (the form refuses it; a row may still hold one).
		await upsertTenant(db, { slug: 'hooli', name: 'Hooli', custom_domain: 'globex.localhost' })
		await upsertTenant(db, { slug: 'oldco', name: 'Old Co', status: 'archived' })
	})
	afterAll(() => db?.drop())

	const resolve = (host: string) => resolveHost(db, host, 'localhost')
	const slugOf = async (host: string) => {
		const r = await resolve(host)
		return r.kind === 'tenant' ? r.tenant.slug : r.kind
	}

	it('maps the apex and www hosts to the public site', async () => {
		expect(await slugOf('localhost')).toBe('apex')
		expect(await slugOf('www.localhost')).toBe('apex')
	})

	it('maps a tenant subdomain and a custom domain to the tenant', async () => {
		expect(await slugOf('acme.localhost')).toBe('acme')
		expect(await slugOf('learn.acme.test')).toBe('acme')
	})

	it("never lets a custom domain under the base domain take another tenant's subdomain", async () => {
		// hooli's custom domain is set to globex.localhost: the subdomain stays globex's.
		expect(await slugOf('globex.localhost')).toBe('globex')
	})

	it('returns suspended tenants so the caller can answer 503', async () => {
		const r = await resolve('initech.localhost')
		expect(r.kind === 'tenant' && r.tenant.status).toBe('suspended')
	})

	it('treats unknown, nested, archived and foreign hosts as unknown', async () => {
		for (const host of [
			'nope.localhost',
			'a.acme.localhost',
			'oldco.localhost',
			'acme.example.com',
			'localhost.evil',
			'',
		]) {
			expect(await slugOf(host), host).toBe('unknown')
		}
	})
})

describe('siteOfHost (the site a webhook host names without the database, decision 0035)', () => {
	it.each([
		['localhost', 'apex'],
		['www.localhost', 'apex'],
		['acme.localhost', 'acme'],
		['learn.acme.test', null],
		['a.acme.localhost', null],
		['-x.localhost', null],
		['evil-localhost', null],
	])('%s -> %s', (host, expected) => {
		const site = siteOfHost(host, 'localhost')
		expect(site === null ? null : site.kind === 'apex' ? 'apex' : site.slug).toBe(expected)
	})
})

// Decision 0035: the last answer at once past its lifetime while it refreshes, within a bound.
describe.each(DIALECTS)('the host cache on %s', (dialect) => {
	let db: TestDatabase
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
	})
	afterAll(() => db?.drop())
	const TTL = 150
	const STALE = 400
	const slugOf = (r: HostResolution | undefined) =>
		r?.kind === 'tenant' ? `${r.tenant.slug} ${r.tenant.status}` : r?.kind

	it('answers past the lifetime at once from the last answer, refreshes it in the background, and never past the bound', async () => {
		// Its own handle, closed below: the database the resolver asks stops answering.
		const handle = openDatabase(db.url)
		const tags = createTagStore()
		const resolve = createHostResolver(handle, 'localhost', tags, TTL, STALE)
		expect(slugOf(await resolve('acme.localhost'))).toBe('acme active')
		// A change made by hand in SQL (no tag moves): seen after the lifetime, by the background refresh.
		await db.orm.update(db.t.tenants).set({ name: 'Acme Renamed' }).where(eq(db.t.tenants.slug, 'acme'))
		await sleep(TTL + 20)
		const stale = resolve.fresh('acme.localhost')
		expect(stale?.kind === 'tenant' && stale.tenant.name).toBe('Acme Academy')
		await sleep(100)
		const refreshed = resolve.fresh('acme.localhost')
		expect(refreshed?.kind === 'tenant' && refreshed.tenant.name).toBe('Acme Renamed')

		// The database goes: within the bound the last answer, at once; past it, the request is refused.
		await handle.close()
		await sleep(TTL + 20)
		const started = Date.now()
		expect(slugOf(await resolve('acme.localhost'))).toBe('acme active')
		expect(Date.now() - started).toBeLessThan(20)
		await sleep(STALE)
		expect(resolve.fresh('acme.localhost')).toBeUndefined()
		await expect(resolve('acme.localhost')).rejects.toBeDefined()
		// An unknown host has no last answer.
		await expect(resolve('globex.localhost')).rejects.toBeDefined()
		await db.orm.update(db.t.tenants).set({ name: 'Acme Academy' }).where(eq(db.t.tenants.slug, 'acme'))
	})

	it('does not ask a database that failed a refresh again on every request, only after a second', async () => {
		const handle = openDatabase(db.url)
		let asked = 0
		// Counts the resolver's lookups: each reads `orm` once.
		const counted = new Proxy(handle, { get: (t, p, r) => (p === 'orm' && asked++, Reflect.get(t, p, r)) })
		const resolve = createHostResolver(counted, 'localhost', createTagStore(), 100, 5_000)
		expect(slugOf(await resolve('acme.localhost'))).toBe('acme active')
		// Gone: every query is refused at once, as the pool does while the server is known to be down.
		await handle.close()
		await sleep(120)
		const before = asked
		for (let i = 0; i < 20; i++) {
			expect(slugOf(resolve.fresh('acme.localhost'))).toBe('acme active')
			await sleep(10)
		}
		expect(asked - before, 'refreshes tried within the retry interval').toBe(1)
		await sleep(1_000)
		expect(slugOf(resolve.fresh('acme.localhost'))).toBe('acme active')
		expect(asked - before, 'refreshes tried once it has passed').toBe(2)
	})

	it('waits for the database after a tenant write (a suspension is never served stale)', async () => {
		const tags = createTagStore()
		const resolve = createHostResolver(db, 'localhost', tags, TTL, STALE)
		expect(slugOf(await resolve('globex.localhost'))).toBe('globex active')
		await db.orm.update(db.t.tenants).set({ status: 'suspended' }).where(eq(db.t.tenants.slug, 'globex'))
		tags.revalidate([TENANTS_TAG])
		expect(resolve.fresh('globex.localhost')).toBeUndefined()
		expect(slugOf(await resolve('globex.localhost'))).toBe('globex suspended')
		await db.orm.update(db.t.tenants).set({ status: 'active' }).where(eq(db.t.tenants.slug, 'globex'))
	})
})
