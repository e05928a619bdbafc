import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { TagStore } from '#app/content/cache-tags.server.ts'
import { hashInlineScripts } from '#app/platform/csp.ts'
import { negotiateEncoding, type Encoding } from './compression.ts'
import { LRUCache } from 'lru-cache'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Public pages that never depend on a session: the catalogue, course landings, content pages and the blog. */
const CACHEABLE = [
	/^\/$/,
	/^\/learn$/,
	/^\/learn\/course\/[a-z0-9-]+$/,
	/^\/blog$/,
	/^\/blog\/[a-z0-9-]+$/,
	/^\/[a-z0-9-]+$/,
	/^\/robots\.txt$/,
	/^\/sitemap\.xml$/,
]
/** Pages are revalidated on every visit (their ETag answers 304); the discovery files keep the max-age their routes chose. */
const STORABLE_TYPES = ['text/html', 'text/plain', 'application/xml']
const SESSION_COOKIES = ['lms_session', '__Host-lms_session']

export interface CachedAnswer {
	status: number
	headers: Record<string, string>
	body: Buffer | null
}

interface Entry {
	status: number
	headers: [string, string][]
	cacheControl: string | null
	identity: Buffer
	gzip: Buffer
	br: Buffer
	etag: string
	storedAt: number
	tags: string[]
	versions: number[]
	/** Answer headers per variant (state, encoding or 304), built on first use. */
	answers: Map<string, Record<string, string>>
}

export interface PageCacheOptions {
	ttlMs?: number
	maxEntries?: number
	/** Largest single page stored (1 MiB). */
	maxBytes?: number
	/** All variants of all entries together (48 MiB): the cache never decides how much memory the process needs. */
	maxTotalBytes?: number
	/** Sent with every answer (the server's security headers), folded in once per entry. */
	baseHeaders?: Record<string, string>
}

/**
 * The page cache's key for a request, or null when it never reads or writes the cache.
 * `cookies`: the request's Cookie header as the session parser reads it (`lms_session =x` is a session to it).
 */
function keyFor(
	method: string | undefined,
	url: string,
	host: string,
	locale: string,
	cookies: Record<string, string | undefined>,
) {
	if (method !== 'GET' && method !== 'HEAD') return null
	if (url.includes('?') || SESSION_COOKIES.some((name) => name in cookies)) return null
	if (!CACHEABLE.some((re) => re.test(url))) return null
	return `${host}|${locale}|${url}`
}

/**
 * A rendered page as an entry (its scripts hashed into its policy, its brotli and gzip variants, its
 * ETag), or null when it may not be stored: not a public 200 of a stored type, it sets a cookie, or
 * it is larger than `maxBytes`.
 */
async function entryOf(response: Response, readTags: string[], versions: number[], maxBytes: number) {
	const type = response.headers.get('content-type') ?? ''
	// An answer for one person (private, no-store: every signed-in page) is never filed for everyone.
	const personal = /\b(?:private|no-store)\b/i.test(response.headers.get('cache-control') ?? '')
	if (
		response.status !== 200 ||
		!STORABLE_TYPES.some((t) => type.startsWith(t)) ||
		response.headers.has('set-cookie') ||
		personal
	)
		return null
	let identity = Buffer.from(await response.arrayBuffer())
	if (identity.length > maxBytes) return null
	const policy = response.headers.get('content-security-policy')
	if (policy) {
		const hashed = hashInlineScripts(identity.toString('utf8'), policy)
		identity = Buffer.from(hashed.html)
		response.headers.set('content-security-policy', hashed.policy)
	}
	const [brBody, gzBody] = await Promise.all([
		brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
		gz(identity, { level: 9 }),
	])
	const headers = [...response.headers].filter(
		([name]) =>
			!['content-length', 'content-encoding', 'transfer-encoding', 'etag', 'cache-control', 'vary'].includes(name),
	)
	const entry: Entry = {
		status: 200,
		headers,
		cacheControl: type.startsWith('text/html')
			? 'public, max-age=0, must-revalidate'
			: response.headers.get('cache-control'),
		identity,
		br: brBody,
		gzip: gzBody,
		etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
		storedAt: Date.now(),
		tags: readTags,
		versions,
		answers: new Map(),
	}
	return entry
}

/** An entry's answer headers for one variant (state, and the encoding or 304), built once per entry and variant. */
function answerHeaders(
	entry: Entry,
	baseHeaders: Record<string, string>,
	state: 'hit' | 'miss',
	notModified: boolean,
	encoding: Encoding,
) {
	const variant = `${state}|${notModified ? 304 : encoding}`
	// Built once per entry and variant: a cache hit allocates no headers.
	let headers = entry.answers.get(variant)
	if (!headers) {
		headers = {
			...baseHeaders,
			...Object.fromEntries(entry.headers),
			etag: entry.etag,
			vary: 'Accept-Encoding, Accept-Language, Cookie',
			'x-page-cache': state,
		}
		if (entry.cacheControl) headers['cache-control'] = entry.cacheControl
		if (!notModified) {
			if (encoding !== 'identity') headers['content-encoding'] = encoding
			headers['content-length'] = String(entry[encoding].length)
		}
		entry.answers.set(variant, headers)
	}
	return headers
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
	const maxTotalBytes = options.maxTotalBytes ?? 48 * 1024 * 1024
	const baseHeaders = options.baseHeaders ?? {}
	// Bounded by count and by bytes (every variant counts); the least recently served page goes first.
	const entries = new LRUCache<string, Entry>({
		max: maxEntries,
		maxSize: maxTotalBytes,
		sizeCalculation: (e) => e.identity.length + e.gzip.length + e.br.length,
	})

	function lookup(key: string) {
		const entry = entries.get(key)
		if (!entry) return null
		const stale =
			Date.now() - entry.storedAt >= ttlMs || entry.tags.some((t, i) => tags.version(t) !== entry.versions[i])
		if (stale) {
			entries.delete(key)
			return null
		}
		return entry
	}

	/** Stores a rendered page; `versions` were taken before the render began, so an invalidation during it wins. */
	async function store(key: string, response: Response, readTags: string[], versions: number[]): Promise<Entry | null> {
		const entry = await entryOf(response, readTags, versions, maxBytes)
		if (entry) entries.set(key, entry)
		return entry
	}

	/**
	 * The cached answer for this request: 304 on a matching If-None-Match, else
	 * the best encoding the client accepts. Plain status, headers and bytes, so
	 * the server writes them to the socket without building a Response.
	 */
	function respond(
		entry: Entry,
		request: { method?: string; ifNoneMatch?: string; acceptEncoding?: string },
		state: 'hit' | 'miss',
	): CachedAnswer {
		const notModified = !!request.ifNoneMatch && request.ifNoneMatch.split(',').some((t) => t.trim() === entry.etag)
		const encoding = notModified ? 'identity' : negotiateEncoding(request.acceptEncoding ?? '')
		const headers = answerHeaders(entry, baseHeaders, state, notModified, encoding)
		if (notModified) return { status: 304, headers, body: null }
		return { status: entry.status, headers, body: request.method === 'HEAD' ? null : entry[encoding] }
	}

	return { keyFor, lookup, store, respond, size: () => entries.size, bytes: () => entries.calculatedSize }
}
