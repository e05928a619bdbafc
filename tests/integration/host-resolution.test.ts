import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { negotiateLocale } from '#app/platform/locale.server.ts'
import { normalizeHost, resolveHost } from '#app/platform/tenant.server.ts'
import { upsertTenant } from '#db/tenants.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'

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
