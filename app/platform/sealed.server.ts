import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto'

/*
 * Secrets the server must read back (a provider's client secret, a webhook's signing secret, a
 * tenant's signing key) are sealed at rest with AES-256-GCM, one way for all (decision 0079): a fresh
 * 96-bit IV each time, and additional data naming the row the value belongs to, so a sealed value
 * copied onto another row does not open. Stored as `v1.<iv>.<ciphertext>.<tag>` in base64url. Values
 * sealed before this module in one base64url piece (IV, tag, ciphertext: webhooks and signing keys)
 * still open.
 */

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

/** A 256-bit key, and a short id of it that rows store, so a changed key is seen before any decryption. */
export interface SealingKey {
	key: Buffer
	id: string
}

const keyOf = (key: Buffer): SealingKey => ({ key, id: createHash('sha256').update(key).digest('hex').slice(0, 16) })

const derived = new Map<string, SealingKey>()

/** A key derived from a secret (AUTH_SECRET) with HKDF, under a label of its use, so each use has its own key. */
export function derivedKey(secret: string, salt: string, info: string): SealingKey {
	const cacheKey = `${salt}|${info}|${secret}`
	let key = derived.get(cacheKey)
	if (!key) derived.set(cacheKey, (key = keyOf(Buffer.from(hkdfSync('sha256', secret, salt, info, 32)))))
	return key
}

/** A key given as 32 bytes in base64 (SSO_ENCRYPTION_KEY); `name` says which setting is wrong. */
export function base64Key(base64: string, name: string): SealingKey {
	const key = Buffer.from(base64, 'base64')
	if (key.length !== 32) throw new Error(`${name} must be 32 bytes`)
	return keyOf(key)
}

export function seal(key: SealingKey, plaintext: string, additionalData: string) {
	const iv = randomBytes(IV_BYTES)
	const cipher = createCipheriv('aes-256-gcm', key.key, iv).setAAD(Buffer.from(additionalData))
	const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
	return [VERSION, iv, body, cipher.getAuthTag()]
		.map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
		.join('.')
}

/** The parts of a sealed value in either stored form, or null when it is neither. */
function parts(sealed: string) {
	const pieces = sealed.split('.')
	if (pieces.length === 1) {
		const raw = Buffer.from(sealed, 'base64url')
		if (raw.length < IV_BYTES + TAG_BYTES) return null
		const tagEnd = IV_BYTES + TAG_BYTES
		return { iv: raw.subarray(0, IV_BYTES), tag: raw.subarray(IV_BYTES, tagEnd), body: raw.subarray(tagEnd) }
	}
	const [version, iv, body, tag] = pieces
	if (pieces.length !== 4 || version !== VERSION || !iv || !body || !tag) return null
	const [ivBytes, bodyBytes, tagBytes] = [iv, body, tag].map((p) => Buffer.from(p, 'base64url'))
	return { iv: ivBytes, body: bodyBytes, tag: tagBytes }
}

/** The plaintext, or null when the value was sealed under another key or for other data, or was altered. */
export function open(key: SealingKey, sealed: string, additionalData: string): string | null {
	const p = parts(sealed)
	if (!p || p.iv.length !== IV_BYTES || p.tag.length !== TAG_BYTES) return null
	try {
		const decipher = createDecipheriv('aes-256-gcm', key.key, p.iv)
			.setAAD(Buffer.from(additionalData))
			.setAuthTag(p.tag)
		return Buffer.concat([decipher.update(p.body), decipher.final()]).toString('utf8')
	} catch {
		return null
	}
}
