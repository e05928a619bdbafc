import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPublicAddress, refusedAddress, requestPublic, resolvePublic } from './public-address.server.ts'

describe('refusedAddress', () => {
	it.each([
		['127.0.0.1', 'loopback'],
		['127.8.9.10', 'loopback'],
		['::1', 'loopback'],
		['::ffff:127.0.0.1', 'loopback'],
		['::ffff:7f00:1', 'loopback'],
		['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
		['10.1.2.3', 'private'],
		['172.16.0.1', 'private'],
		['172.31.255.255', 'private'],
		['192.168.1.1', 'private'],
		['100.64.0.1', 'private'],
		['169.254.169.254', 'private'],
		['::ffff:169.254.169.254', 'private'],
		['::ffff:10.0.0.1', 'private'],
		['64:ff9b::a9fe:a9fe', 'private'],
		['2002:a00:1::', 'private'],
		['0.0.0.0', 'private'],
		['::', 'private'],
		['fd00::1', 'private'],
		['fe80::1', 'private'],
		['ff02::1', 'private'],
		['224.0.0.1', 'private'],
		['not-an-ip', 'invalid'],
	])('refuses %s (%s)', (address, why) => {
		expect(refusedAddress(address, false)).toBe(why)
	})

	it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
		expect(refusedAddress(address, false)).toBeNull()
	})

	it('allows loopback only when asked, and never a private address', () => {
		expect(refusedAddress('127.0.0.1', true)).toBeNull()
		expect(refusedAddress('::ffff:127.0.0.1', true)).toBeNull()
		expect(refusedAddress('10.0.0.1', true)).toBe('private')
		expect(refusedAddress('169.254.169.254', true)).toBe('private')
	})
})

describe('resolvePublic', () => {
	const fake = (addresses: string[]) => async () =>
		addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

	it('refuses a name resolving to a private, metadata or mapped loopback address, or to none', async () => {
		await expect(resolvePublic('idp.example', false, fake(['10.1.2.3']))).rejects.toThrow(
			/private address \(10\.1\.2\.3\)/,
		)
		await expect(resolvePublic('idp.example', true, fake(['169.254.169.254']))).rejects.toThrow(/private/)
		await expect(resolvePublic('idp.example', false, fake(['::ffff:127.0.0.1']))).rejects.toThrow(/loopback/)
		await expect(resolvePublic('idp.example', false, fake(['93.184.216.34', 'fd00::1']))).rejects.toThrow(/private/)
		await expect(resolvePublic('idp.example', false, fake([]))).rejects.toThrow(/no address/)
	})

	it('answers every address of a public name, and an address literal without resolving it', async () => {
		const two = ['93.184.216.34', '2606:4700::1111']
		expect((await resolvePublic('idp.example', false, fake(two))).map((a) => a.address)).toEqual(two)
		const never = async () => Promise.reject(new Error('resolved'))
		expect(await resolvePublic('8.8.8.8', false, never)).toEqual([{ address: '8.8.8.8', family: 4 }])
		await expect(resolvePublic('127.0.0.1', false, never)).rejects.toThrow(/loopback/)
	})
})

describe('requestPublic', () => {
	const server = createServer((_req, res) => res.end('here'))
	let port: number
	beforeAll(async () => {
		await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
		port = (server.address() as AddressInfo).port
	})
	afterAll(() => new Promise((done) => server.close(done)))
	const options = { timeoutMs: 2000, maxBytes: 100 }

	it('connects to loopback only when allowed, whether named by a literal or by a name resolving to it', async () => {
		for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', 'localhost'])
			await expect(
				requestPublic(new URL(`http://${host}:${port}/`), { ...options, allowLoopback: false }),
				host,
			).rejects.toThrow(/not a public address/)
		const res = await requestPublic(new URL(`http://127.0.0.1:${port}/`), { ...options, allowLoopback: true })
		expect(res).toMatchObject({ status: 200 })
		expect(res.body.toString()).toBe('here')
		expect(isPublicAddress('127.0.0.1')).toBe(false)
	})

	it('stops at maxBytes', async () => {
		const url = new URL(`http://127.0.0.1:${port}/`)
		await expect(requestPublic(url, { ...options, maxBytes: 2, allowLoopback: true })).rejects.toThrow(/too large/)
	})
})
