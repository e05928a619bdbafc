import { describe, expect, it } from 'vitest'
import { addressKey, createMemoryDriver, ipEmailKey, limitJson, perRequest } from './rate-limit.server.ts'

describe('addressKey', () => {
	it('keeps an IPv4 address and counts an IPv6 one by its /64', () => {
		expect(addressKey('203.0.113.9')).toBe('203.0.113.9')
		expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
		expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
		expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
		expect(addressKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64')
	})
	it('keys sign-in by address and normalized email', () => {
		expect(ipEmailKey('2001:db8:1:2::9', ' A@B.test ')).toBe('2001:db8:1:2::/64|a@b.test')
	})
})

describe('the memory driver', () => {
	it('keeps at most its number of keys however many clients come', async () => {
		const driver = createMemoryDriver(1000)
		for (let i = 0; i < 5000; i++) await driver.consume('auth.signIn', `198.51.100.${i}|x@y.test`)
		expect(driver.size!()).toBeLessThanOrEqual(1000)
		// A key still counts while it is kept.
		for (let i = 0; i < 10; i++) await driver.consume('auth.signIn', 'kept')
		expect((await driver.consume('auth.signIn', 'kept')).allowed).toBe(false)
	})
})

describe('limitJson', () => {
	it('lets the policy’s number through, then answers 429 in the JSON envelope with Retry-After', async () => {
		const driver = createMemoryDriver()
		for (let i = 0; i < 120; i++) expect(await limitJson(driver, 'fileDownload', 'user|u1', 'Too many')).toBeNull()
		const refused = (await limitJson(driver, 'fileDownload', 'user|u1', 'Too many'))!
		expect(refused.status).toBe(429)
		expect(await refused.json()).toEqual({ error: 'Too many', code: 'RATE_LIMITED' })
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(await limitJson(driver, 'fileDownload', 'user|u2', 'Too many')).toBeNull()
	})
})

describe('perRequest', () => {
	it('takes back every hit of a request answered with our failure, in the store that counted it', async () => {
		const driver = createMemoryDriver()
		for (let i = 0; i < 9; i++) await driver.consume('auth.signIn', 'k')
		const request = perRequest(driver)
		expect((await request.driver.consume('auth.signIn', 'k')).allowed).toBe(true)
		request.undoAll()
		// The tenth attempt did not count: one more is allowed, then the limit holds.
		expect((await driver.consume('auth.signIn', 'k')).allowed).toBe(true)
		expect((await driver.consume('auth.signIn', 'k')).allowed).toBe(false)
		// Taken back once only.
		request.undoAll()
		expect((await driver.consume('auth.signIn', 'k')).allowed).toBe(false)
	})
})
