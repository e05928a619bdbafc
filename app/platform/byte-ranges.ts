import type { ByteRange } from './file-store.server.ts'

/**
 * What a download answers to its request's Range (RFC 9110 §14): the whole body (200), one range
 * of it (206), or nothing (416, with `Content-Range: bytes *\/size`).
 *
 * - No Range, a unit other than bytes, or a spelling that is not a byte range (`bytes=abc`,
 *   `bytes=5-1`): the header is ignored, as the RFC asks of what a server does not understand.
 * - More than one range (duplicates included): the whole body. A multipart answer would cost
 *   more than it saves; the RFC lets a server ignore Range.
 * - `If-Range` other than the body's strong ETag (a weak one, a date, another tag): the whole body,
 *   so that a client resuming a download never splices bytes of another version.
 * - A range starting at or past the end, or a suffix of zero bytes: unsatisfiable. An end past the
 *   end (however many digits) is the last byte.
 */
export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; range: ByteRange } | { kind: 'unsatisfiable' }

const WHOLE: RangeAnswer = { kind: 'whole' }
const SPEC = /^bytes=[\t ]*(?:(\d+)-(\d*)|-(\d+))[\t ]*$/i

export function rangeAnswer(headers: Headers, size: number, etag: string): RangeAnswer {
	const range = headers.get('range')
	if (range === null) return WHOLE
	const ifRange = headers.get('if-range')
	if (ifRange !== null && (ifRange !== etag || etag.startsWith('W/'))) return WHOLE
	// One range only: anything with a comma is several (or a malformed list), answered whole.
	const m = range.includes(',') ? null : SPEC.exec(range)
	if (!m) return WHOLE
	const [, first, last, suffix] = m
	if (suffix !== undefined) {
		const length = Number(suffix)
		if (length === 0 || size === 0) return { kind: 'unsatisfiable' }
		return { kind: 'part', range: { start: Math.max(size - length, 0), end: size - 1 } }
	}
	const start = Number(first)
	const end = last === '' ? Infinity : Number(last)
	if (end < start) return WHOLE
	if (start >= size) return { kind: 'unsatisfiable' }
	return { kind: 'part', range: { start, end: Math.min(end, size - 1) } }
}
