import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { TagStore } from '#app/utils/cache-tags.server.ts'
import { hashInlineScripts } from '#app/utils/csp.ts'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Public pages that never depend on a session: the catalogue, course landings, content pages and the blog. */
const CACHEABLE = [/^\/$/, /^\/learn$/, /^\/learn\/course\/[a-z0-9-]+$/, /^\/blog$/, /^\/blog\/[a-z0-9-]+$/, /^\/[a-z0-9-]+$/]
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?lms_session=/

interface Entry {
	status: number
	headers: [string, string][]
	identity: Buffer
	gzip: Buffer
	br: Buffer
	etag: string
	storedAt: number
	tags: string[]
	versions: number[]
}

export interface PageCacheOptions {
	ttlMs?: number
	maxEntries?: number
	maxBytes?: number
}

/**
 * The anonymous full-page cache. A GET without a query string, without a
 * session cookie, on a cacheable path, whose answer is a 200 HTML page that
 * sets no cookie, is stored once per host, locale and path with gzip and
 * brotli variants and an ETag, filed under the content tags its render read,
 * and served until one of those tags is revalidated or 60 seconds pass.
 * Signed-in requests never read or write it.
 */
export function createPageCache(tags: TagStore, options: PageCacheOptions = {}) {
	const ttlMs = options.ttlMs ?? 60_000
	const maxEntries = options.maxEntries ?? 2_000
	const maxBytes = options.maxBytes ?? 1024 * 1024
	const entries = new Map<string, Entry>()

	function keyFor(method: string | undefined, url: string, host: string, locale: string, cookie: string | undefined) {
		if (method !== 'GET' && method !== 'HEAD') return null
		if (url.includes('?') || (cookie && SESSION_COOKIE.test(cookie))) return null
		if (!CACHEABLE.some((re) => re.test(url))) return null
		return `${host}|${locale}|${url}`
	}

	function lookup(key: string) {
		const entry = entries.get(key)
		if (!entry) return null
		const stale = Date.now() - entry.storedAt >= ttlMs || entry.tags.some((t, i) => tags.version(t) !== entry.versions[i])
		if (stale) {
			entries.delete(key)
			return null
		}
		return entry
	}

	/** Stores a rendered page; `versions` were taken before the render began, so an invalidation during it wins. */
	async function store(key: string, response: Response, readTags: string[], versions: number[]): Promise<Entry | null> {
		const type = response.headers.get('content-type') ?? ''
		if (response.status !== 200 || !type.startsWith('text/html') || response.headers.has('set-cookie')) return null
		let identity = Buffer.from(await response.arrayBuffer())
		if (identity.length > maxBytes) return null
		const policy = response.headers.get('content-security-policy')
		if (policy) {
			const hashed = hashInlineScripts(identity.toString('utf8'), policy)
			identity = Buffer.from(hashed.html)
			response.headers.set('content-security-policy', hashed.policy)
		}
		const [brBody, gzBody] = await Promise.all([brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }), gz(identity, { level: 9 })])
		const headers = [...response.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'etag', 'cache-control', 'vary'].includes(name))
		const entry: Entry = {
			status: 200,
			headers,
			identity,
			br: brBody,
			gzip: gzBody,
			etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
			storedAt: Date.now(),
			tags: readTags,
			versions,
		}
		entries.delete(key)
		entries.set(key, entry)
		if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
		return entry
	}

	/** The cached answer for this request: 304 on a matching If-None-Match, else the best encoding the client accepts. */
	function respond(entry: Entry, request: { method?: string; ifNoneMatch?: string; acceptEncoding?: string }, state: 'hit' | 'miss') {
		const headers = new Headers(entry.headers)
		headers.set('etag', entry.etag)
		headers.set('cache-control', 'public, max-age=0, must-revalidate')
		headers.set('vary', 'Accept-Encoding, Accept-Language, Cookie')
		headers.set('x-page-cache', state)
		if (request.ifNoneMatch && request.ifNoneMatch.split(',').some((t) => t.trim() === entry.etag)) return new Response(null, { status: 304, headers })
		const accepted = acceptedEncodings(request.acceptEncoding)
		const accepts = (name: string) => accepted.has(name)
		const [body, encoding] = accepts('br') ? [entry.br, 'br'] : accepts('gzip') ? [entry.gzip, 'gzip'] : [entry.identity, null]
		if (encoding) headers.set('content-encoding', encoding)
		headers.set('content-length', String(body.length))
		return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: entry.status, headers })
	}

	return { keyFor, lookup, store, respond, size: () => entries.size }
}

export type PageCache = ReturnType<typeof createPageCache>

/** Encodings the client accepts (q > 0), from Accept-Encoding. */
function acceptedEncodings(header: string | undefined) {
	const names = new Set<string>()
	for (const part of (header ?? '').split(',')) {
		const [name, ...params] = part.trim().toLowerCase().split(';')
		const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
		if (name && (q === undefined || Number(q) > 0)) names.add(name)
	}
	return names
}
