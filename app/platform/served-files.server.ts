import { fileTypeFromBuffer } from 'file-type'

/**
 * How a file someone else wrote reaches a browser on a tenant's origin (decision 0049): hand-in
 * downloads and the content assets' proxies both answer with these rules, so that no file can
 * run as a page of the origin it is served from.
 */

/** Bytes read before deciding a file's type (file-type's own recommendation). */
export const SNIFF_BYTES = 4100

/** What every answer that is not shown inline carries: no sniffing, no script, an opaque origin. */
export const INERT_HEADERS = {
	'x-content-type-options': 'nosniff',
	'content-security-policy': "default-src 'none'; sandbox",
} as const

/** Types browsers show as images or play as media, never as a document that runs script. */
const RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'])
const MEDIA = /^(?:audio|video)\/[a-z0-9][a-z0-9.+-]*$/

const isInlineType = (type: string) => RASTER.has(type) || MEDIA.test(type)

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
function attachmentDisposition(name: string) {
	const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/]/g, '_')
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/** The headers of a download that cannot run: the attachment and INERT_HEADERS. */
export function attachmentHeaders(name: string): Record<string, string> {
	return { 'content-disposition': attachmentDisposition(name), ...INERT_HEADERS }
}

/** Whether the first bytes of a file are UTF-8 text without NUL (it may be cut inside a character). */
export function isUtf8Text(head: Uint8Array) {
	if (head.includes(0)) return false
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
		return true
	} catch {
		return false
	}
}

export interface ServedAs {
	/** The Content-Type to send: from the bytes and this allow-list, never the one the file came with. */
	type: string
	/** Shown in the page (a raster image, audio, video); anything else is an inert attachment. */
	inline: boolean
}

const ATTACHMENT: ServedAs = { type: 'application/octet-stream', inline: false }

/**
 * How to serve a file, from its first bytes when the answer starts at byte 0 (`head`), else (a
 * later part of a range) from the type it was stored with, where only audio and video stay
 * inline. The bytes decide: an HTML file stored as image/png is an attachment, and SVG, HTML,
 * XML and script are never anything but application/octet-stream attachments. PDF is an
 * attachment too (a sandboxed PDF does not render in Chromium). Plain text stays text/plain.
 */
export async function servedAs(stored: string | null, head: Uint8Array | null): Promise<ServedAs> {
	const essence = (stored ?? '').split(';')[0]!.trim().toLowerCase()
	if (!head) return MEDIA.test(essence) ? { type: essence, inline: true } : ATTACHMENT
	const sniffed = (await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES)))?.mime
	if (sniffed && isInlineType(sniffed)) return { type: sniffed, inline: true }
	if (sniffed === 'application/pdf') return { type: sniffed, inline: false }
	if (!sniffed && essence === 'text/plain' && isUtf8Text(head.subarray(0, SNIFF_BYTES)))
		return { type: 'text/plain; charset=utf-8', inline: false }
	return ATTACHMENT
}
