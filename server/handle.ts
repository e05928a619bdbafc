/**
 * The entry's steps for one request (server/app.ts's listener runs them): the target's normal form, the
 * host's tenant once, the refusals before any routing (an unknown host 404, a suspended tenant's
 * branded 503, bodies and cross-site writes), the page cache, and React Router with one RequestContext
 * for every loader and action.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequest, sendResponse } from '@remix-run/node-fetch-server'
import { RouterContextProvider } from 'react-router'
import { parse as parseCookie } from 'cookie'
import { requestContext, type RequestContext } from '#app/context.ts'
import { APEX_SITE } from '#app/content/cms.server.ts'
import { errorCodeFor, isApiPath, jsonError } from '#app/platform/errors.ts'
import { perRequest } from '#app/platform/rate-limit.server.ts'
import { negotiateLocale } from '#app/platform/locale.server.ts'
import { i18n } from '#app/i18n/index.ts'
import { splitLocalePath, type Locale } from '#app/i18n/locales.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { normalizeHost, type HostResolution } from '#app/platform/tenant.server.ts'
import type { Tenant } from '#db/tenants.ts'
import { compressResponse, negotiateEncoding } from './compression.ts'
import { clientAddress, configuredOrigin, requestHost } from './proxy.ts'
import {
	apiEnvelope,
	HAND_INS_BUSY,
	isHandInUpload,
	keepsTokenFromReferer,
	refuseBody,
	refuseCrossSite,
	refuseTarget,
	routerUrl,
	servedWhileSuspended,
	type Refusal,
} from './entry-rules.ts'
import { pagePathOf, pageSearchOf, readRequestTarget } from './request-target.ts'
import type { CachedAnswer } from './page-cache.ts'
import { handInRequest } from './hand-in-body.ts'
import { LIVENESS_BODY, LIVENESS_PATH, type Services } from './services.ts'
import { statusPage } from './status-page.ts'

/** The cookies of a request whose Cookie header names no session (the page cache reads no other). */
const NO_SESSION = {}

/**
 * The request's answer: a page-cache hit straight away when the request can be nothing else
 * (null: the answer went out in this turn, with no promise to settle), else the entry's steps.
 */
export function handle(s: Services, req: IncomingMessage, res: ServerResponse): Promise<void> | null {
	try {
		if (answerFromCache(s, req, res)) return null
	} catch (error) {
		return Promise.reject(error)
	}
	return steps(s, req, res)
}

/**
 * A page-cache hit answered before the entry's steps, with no per-hit work that the stored answer
 * does not need (issue 47, decision 0078): no target parsing, no cookie parsing, no refusal
 * checks, no answer helpers. Taken only where the steps would come to the same stored answer:
 * - a GET or HEAD of a path the cache files (its patterns allow only [a-z0-9-] segments, so such a
 *   path is its own normal form, has no query and is no router rewrite: no redirect, no 400);
 * - without a body (no 411 or 413; a safe method is never cross-site nor a hand-in);
 * - a Cookie header that names neither the session nor the locale cookie (the one check that
 *   decides a hit; such a header, or a miss, goes the long way, which parses it);
 * - a host whose resolution is cached (a lookup would wait) and not an unknown host or a suspended
 *   tenant (the steps answer those with their own pages).
 * The locale is negotiated as the steps do; the entry, its freshness and its answer are the cache's.
 */
function answerFromCache(s: Services, req: IncomingMessage, res: ServerResponse) {
	const { method, url, headers } = req
	if (method !== 'GET' && method !== 'HEAD') return false
	if (url === undefined || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined)
		return false
	const cookie = headers.cookie
	if (cookie !== undefined && (cookie.includes('lms_session') || cookie.includes('lms_locale'))) return false
	const host = normalizeHost(requestHost(headers.host, headers['x-forwarded-host'], s.trustForwardedHost))
	const resolution = s.resolveTenantHost.fresh(host)
	if (!resolution || resolution.kind === 'unknown') return false
	if (resolution.kind === 'tenant' && resolution.tenant.status === 'suspended') return false
	const locale = splitLocalePath(url).locale ?? negotiateLocale(headers['accept-language'])
	const key = s.pageCache.keyFor(method, url, host, locale, NO_SESSION)
	const entry = key ? s.pageCache.lookup(key) : null
	if (!entry) return false
	const conditional = { method, ifNoneMatch: headers['if-none-match'], acceptEncoding: headers['accept-encoding'] }
	sendCached(res, s.pageCache.respond(entry, conditional, 'hit'))
	return true
}

/** The entry's steps in order; each either answers or lets the request go on. */
async function steps(s: Services, req: IncomingMessage, res: ServerResponse) {
	const target = readRequestTarget(req.method, req.url)
	const { path } = target
	// Rules about a page apply to its React Router data request (`/learn.data`) too.
	const localized = splitLocalePath(pagePathOf(path))
	// Parsed once: the locale cookie below and the page cache's key both read them.
	const cookies = parseCookie(req.headers.cookie ?? '')
	// The locale: a URL prefix (/es/learn) first, then the lms_locale cookie, Accept-Language, en.
	// A signed-in user's own locale takes over in the root middleware (app/root.tsx).
	const locale = localized.locale ?? negotiateLocale(req.headers['accept-language'], cookies.lms_locale)
	const at = { path, pagePath: localized.path, search: target.search, locale }
	const { reply, refuse, databaseDown } = answers(s, req, res, at)

	const badTarget = refuseTarget(target)
	if (badTarget) return refuse(badTarget)
	// Liveness asks nothing outside the process, not even the host's tenant (decision 0035): answered
	// here, before the host lookup and the session, whatever the database and Redis are doing.
	if (path === LIVENESS_PATH && (req.method === 'GET' || req.method === 'HEAD'))
		return sendCached(res, {
			status: 200,
			headers: s.livenessHeaders,
			body: req.method === 'GET' ? LIVENESS_BODY : null,
		})

	const host = normalizeHost(requestHost(req.headers.host, req.headers['x-forwarded-host'], s.trustForwardedHost))
	// Cached hosts answer without a wait, so a page-cache hit is served in this same turn.
	const resolution = s.resolveTenantHost.fresh(host) ?? (await lookUpHost(s, host))
	if (!resolution) return databaseDown()
	if (resolution.kind === 'unknown') {
		return refuse({ status: 404, error: 'Not found', title: 'siteNotFoundTitle', message: 'siteNotFound' })
	}
	// Another spelling of a path (dot segments, doubled or trailing slashes, escapes) is sent to
	// the one the rules below are written for; the token it may carry stays out of Referer.
	if (target.kind === 'redirect') {
		const headers = { location: target.location, 'referrer-policy': 'no-referrer' }
		return send(s, req, res, new Response(null, { status: 308, headers }))
	}
	if (path.startsWith('/assets/')) {
		// sirv picks its precompressed file by substring and ignores q-values: it is told the negotiated one.
		req.headers['accept-encoding'] = negotiateEncoding(req.headers['accept-encoding'] ?? '')
		return s.assets(req, res, () => reply(new Response('Not found', { status: 404 })))
	}

	const tenant = resolution.kind === 'tenant' ? resolution.tenant : null
	if (tenant?.status === 'suspended' && !servedWhileSuspended(localized.path))
		return reply(suspendedAnswer(tenant, isApiPath(path), locale))

	// Scheme and port from configuration, the name only once it resolved: a Host header cannot
	// put its own port or name into links, emails or cached pages.
	const origin = configuredOrigin(s.configured, host)
	const refusal =
		refuseBody(req.method, req.headers, localized.path) ?? refuseCrossSite(req.method, req.headers, origin, path)
	if (refusal) return refuse(refusal)

	const handIn = isHandInUpload(req.method, req.headers, localized.path)
	if (handIn) {
		const slot = await handInSlot(s, req, res)
		if (slot === 'busy') return refuse(HAND_INS_BUSY)
		if (slot === 'gone') return
	}

	return serve(s, req, res, {
		url: routerUrl(path, target.search),
		path,
		cookies,
		site: {
			tenant,
			host,
			origin,
			locale,
			prefix: localized.locale,
			page: { path: pagePathOf(path), search: pageSearchOf(target.search) },
			handIn,
		},
		reply,
		databaseDown,
	})
}

/** The host's resolution from the database; null when the lookup failed (answered as the database being down). */
async function lookUpHost(s: Services, host: string): Promise<HostResolution | null> {
	try {
		return await s.resolveTenantHost(host)
	} catch (error) {
		log.error('request/tenant-lookup-failed', { host, error: describeError(error) })
		return null
	}
}

/**
 * A hand-in's body is received only in one of the process's slots (decision 0034); while it waits
 * for one, its bytes stay in the socket, and the slot is given back with the answer. `busy`: no
 * slot in time; `gone`: the client went away while it waited (its 'close' has been and gone).
 */
async function handInSlot(s: Services, req: IncomingMessage, res: ServerResponse) {
	const release = await s.handInGate.acquire()
	if (!release) return 'busy'
	res.once('close', release)
	if (!req.socket.destroyed) return 'taken'
	release()
	return 'gone'
}

/** A suspended tenant's answer: the JSON envelope under /api/, else its branded page. */
function suspendedAnswer(tenant: Tenant, api: boolean, locale: Locale) {
	if (api) return jsonError(503, 'SERVICE_UNAVAILABLE', 'This site is temporarily unavailable')
	const t = i18n(locale)
	const text = t.m.common.status
	const message = t.format(text.suspended, { site: tenant.name })
	return statusPage({ status: 503, title: text.suspendedTitle, message, brand: tenant.name, lang: locale })
}

/**
 * The request past the entry's refusals: from the page cache (visitors without a session), else
 * rendered by React Router, its answer stored in the cache when it may be.
 */
async function serve(
	s: Services,
	req: IncomingMessage,
	res: ServerResponse,
	at: {
		url: string
		/** The target's path in its normal form (an API path answers in the JSON envelope). */
		path: string
		cookies: Record<string, string | undefined>
		site: RenderSite
		reply: (response: Response) => Promise<void>
		databaseDown: () => Promise<void>
	},
) {
	// From here on the router reads the normal form of the target.
	req.url = at.url
	const { site } = at
	const cacheKey = s.pageCache.keyFor(req.method, at.url, site.host, site.locale, at.cookies)
	const conditional = {
		method: req.method,
		ifNoneMatch: req.headers['if-none-match'],
		acceptEncoding: req.headers['accept-encoding'],
	}
	const cached = cacheKey ? s.pageCache.lookup(cacheKey) : null
	if (cached) return sendCached(res, s.pageCache.respond(cached, conditional, 'hit'))

	const { response, readTags, databaseUnavailable } = await render(s, req, res, site)
	// Host lookups are cached, so a database outage may first show inside a loader or action:
	// answered like the outage before routing, not as a generic error.
	if (response.status === 500 && databaseUnavailable) {
		await response.body?.cancel()
		return at.databaseDown()
	}
	const answer = isApiPath(at.path) ? await apiEnvelope(response) : response
	if (cacheKey) {
		const stored = await s.pageCache.store(cacheKey, answer.clone(), [...readTags.keys()], [...readTags.values()])
		if (stored) {
			await answer.body?.cancel()
			return sendCached(res, s.pageCache.respond(stored, conditional, 'miss'))
		}
	}
	return at.reply(answer)
}

/** The ways the entry answers a request itself: as is, refused, or while the database is down. */
function answers(
	s: Services,
	req: IncomingMessage,
	res: ServerResponse,
	at: { path: string; pagePath: string; search: string; locale: Locale },
) {
	const t = i18n(at.locale)
	const reply = (response: Response) => {
		if (keepsTokenFromReferer(at.pagePath, at.search)) response.headers.set('referrer-policy', 'no-referrer')
		return send(s, req, res, response)
	}
	// Refused before routing: the JSON envelope under /api/, else a branded page.
	const page = (
		status: number,
		error: string,
		title: string,
		message: string,
		headers: Record<string, string> = {},
	) => {
		const response = isApiPath(at.path)
			? jsonError(status, errorCodeFor(status), error)
			: statusPage({ status, title, message, lang: at.locale })
		for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
		return reply(response)
	}
	const text = t.m.common.status
	return {
		reply,
		// A refused request's body is never read: the connection closes after the answer, or the
		// unread bytes would be taken for the next request on it (keep-alive).
		refuse: (r: Refusal) =>
			page(r.status, r.error, text[r.title], text[r.message], {
				...r.headers,
				...(hasBody(req) ? { connection: 'close' } : {}),
			}),
		databaseDown: () =>
			page(503, 'Service temporarily unavailable', t.m.common.errors.unavailableTitle, text.databaseDown),
	}
}

/** Where a request is rendered: its site, locale and page, the locale prefix it came under, and whether it carries a hand-in. */
type RenderSite = Pick<RequestContext, 'tenant' | 'host' | 'origin' | 'locale' | 'page'> & {
	prefix: string | null
	handIn: boolean
}

/**
 * React Router's answer for the request, with the RequestContext every loader and action reads,
 * and the content tags (and their versions) the render read, for the page cache.
 */
async function render(s: Services, req: IncomingMessage, res: ServerResponse, site: RenderSite) {
	const readTags = new Map<string, number>()
	const deferred: Array<() => Promise<unknown>> = []
	const limits = perRequest(s.rateLimit)
	const context = new RouterContextProvider()
	const value: RequestContext = {
		env: s.env,
		db: s.db,
		cms: s.cms.withReadListener((list) => {
			for (const tag of list) if (!readTags.has(tag)) readTags.set(tag, s.tags.version(tag))
		}),
		tenant: site.tenant,
		site: site.tenant ? site.tenant.slug : APEX_SITE,
		host: site.host,
		origin: site.origin,
		page: site.page,
		locale: site.locale,
		clientIp: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], s.env.TRUSTED_PROXY_HOPS),
		rateLimit: limits.driver,
		tags: s.tags,
		redis: s.redis,
		afterResponse: (task) => void deferred.push(task),
		holdDrain: (work) => s.afterResponse.hold(work),
	}
	context.set(requestContext, value)
	const host = new URL(site.origin).host
	// A hand-in's body is read as fast as the file store takes it; every other body is small (MAX_BODY_BYTES).
	const request = site.handIn
		? handInRequest(req, res, `${s.configured.protocol}//${host}${req.url}`, s.env.HAND_IN_BODY_SECONDS * 1000)
		: createRequest(req, res, { protocol: s.configured.protocol, host })
	try {
		const response = await s.routerFor(site.prefix)(request, context)
		// An attempt answered with our failure (the database down, a bug) is not the client's to pay for;
		// 501 is not a failure but the spec's answer to a paid enrollment, and counts.
		if ((response.status >= 500 && response.status !== 501) || value.databaseUnavailable) limits.undoAll()
		return { response, readTags, databaseUnavailable: value.databaseUnavailable === true }
	} catch (error) {
		limits.undoAll()
		throw error
	} finally {
		// Best-effort work that must not delay the answer (a session's renewal) starts once it is sent.
		if (deferred.length) s.afterResponse.run(deferred)
	}
}

async function send(s: Services, req: IncomingMessage, res: ServerResponse, response: Response) {
	// A page that names the one origin that may frame it (a CMS preview, app/root.tsx) says so in its
	// policy alone: X-Frame-Options cannot name an origin, and DENY would forbid it.
	const namesItsFramer = FRAMED_BY_ORIGIN.test(response.headers.get('content-security-policy') ?? '')
	for (const [name, value] of Object.entries(s.baseHeaders)) {
		if (namesItsFramer && name === 'x-frame-options') continue
		if (!response.headers.has(name)) response.headers.set(name, value)
	}
	await sendResponse(res, await compressResponse(response, req.method, req.headers['accept-encoding']))
}

const FRAMED_BY_ORIGIN = /(?:^|;)\s*frame-ancestors\s+(?!'none')/

/** A page-cache answer straight onto the socket: the hot path for visitors, with no Response or stream in between. */
function sendCached(res: ServerResponse, answer: CachedAnswer) {
	res.writeHead(answer.status, answer.headers)
	res.end(answer.body)
}

/** Whether the request carries a body (declared by its length or sent in chunks). */
function hasBody(req: IncomingMessage) {
	return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
}
