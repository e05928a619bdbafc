/**
 * Issue 52, "time zones found, not chosen": the device's zone (sent by the dashboard's script) is
 * stored only while the learner has chosen none, hostile names are refused, and every time shown
 * names its zone; the account page's list is grouped by region.
 */
import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTimeZone } from '#db/due-dates.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { signedInPerson } from '#tests/support/people.ts'

const ACME = 'acme.localhost'
const PASSWORD = 'time-zones-secret-2026'

describe.each(DIALECTS)('time zones on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	let n = 0
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
	})
	afterAll(() => stack?.close())

	async function learner() {
		const email = `zone-${dialect}-${++n}@acme.test`
		const { user, b } = await signedInPerson(
			stack,
			{ tenant_id: acmeId, email, name: `Zone ${n}`, role: 'student', password: PASSWORD },
			ACME,
		)
		return { b, scope: { tenantId: acmeId, userId: user.id } }
	}
	const device = (timeZone: string) => ({ intent: 'device-time-zone', timeZone })

	it('stores the device’s zone while none is chosen, and never over a choice', async () => {
		const { b, scope } = await learner()
		const taken = await b.post('/learn/account', device('America/Los_Angeles'))
		expect(taken.status).toBe(200)
		expect(await findTimeZone(stack.db, scope)).toBe('America/Los_Angeles')
		// Taken once: another device later does not move it.
		await b.post('/learn/account', device('Asia/Tokyo'))
		expect(await findTimeZone(stack.db, scope)).toBe('America/Los_Angeles')

		const other = await learner()
		expect((await other.b.post('/learn/account', { intent: 'time-zone', timeZone: 'Europe/Paris' })).status).toBe(302)
		await other.b.post('/learn/account', device('America/Los_Angeles'))
		expect(await findTimeZone(stack.db, other.scope)).toBe('Europe/Paris')
	})

	it('refuses names that are no zone, in every spelling, and changes nothing on GET', async () => {
		const { b, scope } = await learner()
		for (const name of [
			'Mars/Olympus',
			'',
			'america/los_angeles',
			'America/Los_Angeles\u0000',
			'../../etc',
			'X'.repeat(80),
		])
			expect((await b.post('/learn/account', device(name))).status, JSON.stringify(name)).toBe(400)
		expect((await b.get('/learn/account?intent=device-time-zone&timeZone=Asia%2FTokyo')).status).toBe(200)
		expect(await findTimeZone(stack.db, scope)).toBeNull()
		// Signed out: the sign-in redirect, nothing stored.
		const visitor = await stack.browser(ACME).post('/learn/account', device('Asia/Tokyo'))
		expect(visitor.status).toBe(302)
		expect(await findTimeZone(stack.db, scope)).toBeNull()
	})

	it('groups the zones by region and names the zone of every time it shows', async () => {
		const { b } = await learner()
		const $ = load((await b.get('/learn/account')).text)
		const select = $('#due-settings select')
		expect(select.find('option').first().attr('value')).toBe('UTC')
		expect(select.find('optgroup[label="America"] option[value="America/Los_Angeles"]').text()).toBe('Los Angeles')
		expect(select.find('optgroup').length).toBeGreaterThan(5)
		// An admin page's times are UTC and say so (a person's page: when the account was made).
		const admin = await stack.signIn('admin@acme.test')
		const person = load((await admin.get(`/admin/users/${(await learner()).scope.userId}`)).text)
		const times = person('dd').filter((_, el) => /\d{1,2}:\d{2}/.test(person(el).text()))
		expect(times.length).toBeGreaterThan(0)
		times.each((_, el) => void expect(person(el).text()).toMatch(/\bUTC\b/))
	})
})
