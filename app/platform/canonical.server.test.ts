import { randomBytes, randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
	exactQueryValue,
	parseId,
	parseIdCursor,
	parseInstantCursor,
	parseProof,
	parseToken,
	proofString,
	readCookie,
} from './canonical.server.ts'

/** One edit of a string: a character inserted, deleted or replaced, from an alphabet rich in the separators and escapes that matter. */
const edit = (value: string) =>
	fc
		.tuple(
			fc.nat({ max: value.length }),
			fc.constantFrom('insert', 'delete', 'replace'),
			fc.constantFrom(...'.=%+ \t\n;,:|/_-Aa0Z~\u0000\u00a0'.split('')),
		)
		.map(([at, kind, c]) =>
			kind === 'insert'
				? value.slice(0, at) + c + value.slice(at)
				: kind === 'delete'
					? value.slice(0, at) + value.slice(at + 1)
					: value.slice(0, at) + c + value.slice(at + 1),
		)

describe('canonical reading of issued values', () => {
	const token = randomBytes(32).toString('base64url')
	const proof = `enter-${randomUUID()}.${Date.now()}.${randomBytes(32).toString('base64url')}`

	it('accepts each value exactly as issued', () => {
		expect(parseToken(token)).toEqual({ raw: token, payload: null })
		const withPayload = `${token}.${Buffer.from('new@acme.test').toString('base64url')}`
		expect(parseToken(withPayload, 'payload')).toEqual({ raw: withPayload, payload: 'new@acme.test' })
		const parsed = parseProof(proof)!
		expect(proofString(parsed)).toBe(proof)
		const id = randomUUID()
		expect(parseId(id)).toBe(id)
		expect(parseIdCursor(`?${new URLSearchParams({ q: 'x', after: id })}`)).toEqual({ after: id })
		const iso = new Date().toISOString()
		expect(parseInstantCursor(`?${new URLSearchParams({ before: iso })}`, 'before')?.toISOString()).toBe(iso)
	})

	it('refuses every other spelling: one edit away from a value is never that value', () => {
		fc.assert(
			fc.property(edit(token), (spelled) => {
				const read = parseToken(spelled)
				return read === null || spelled === token || read.raw === spelled
			}),
		)
		// A token one edit away is either refused or another token (its own hash); never the same one.
		fc.assert(fc.property(edit(token), (spelled) => spelled === token || parseToken(spelled)?.raw !== token))
		fc.assert(
			fc.property(edit(proof), (spelled) => {
				const read = parseProof(spelled)
				return spelled === proof || read === null || proofString(read) !== proof
			}),
		)
	})

	it('refuses the shapes the override link was replayed with', () => {
		for (const spelled of [
			`${proof}.x`,
			`${proof}.`,
			`${proof}..`,
			`${proof}=`,
			` ${proof}`,
			`${proof} `,
			proof.replaceAll('.', ':'),
			proof.replace('enter-', 'ENTER-'),
			proof.replace(/\.(\d+)\./, '.0$1.'),
			proof.replace(/\.(\d+)\./, '.+$1.'),
			`${proof}${'A'.repeat(300)}`,
		])
			expect(parseProof(spelled), spelled).toBeNull()
		// The same bytes of a MAC, its unused bits set: another spelling.
		const mac = proof.slice(proof.lastIndexOf('.') + 1)
		const last = mac.at(-1)!
		const other = last === 'A' ? 'B' : String.fromCharCode(last.charCodeAt(0) + 1)
		expect(Buffer.from(mac.slice(0, -1) + other, 'base64url').equals(Buffer.from(mac, 'base64url'))).toBe(true)
		expect(parseProof(proof.slice(0, -1) + other)).toBeNull()
	})

	it('reads a cookie only in the spelling React Router writes, and only one of it', () => {
		const value = encodeURIComponent(
			`${Buffer.from('{"a":1}').toString('base64')}.${randomBytes(32).toString('base64').replace(/=+$/, '')}`,
		)
		expect(readCookie(`lms_session=${value}`, 'lms_session', { signed: true })).toEqual({
			state: 'ok',
			header: `lms_session=${value}`,
		})
		expect(readCookie(`x=1; lms_session=${value}; y=2`, 'lms_session', { signed: true }).state).toBe('ok')
		expect(readCookie('x=1', 'lms_session', { signed: true }).state).toBe('none')
		expect(readCookie(null, 'lms_session', { signed: true }).state).toBe('none')
		for (const header of [
			`lms_session=${decodeURIComponent(value)}`,
			`lms_session=${value.replace(/%[0-9A-F]{2}/, (e) => e.toLowerCase())}`,
			`lms_session="${value}"`,
			`lms_session=${value}%3D`,
			`lms_session =${value}`,
			`lms_session=${value}; lms_session=${value}`,
			`lms_session=x; lms_session=${value}`,
			`lms_session=${value}%20`,
		])
			expect(readCookie(header, 'lms_session', { signed: true }).state, header).toBe('refused')
	})

	it('reads a query value only as URLSearchParams writes it, once', () => {
		expect(exactQueryValue('?a=1&b=x%3Ay', 'b')).toBe('x:y')
		for (const search of ['?b=x:y', '?b=x%3ay', '?b=1&b=1', '?%62=1', '?b', '?b=1%'])
			expect(exactQueryValue(search, 'b'), search).toBeNull()
		const id = randomUUID()
		for (const search of [
			`?after=${id.toUpperCase()}`,
			`?after=${id}&before=${id}`,
			`?after=${id}.x`,
			`?after=%20${id}`,
		])
			expect(parseIdCursor(search), search).toEqual({})
	})
})
