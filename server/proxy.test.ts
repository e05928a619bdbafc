import { describe, expect, it } from 'vitest'
import { clientAddress, configuredOrigin, requestHost } from './proxy.ts'

describe('clientAddress', () => {
	it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
		expect(clientAddress('127.0.0.1', '1.2.3.4', 0)).toBe('127.0.0.1')
		expect(clientAddress('::ffff:10.0.0.1', undefined, 0)).toBe('10.0.0.1')
	})
	it('is the address the outermost trusted proxy saw', () => {
		// client wrote "6.6.6.6", proxy 1 saw 1.2.3.4, proxy 2 (our peer) saw proxy 1 at 10.0.0.2
		expect(clientAddress('10.0.0.3', '6.6.6.6, 1.2.3.4', 1)).toBe('1.2.3.4')
		expect(clientAddress('10.0.0.3', '6.6.6.6, 1.2.3.4, 10.0.0.2', 2)).toBe('1.2.3.4')
		expect(clientAddress('10.0.0.3', ['6.6.6.6', '1.2.3.4'], 1)).toBe('1.2.3.4')
	})
	it('falls back to the peer when the trusted position is not an address', () => {
		expect(clientAddress('10.0.0.3', 'garbage', 1)).toBe('10.0.0.3')
		expect(clientAddress('10.0.0.3', undefined, 1)).toBe('10.0.0.3')
	})
	it('takes the leftmost when fewer proxies appended than are trusted', () => {
		expect(clientAddress('10.0.0.3', '1.2.3.4', 3)).toBe('1.2.3.4')
	})
})

describe('requestHost and configuredOrigin', () => {
	it('reads X-Forwarded-Host only when trusted, as the nearest proxy wrote it', () => {
		expect(requestHost('app:3000', 'evil.test', false)).toBe('app:3000')
		expect(requestHost('app:3000', 'evil.test, acme.example.com', true)).toBe('acme.example.com')
	})
	it('builds the origin from AUTH_URL and the host name only', () => {
		expect(configuredOrigin(new URL('https://example.com'), 'acme.example.com')).toBe('https://acme.example.com')
		expect(configuredOrigin(new URL('http://localhost:3000'), 'acme.localhost')).toBe('http://acme.localhost:3000')
	})
})
