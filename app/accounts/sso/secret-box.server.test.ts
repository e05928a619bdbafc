import { describe, expect, it } from 'vitest'
import { openSecret, sealSecret } from './secret-box.server.ts'

const KEY = Buffer.alloc(32, 1).toString('base64')
const OTHER_KEY = Buffer.alloc(32, 2).toString('base64')
const ROW = { tenantId: 't1', providerId: 'p1' }

describe('sealed identity-provider secrets', () => {
	it('opens what it sealed, and never stores the secret in the clear', () => {
		const sealed = sealSecret(KEY, ROW, 'very-secret-value')
		expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
		expect(sealed).not.toContain('very-secret')
		expect(openSecret(KEY, ROW, sealed)).toBe('very-secret-value')
		// A fresh IV each time: the same secret seals differently.
		expect(sealSecret(KEY, ROW, 'very-secret-value')).not.toBe(sealed)
	})

	it('does not open under another key, on another row, or altered', () => {
		const sealed = sealSecret(KEY, ROW, 'very-secret-value')
		expect(openSecret(OTHER_KEY, ROW, sealed)).toBeNull()
		expect(openSecret(KEY, { tenantId: 't2', providerId: 'p1' }, sealed)).toBeNull()
		expect(openSecret(KEY, { tenantId: 't1', providerId: 'p2' }, sealed)).toBeNull()
		const [v, iv, body, tag] = sealed.split('.')
		const flipped = Buffer.from(body, 'base64url')
		flipped[0] ^= 1
		expect(openSecret(KEY, ROW, [v, iv, flipped.toString('base64url'), tag].join('.'))).toBeNull()
		expect(openSecret(KEY, ROW, `${sealed}.x`)).toBeNull()
		expect(openSecret(KEY, ROW, 'plain-text')).toBeNull()
	})
})
