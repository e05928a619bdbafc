import { describe, expect, it } from 'vitest'
import { checkTarget, refusedUrl } from './webhook-address.server.ts'

const prod = { production: true, allowLoopback: false }
const dev = { production: false, allowLoopback: true }

describe('refusedUrl', () => {
	it.each([
		['http://example.com/hook', 'not https'],
		['ftp://example.com/', 'not https'],
		['https://user:pw@example.com/', 'credentials in the URL'],
		['https://127.0.0.1/', 'loopback address'],
		['https://2130706433/', 'loopback address'],
		['https://0177.0.0.1/', 'loopback address'],
		['https://0x7f.1/', 'loopback address'],
		['https://[::1]/', 'loopback address'],
		['https://[::ffff:127.0.0.1]/', 'loopback address'],
		['https://169.254.169.254/latest/meta-data/', 'private address'],
		['https://10.0.0.1/', 'private address'],
		['https://[fe80::1]/', 'private address'],
		['nonsense', 'not a URL'],
	])('refuses %s in production', (url, why) => {
		expect(refusedUrl(url, prod)).toBe(why)
	})

	it('allows https to a name, and http and loopback outside production when set', () => {
		expect(refusedUrl('https://hooks.example.com/x', prod)).toBeNull()
		expect(refusedUrl('http://127.0.0.1:9999/x', dev)).toBeNull()
		expect(refusedUrl('http://10.0.0.1/x', dev)).toBe('private address')
	})
})

describe('checkTarget', () => {
	const fake = (addresses: string[]) => async () =>
		addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

	it('refuses a name that resolves to loopback, or to any private address among public ones', async () => {
		await expect(checkTarget('https://localtest.me/x', prod, fake(['127.0.0.1']))).rejects.toThrow(/loopback/)
		await expect(checkTarget('https://x.example/x', prod, fake(['8.8.8.8', '10.0.0.5']))).rejects.toThrow(/private/)
		await expect(checkTarget('https://x.example/x', prod, fake(['::ffff:169.254.169.254']))).rejects.toThrow(/private/)
	})

	it('answers the checked address to connect to', async () => {
		const t = await checkTarget('https://x.example/x', prod, fake(['93.184.216.34']))
		expect(t).toMatchObject({ address: '93.184.216.34', family: 4 })
	})

	it('resolves a real name that points at loopback (localhost)', async () => {
		await expect(checkTarget('https://localhost/x', prod)).rejects.toThrow(/loopback/)
	})
})
