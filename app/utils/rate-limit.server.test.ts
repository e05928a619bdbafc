import { describe, expect, it } from 'vitest'
import { addressKey, ipEmailKey } from './rate-limit.server.ts'

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
