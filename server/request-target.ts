/**
 * The request target as the router will read it. Every path-based decision of
 * the server entry (suspended passthrough, token pages, the API envelope, the
 * webhook's CSRF exemption, the page cache) is taken on this one normal form;
 * a request whose path is not already in it is redirected there (GET, HEAD)
 * or refused, so no rule can be walked around with a spelling the router
 * reads as the same route.
 */
export type RequestTarget = { path: string; search: string } & (
	{ kind: 'path' } | { kind: 'redirect'; location: string } | { kind: 'refused'; status: 400 | 405 }
)

/** Methods this service answers; anything else (TRACE, CONNECT, WebDAV verbs) is 405. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'])
export const ALLOWED_METHODS = [...METHODS].join(', ')

const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/**
 * The normal form of a path: what WHATWG URL parsing makes of it (dot segments,
 * `%2e` segments and backslashes resolved, as browsers and the router do), with
 * percent-encoded unreserved characters decoded and other escapes in upper
 * case (RFC 3986, 6.2.2), runs of slashes collapsed and no trailing slash.
 */
export function normalPath(rawPath: string): string | null {
	let pathname: string
	try {
		// Prefixing the origin, as the request adapter does, keeps `//host/x` a path.
		pathname = new URL(`http://target${rawPath}`).pathname
	} catch {
		return null
	}
	const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
		const char = String.fromCharCode(Number.parseInt(hex, 16))
		return UNRESERVED.test(char) ? char : escape.toUpperCase()
	})
	// Decoding can uncover dot segments (`%2E%2E`): resolve them again until stable.
	const again = decoded === pathname ? removeDotSegments(decoded) : normalPath(decoded)
	if (again === null) return null
	const collapsed = again.replace(/\/{2,}/g, '/')
	return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed
}

/**
 * RFC 3986's remove_dot_segments (5.2.4) on a parsed path: Node 20's URL parser leaves `.` and `..`
 * in place after a segment that starts with a dot (`/a/.0/b/..` stays as it is), where browsers
 * and the RFC resolve them.
 */
function removeDotSegments(path: string) {
	const segments = path.split('/')
	if (!segments.some((s) => s === '.' || s === '..')) return path
	const kept: string[] = []
	for (const [i, segment] of segments.entries()) {
		const last = i === segments.length - 1
		if (segment === '..' && kept.length > 1) kept.pop()
		if (segment === '.' || segment === '..') {
			if (last) kept.push('')
		} else kept.push(segment)
	}
	return kept.join('/')
}

/** The request's method and target (Node's `req.url`), checked and normalised. */
export function readRequestTarget(method: string | undefined, rawTarget: string | undefined): RequestTarget {
	// Only origin-form (`/path?query`, or `\path` that URL parsing reads the same); absolute-form,
	// authority-form and `*` are not for us.
	if (!rawTarget || !(rawTarget.startsWith('/') || rawTarget.startsWith('\\')))
		return { kind: 'refused', status: 400, path: '/', search: '' }
	const queryAt = rawTarget.indexOf('?')
	const rawPath = queryAt === -1 ? rawTarget : rawTarget.slice(0, queryAt)
	const search = queryAt === -1 ? '' : rawTarget.slice(queryAt)
	const path = normalPath(rawPath)
	// `path` is what the refusal is about (a JSON envelope under /api/), never taken as a route.
	if (path === null) return { kind: 'refused', status: 400, path: '/', search }
	if (!method || !METHODS.has(method)) return { kind: 'refused', status: 405, path, search }
	if (path === rawPath) return { kind: 'path', path, search }
	if (method === 'GET' || method === 'HEAD') return { kind: 'redirect', location: path + search, path, search }
	return { kind: 'refused', status: 400, path, search }
}

/**
 * The page a React Router data request is for (`/learn.data` is `/learn`; a
 * path ending in a slash asks as `<path>/_.data`, the home page as `/_.data`,
 * react-router.config.ts's v8_trailingSlashAwareDataRequests): rules about a
 * page apply to its data too. Pages have no trailing slash but the home page's.
 */
export function pagePathOf(path: string) {
	if (path.endsWith('/_.data')) return path.slice(0, -'_.data'.length).replace(/(.)\/$/, '$1')
	return path.endsWith('.data') ? path.slice(0, -'.data'.length) : path
}

/**
 * The query of the page a request is for: React Router's transport parameters
 * (`_routes`, an empty `index`) taken off, never part of a URL a person sees
 * (a callbackUrl, the locale switcher's target); any other query as sent.
 */
export function pageSearchOf(search: string) {
	const params = new URLSearchParams(search)
	const transport = params.has('_routes') || params.getAll('index').includes('')
	if (!transport) return search
	const kept = params.getAll('index').filter(Boolean)
	params.delete('_routes')
	params.delete('index')
	for (const value of kept) params.append('index', value)
	const rest = params.toString()
	return rest ? `?${rest}` : ''
}
