import { createCipheriv, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { base64Key, derivedKey, open, seal } from './sealed.server.ts'

const KEY = base64Key(Buffer.alloc(32, 1).toString('base64'), 'TEST_KEY')
const OTHER_KEY = base64Key(Buffer.alloc(32, 2).toString('base64'), 'TEST_KEY')
const ROW = 'webhook|t1'

/** A value sealed the way webhooks and signing keys were before: IV, tag and ciphertext in one base64url piece. */
function legacySeal(key: Buffer, plaintext: string, aad: string) {
	const iv = randomBytes(12)
	const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(aad))
	const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
	return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

describe('sealed secrets', () => {
	it('opens what it sealed, as v1, with a fresh IV each time and nothing in the clear', () => {
		const sealed = seal(KEY, 'very-secret-value', ROW)
		expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
		expect(sealed).not.toContain('very-secret')
		expect(open(KEY, sealed, ROW)).toBe('very-secret-value')
		expect(seal(KEY, 'very-secret-value', ROW)).not.toBe(sealed)
	})

	it('still opens values stored in the one-piece form', () => {
		expect(open(KEY, legacySeal(KEY.key, 'whsec_old', ROW), ROW)).toBe('whsec_old')
		expect(open(KEY, legacySeal(KEY.key, 'whsec_old', ROW), 'webhook|t2')).toBeNull()
	})

	it('does not open under another key or with other additional data', () => {
		const sealed = seal(KEY, 'very-secret-value', ROW)
		expect(open(OTHER_KEY, sealed, ROW)).toBeNull()
		expect(open(KEY, sealed, 'webhook|t2')).toBeNull()
		expect(open(KEY, sealed, '')).toBeNull()
	})

	it('does not open altered: a flipped bit in the ciphertext, IV or tag, a part more or less, another version', () => {
		const sealed = seal(KEY, 'very-secret-value', ROW)
		const [v, iv, body, tag] = sealed.split('.')
		const flip = (part: string) => {
			const bytes = Buffer.from(part, 'base64url')
			bytes[0] ^= 1
			return bytes.toString('base64url')
		}
		for (const altered of [
			[v, iv, flip(body), tag],
			[v, flip(iv), body, tag],
			[v, iv, body, flip(tag)],
			[v, iv, body, tag, 'x'],
			[v, iv, body],
			['v2', iv, body, tag],
		])
			expect(open(KEY, altered.join('.'), ROW), altered.join('.')).toBeNull()
		const legacy = Buffer.from(legacySeal(KEY.key, 'whsec_old', ROW), 'base64url')
		legacy[legacy.length - 1] ^= 1
		expect(open(KEY, legacy.toString('base64url'), ROW)).toBeNull()
		for (const junk of ['', 'plain-text', 'v1...', '....']) expect(open(KEY, junk, ROW), junk).toBeNull()
	})

	it('derives one key per label from one secret, and refuses a key of the wrong size', () => {
		const a = derivedKey('auth-secret', 'lms/webhooks', 'webhook secret encryption v1')
		expect(derivedKey('auth-secret', 'lms/webhooks', 'webhook secret encryption v1')).toBe(a)
		expect(derivedKey('auth-secret', 'lms/signing-keys', 'tenant signing key encryption v1').id).not.toBe(a.id)
		expect(
			open(derivedKey('other-secret', 'lms/webhooks', 'webhook secret encryption v1'), seal(a, 'x', ROW), ROW),
		).toBeNull()
		expect(() => base64Key(Buffer.alloc(16).toString('base64'), 'SSO_ENCRYPTION_KEY')).toThrow(
			/SSO_ENCRYPTION_KEY must be 32 bytes/,
		)
	})
})
