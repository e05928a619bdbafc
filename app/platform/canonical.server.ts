/**
 * One reader for every value the app issues and later reads back from a client: emailed tokens,
 * consumed-token proofs, signed cookies, ids and keyset cursors (decision 0032). Each form has one
 * parse function here, and each accepts exactly the spelling the app writes and nothing else: no
 * extra segments, other separators, padding, whitespace, changed case, percent-encoded variants,
 * duplicates or extra length. A value that reads back equal to what was issued is therefore the
 * same string as what was issued, so anything keyed on it (single use, a session per proof) is
 * keyed on the one canonical value.
 */

/** base64url of 32 bytes as Node writes it: 43 characters, the last carrying no unused bits. */
const KEY_32 = '[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]'
/** The same in standard base64 without padding (the HMAC of React Router's signed cookies). */
const MAC_32 = '[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]'
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

const ID = new RegExp(`^${UUID}$`)

/** A row id as the app writes them (`randomUUID()`: lower-case, dashed), else null. */
export function parseId(value: unknown): string | null {
	return typeof value === 'string' && ID.test(value) ? value : null
}

/** base64url exactly as `Buffer.toString('base64url')` writes these bytes (no padding, no unused bits). */
function canonicalBase64url(text: string, maxLength: number) {
	if (text.length === 0 || text.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(text)) return null
	const bytes = Buffer.from(text, 'base64url')
	return bytes.toString('base64url') === text ? bytes : null
}

const TOKEN = new RegExp(`^${KEY_32}$`)
const PAYLOAD_MAX = 400

/**
 * An emailed token (verification, reset, magic link, invitation) as issued: 256 random bits in
 * base64url, then, for a token that carries one (the new address of an email change), `.` and the
 * payload in base64url. Null for anything else. The payload is the UTF-8 text it encodes.
 */
export function parseToken(
	raw: unknown,
	form: 'plain' | 'payload' = 'plain',
): { raw: string; payload: string | null } | null {
	if (typeof raw !== 'string') return null
	if (form === 'plain') return TOKEN.test(raw) ? { raw, payload: null } : null
	const dot = raw.indexOf('.')
	if (dot === -1 || !TOKEN.test(raw.slice(0, dot))) return null
	const bytes = canonicalBase64url(raw.slice(dot + 1), PAYLOAD_MAX)
	if (!bytes) return null
	const payload = bytes.toString('utf8')
	// Bytes that are not UTF-8 decode to U+FFFD and would not encode back to the same payload.
	return Buffer.from(payload, 'utf8').equals(bytes) ? { raw, payload } : null
}

/**
 * What a consumed-token proof is minted for (auth.server.ts): a consumed token's or invitation's
 * id, a tenant to enter (`enter-<tenant id>`), or an impersonation's start or stop with 72 random
 * bits.
 */
const PROOF_REF = new RegExp(`^(?:${UUID}|enter-${UUID}|impersonate(?:-stop)?-[A-Za-z0-9_-]{12})$`)
/** Milliseconds since 1970 as `String(Date.now())` writes them: no sign, no leading zero, no fraction. */
const PROOF_TIME = /^[1-9][0-9]{0,15}$/
const PROOF_MAC = new RegExp(`^${KEY_32}$`)

export interface Proof {
	ref: string
	issued: number
	mac: string
}

/** A consumed-token proof, `<ref>.<issued>.<mac>` and exactly that, else null. */
export function parseProof(raw: unknown): Proof | null {
	if (typeof raw !== 'string' || raw.length > 200) return null
	const parts = raw.split('.')
	if (parts.length !== 3) return null
	const [ref, issued, mac] = parts
	if (!PROOF_REF.test(ref) || !PROOF_TIME.test(issued) || !PROOF_MAC.test(mac)) return null
	return { ref, issued: Number(issued), mac }
}

/** The one spelling of a proof: what is signed, stored (hashed) and compared. */
export function proofString(proof: Proof) {
	return `${proof.ref}.${proof.issued}.${proof.mac}`
}

/**
 * A cookie value as React Router writes it (`createCookie`): base64 of JSON with its padding, and
 * for a signed cookie `.` and the HMAC in base64 without padding, the whole percent-encoded by
 * `encodeURIComponent` (upper-case escapes). Null for any other spelling.
 */
function cookieValueForm(value: string, signed: boolean) {
	if (value.length > 4096) return null
	let decoded: string
	try {
		decoded = decodeURIComponent(value)
	} catch {
		return null
	}
	if (encodeURIComponent(decoded) !== value) return null
	const dot = decoded.lastIndexOf('.')
	const data = signed ? decoded.slice(0, dot) : decoded
	if (signed && (dot === -1 || !new RegExp(`^${MAC_32}$`).test(decoded.slice(dot + 1)))) return null
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data) || Buffer.from(data, 'base64').toString('base64') !== data) return null
	return value
}

export type CookieRead = { state: 'none' } | { state: 'refused' } | { state: 'ok'; header: string }

/**
 * The one cookie `name` of a Cookie header, as browsers send what we set: pairs separated by `; `,
 * the name exactly (no space before `=`, no other case), the value exactly as React Router writes
 * it. `none` when the header has no cookie of that name; `refused` when it has one in another
 * spelling or more than one (a browser holds one per name, path and host; a second is planted);
 * else `ok` with a header holding only that cookie, for React Router's own parser.
 */
export function readCookie(header: string | null, name: string, options: { signed: boolean }): CookieRead {
	if (!header) return { state: 'none' }
	const found: string[] = []
	for (const part of header.split(';')) {
		const pair = part.replace(/^ /, '')
		const eq = pair.indexOf('=')
		const key = eq === -1 ? pair : pair.slice(0, eq)
		if (key.trim() !== name) continue
		// `lms_session =…`, ` lms_session=…` (two spaces), `lms_session` alone: not a spelling we write.
		if (key !== name || eq === -1) return { state: 'refused' }
		found.push(pair.slice(eq + 1))
	}
	if (found.length === 0) return { state: 'none' }
	if (found.length > 1) return { state: 'refused' }
	const value = cookieValueForm(found[0], options.signed)
	return value === null ? { state: 'refused' } : { state: 'ok', header: `${name}=${value}` }
}

/**
 * A query parameter as the app writes it into its links (`URLSearchParams`): present exactly once,
 * spelled as `URLSearchParams` spells its value. Null when absent, repeated or spelled otherwise.
 */
export function exactQueryValue(search: string, name: string): string | null {
	const pairs = (search.startsWith('?') ? search.slice(1) : search).split('&')
	const mine = pairs.filter((pair) => {
		const key = pair.split('=')[0]
		try {
			return decodeURIComponent(key.replaceAll('+', ' ')) === name
		} catch {
			return key === name
		}
	})
	if (mine.length !== 1) return null
	const value = new URLSearchParams(mine[0]).get(name)
	if (value === null || new URLSearchParams({ [name]: value }).toString() !== mine[0]) return null
	return value
}

/**
 * A keyset cursor of a list (the user list's `after` or `before`): a user id written by the list's
 * own links, alone. Both, or either in another spelling, is no cursor (the first page).
 */
export function parseIdCursor(search: string): { after?: string; before?: string } {
	const after = exactQueryValue(search, 'after')
	const before = exactQueryValue(search, 'before')
	const raw = (name: string) => new URLSearchParams(search).has(name)
	if (raw('after') && raw('before')) return {}
	if (raw('after')) return parseId(after) ? { after: after! } : {}
	if (raw('before')) return parseId(before) ? { before: before! } : {}
	return {}
}

/** An instant cursor (the audit log's `before`): exactly as `Date.toISOString()` wrote it, else null. */
export function parseInstantCursor(search: string, name: string): Date | null {
	const value = exactQueryValue(search, name)
	if (value === null || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return null
	const date = new Date(value)
	return Number.isNaN(date.getTime()) || date.toISOString() !== value ? null : date
}
