/**
 * The server entry, compiled into build/server/index.js together with the
 * routes. It resolves the tenant from the host once per request, answers an
 * unknown host (404) and a suspended tenant (branded 503) before any routing,
 * and hands every loader and action one RequestContext.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import { createRequest, sendResponse } from '@remix-run/node-fetch-server'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import { parse as parseCookie } from 'cookie'
import sirv from 'sirv'
// The virtual module React Router provides at build time: the routes compiled into this bundle.
import * as serverBuild from 'virtual:react-router/server-build'
import { requestContext, type RequestContext } from '#app/context.ts'
import { APEX_SITE, createCmsClient } from '#app/content/cms.server.ts'
import { createContentCache } from '#app/content/content-cache.server.ts'
import { parseEnv, EnvError, type Env } from '#app/platform/env.server.ts'
import { createTagStore } from '#app/content/cache-tags.server.ts'
import { createMailer } from '#app/platform/mailer.server.ts'
import { errorCodeFor, jsonError } from '#app/platform/errors.ts'
import {
	createMemoryDriver,
	createRedisDriver,
	createUpstashDriver,
	databaseWindows,
	perRequest,
	type RateLimitDriver,
} from '#app/platform/rate-limit.server.ts'
import { negotiateLocale } from '#app/platform/locale.server.ts'
import { i18n } from '#app/i18n/index.ts'
import { PREFIXED_LOCALES, splitLocalePath, type Locale } from '#app/i18n/locales.ts'
import '#app/i18n/catalogues.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { createHostResolver, normalizeHost, type HostResolution } from '#app/platform/tenant.server.ts'
import { openDatabase, type Database } from '#db/client.ts'
import { createClient } from 'redis'
import { createJobRunner } from '#app/platform/job-handlers.server.ts'
import { createDeferredWork } from './deferred.ts'
import { startJobWorker } from './queue.ts'
import { compressResponse, negotiateEncoding } from './compression.ts'
import { connectInvalidation } from './invalidation.ts'
import { clientAddress, configuredOrigin, requestHost } from './proxy.ts'
import {
	apiEnvelope,
	HAND_INS_BUSY,
	isApi,
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
import { createPageCache, type CachedAnswer } from './page-cache.ts'
import { createHandInGate, handInRequest } from './hand-in-body.ts'
import { startFileSweep } from './file-sweep.ts'
import { statusPage } from './status-page.ts'

export interface AppOptions {
	env: Env
	/** An open database; by default one is opened from env.DATABASE_URL. */
	db?: Database
	/** The built browser assets; server.js passes its own build/client. */
	clientDir?: string
	rateLimit?: RateLimitDriver
	/** How long a host's tenant is remembered before the database is asked again (60 s; tests shorten it). */
	hostCacheTtlMs?: number
}

const HSTS = 'max-age=31536000; includeSubDomains'

const LIVENESS_PATH = '/api/health/live'
const LIVENESS_BODY = Buffer.from(JSON.stringify({ status: 'ok' }))

const SECURITY_HEADERS: Record<string, string> = {
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'strict-origin-when-cross-origin',
	'x-frame-options': 'DENY',
}

export function createApp(options: AppOptions) {
	const { env } = options
	const db = options.db ?? openDatabase(env.DATABASE_URL)
	const tags = createTagStore()
	const cms = createContentCache(
		createCmsClient({
			apiUrl: env.CMS_API_URL,
			projectUuid: env.CMS_PROJECT_UUID,
			apiKey: env.CMS_API_UUID,
		}),
		tags,
	)
	// The build itself, not a function returning it: given a function, React Router derives its
	// route tables again on every request (meant for development reloads), which was most of the
	// time a page took with this many routes. Always in production mode: in any other, React Router
	// sends error messages and stacks to the browser (errors are logged by handleError instead).
	const build = serverBuild as ServerBuild
	// One route table for every locale (app/routes.ts): a prefixed locale's pages are the same routes
	// under its basename (/es/learn is /learn), without the platform routes, whose URLs take no prefix.
	const pages = <T>(routes: Record<string, T>) =>
		Object.fromEntries(Object.entries(routes).filter(([id]) => !id.startsWith('platform/')))
	const prefixedBuild = {
		...build,
		routes: pages(build.routes),
		assets: { ...build.assets, routes: pages(build.assets.routes) },
	}
	const handlers = new Map<string, ReturnType<typeof createRequestHandler>>(
		PREFIXED_LOCALES.map((locale) => [
			locale,
			createRequestHandler({ ...prefixedBuild, basename: `/${locale}` }, 'production'),
		]),
	)
	const handleUnprefixed = createRequestHandler(build, 'production')
	const assets = sirv(options.clientDir ?? resolve('build/client'), {
		immutable: true,
		maxAge: 31536000,
		gzip: true,
		brotli: true,
	})
	const trustForwardedHost = env.AUTH_TRUST_HOST === 'true'
	const configured = new URL(env.AUTH_URL)
	// Over https, browsers remember to never use plain http for this host.
	const baseHeaders =
		configured.protocol === 'https:' ? { ...SECURITY_HEADERS, 'strict-transport-security': HSTS } : SECURITY_HEADERS
	const livenessHeaders = {
		...baseHeaders,
		'content-type': 'application/json',
		'content-length': String(LIVENESS_BODY.length),
		'cache-control': 'no-store',
	}
	const afterResponse = createDeferredWork()
	const redis = env.REDIS_URL ? connectRedis(env.REDIS_URL) : null
	const rateLimit =
		options.rateLimit ??
		(env.RATE_LIMIT_DRIVER === 'redis'
			? createRedisDriver(redis!, databaseWindows(db))
			: env.RATE_LIMIT_DRIVER === 'upstash'
				? createUpstashDriver(env.UPSTASH_REDIS_REST_URL!, env.UPSTASH_REDIS_REST_TOKEN!, databaseWindows(db))
				: createMemoryDriver())
	const mailer = createMailer(env)
	const pageCache = createPageCache(tags, { baseHeaders })
	const resolveTenantHost = createHostResolver(
		db,
		env.APP_BASE_DOMAIN,
		tags,
		options.hostCacheTtlMs ?? env.HOST_CACHE_TTL_SECONDS * 1000,
		env.HOST_CACHE_STALE_SECONDS * 1000,
	)
	const handInGate = createHandInGate(env.HAND_IN_CONCURRENCY, env.HAND_IN_QUEUE_SECONDS * 1000)

	/** The entry's steps in order; each either answers or lets the request go on. */
	async function handle(req: IncomingMessage, res: ServerResponse) {
		const target = readRequestTarget(req.method, req.url)
		const { path } = target
		// Rules about a page apply to its React Router data request (`/learn.data`) too.
		const localized = splitLocalePath(pagePathOf(path))
		// Read once, with the parser the session is read with (the page cache asks it too).
		const cookies = parseCookie(req.headers.cookie ?? '')
		// The locale: a URL prefix (/es/learn) first, then the lms_locale cookie, Accept-Language, en.
		// A signed-in user's own locale takes over in the root middleware (app/root.tsx).
		const locale = localized.locale ?? negotiateLocale(req.headers['accept-language'], cookies.lms_locale)
		const { reply, refuse, databaseDown } = answers(req, res, {
			path,
			pagePath: localized.path,
			search: target.search,
			locale,
		})

		const badTarget = refuseTarget(target)
		if (badTarget) return refuse(badTarget)
		// Liveness asks nothing outside the process, not even the host's tenant (decision 0035): answered
		// here, before the host lookup and the session, whatever the database and Redis are doing.
		if (path === LIVENESS_PATH && (req.method === 'GET' || req.method === 'HEAD'))
			return sendCached(res, {
				status: 200,
				headers: livenessHeaders,
				body: req.method === 'GET' ? LIVENESS_BODY : null,
			})

		const host = normalizeHost(requestHost(req.headers.host, req.headers['x-forwarded-host'], trustForwardedHost))
		let resolution: HostResolution
		try {
			// Cached hosts answer without a wait, so a page-cache hit is served in this same turn.
			resolution = resolveTenantHost.fresh(host) ?? (await resolveTenantHost(host))
		} catch (error) {
			log.error('request/tenant-lookup-failed', { host, error: describeError(error) })
			return databaseDown()
		}
		if (resolution.kind === 'unknown') {
			return refuse({ status: 404, error: 'Not found', title: 'siteNotFoundTitle', message: 'siteNotFound' })
		}
		// Another spelling of a path (dot segments, doubled or trailing slashes, escapes) is sent to
		// the one the rules below are written for; the token it may carry stays out of Referer.
		if (target.kind === 'redirect') {
			const headers = { location: target.location, 'referrer-policy': 'no-referrer' }
			return send(req, res, new Response(null, { status: 308, headers }))
		}
		if (path.startsWith('/assets/')) {
			// sirv picks its precompressed file by substring and ignores q-values: it is told the negotiated one.
			req.headers['accept-encoding'] = negotiateEncoding(req.headers['accept-encoding'] ?? '')
			return assets(req, res, () => reply(new Response('Not found', { status: 404 })))
		}

		const tenant = resolution.kind === 'tenant' ? resolution.tenant : null
		if (tenant?.status === 'suspended' && !servedWhileSuspended(localized.path)) {
			if (isApi(path)) return reply(jsonError(503, 'SERVICE_UNAVAILABLE', 'This site is temporarily unavailable'))
			const t = i18n(locale)
			const text = t.m.common.status
			const message = t.format(text.suspended, { site: tenant.name })
			return reply(statusPage({ status: 503, title: text.suspendedTitle, message, brand: tenant.name, lang: locale }))
		}

		// Scheme and port from configuration, the name only once it resolved: a Host header cannot
		// put its own port or name into links, emails or cached pages.
		const origin = configuredOrigin(configured, host)
		const refusal =
			refuseBody(req.method, req.headers, localized.path) ?? refuseCrossSite(req.method, req.headers, origin, path)
		if (refusal) return refuse(refusal)

		// A hand-in's body is received only in one of the process's slots (decision 0034); while it waits
		// for one, its bytes stay in the socket. The slot is given back with the answer.
		const handIn = isHandInUpload(req.method, req.headers, localized.path)
		if (handIn) {
			const release = await handInGate.acquire()
			if (!release) return refuse(HAND_INS_BUSY)
			res.once('close', release)
			// The client went away while it waited: its 'close' has been and gone.
			if (req.socket.destroyed) return release()
		}

		// From here on the router reads the normal form of the target.
		const url = routerUrl(path, target.search)
		req.url = url

		// Visitors without a session get public pages from the page cache.
		const cacheKey = pageCache.keyFor(req.method, url, host, locale, cookies)
		const conditional = {
			method: req.method,
			ifNoneMatch: req.headers['if-none-match'],
			acceptEncoding: req.headers['accept-encoding'],
		}
		const cached = cacheKey ? pageCache.lookup(cacheKey) : null
		if (cached) return sendCached(res, pageCache.respond(cached, conditional, 'hit'))

		const { response, readTags, databaseUnavailable } = await render(req, res, {
			tenant,
			host,
			origin,
			locale,
			prefix: localized.locale,
			page: { path: pagePathOf(path), search: pageSearchOf(target.search) },
			handIn,
		})
		// Host lookups are cached, so a database outage may first show inside a loader or action:
		// answered like the outage before routing, not as a generic error.
		if (response.status === 500 && databaseUnavailable) {
			await response.body?.cancel()
			return databaseDown()
		}
		const answer = isApi(path) ? await apiEnvelope(response) : response
		if (cacheKey) {
			const stored = await pageCache.store(cacheKey, answer.clone(), [...readTags.keys()], [...readTags.values()])
			if (stored) {
				await answer.body?.cancel()
				return sendCached(res, pageCache.respond(stored, conditional, 'miss'))
			}
		}
		return reply(answer)
	}

	/** The ways the entry answers a request itself: as is, refused, or while the database is down. */
	function answers(
		req: IncomingMessage,
		res: ServerResponse,
		at: { path: string; pagePath: string; search: string; locale: Locale },
	) {
		const t = i18n(at.locale)
		const reply = (response: Response) => {
			if (keepsTokenFromReferer(at.pagePath, at.search)) response.headers.set('referrer-policy', 'no-referrer')
			return send(req, res, response)
		}
		// Refused before routing: the JSON envelope under /api/, else a branded page.
		const page = (
			status: number,
			error: string,
			title: string,
			message: string,
			headers: Record<string, string> = {},
		) => {
			const response = isApi(at.path)
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

	/**
	 * React Router's answer for the request, with the RequestContext every loader and action reads,
	 * and the content tags (and their versions) the render read, for the page cache.
	 */
	async function render(
		req: IncomingMessage,
		res: ServerResponse,
		site: Pick<RequestContext, 'tenant' | 'host' | 'origin' | 'locale' | 'page'> & {
			prefix: string | null
			handIn: boolean
		},
	) {
		const readTags = new Map<string, number>()
		const deferred: Array<() => Promise<unknown>> = []
		const limits = perRequest(rateLimit)
		const context = new RouterContextProvider()
		const value: RequestContext = {
			env,
			db,
			cms: cms.withReadListener((list) => {
				for (const tag of list) if (!readTags.has(tag)) readTags.set(tag, tags.version(tag))
			}),
			tenant: site.tenant,
			site: site.tenant ? site.tenant.slug : APEX_SITE,
			host: site.host,
			origin: site.origin,
			page: site.page,
			locale: site.locale,
			clientIp: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], env.TRUSTED_PROXY_HOPS),
			rateLimit: limits.driver,
			tags,
			redis,
			afterResponse: (task) => void deferred.push(task),
		}
		context.set(requestContext, value)
		const host = new URL(site.origin).host
		// A hand-in's body is read as fast as the file store takes it; every other body is small (MAX_BODY_BYTES).
		const request = site.handIn
			? handInRequest(req, res, `${configured.protocol}//${host}${req.url}`, env.HAND_IN_BODY_SECONDS * 1000)
			: createRequest(req, res, { protocol: configured.protocol, host })
		try {
			const response = await (site.prefix ? handlers.get(site.prefix)! : handleUnprefixed)(request, context)
			// An attempt answered with our failure (the database down, a bug) is not the client's to pay for;
			// 501 is not a failure but the spec's answer to a paid enrollment, and counts.
			if ((response.status >= 500 && response.status !== 501) || value.databaseUnavailable) limits.undoAll()
			return { response, readTags, databaseUnavailable: value.databaseUnavailable === true }
		} catch (error) {
			limits.undoAll()
			throw error
		} finally {
			// Best-effort work that must not delay the answer (a session's renewal) starts once it is sent.
			if (deferred.length) afterResponse.run(deferred)
		}
	}

	async function send(req: IncomingMessage, res: ServerResponse, response: Response) {
		for (const [name, value] of Object.entries(baseHeaders)) {
			if (!response.headers.has(name)) response.headers.set(name, value)
		}
		await sendResponse(res, await compressResponse(response, req.method, req.headers['accept-encoding']))
	}

	/** A page-cache answer straight onto the socket: the hot path for visitors, with no Response or stream in between. */
	function sendCached(res: ServerResponse, answer: CachedAnswer) {
		res.writeHead(answer.status, answer.headers)
		res.end(answer.body)
	}

	const drain = createDrain()
	const listener = (req: IncomingMessage, res: ServerResponse) => {
		drain.track(res)
		handle(req, res).catch((error) => {
			log.error('request/failed', { path: (req.url ?? '').split('?')[0], error: describeError(error) })
			if (res.headersSent) return res.destroy()
			res.writeHead(500, { ...baseHeaders, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
			res.end('Something went wrong on our side. Please try again.')
		})
	}

	return { listener, db, cms, mailer, rateLimit, tags, pageCache, redis, afterResponse, drain }
}

/**
 * Draining (SIGTERM): every answer from then on says `Connection: close`,
 * including those of requests already under way, and each connection is
 * closed as soon as its answer is sent, so no client sends a next request on
 * a keep-alive connection of a process that is going away.
 */
function createDrain() {
	const inFlight = new Set<ServerResponse>()
	let draining = false
	const closeAfter = (res: ServerResponse) => {
		if (!res.headersSent) res.shouldKeepAlive = false
		else res.once('finish', () => res.socket?.end())
	}
	return {
		track(res: ServerResponse) {
			if (draining) return closeAfter(res)
			inFlight.add(res)
			res.once('close', () => inFlight.delete(res))
		},
		start() {
			draining = true
			for (const res of inFlight) closeAfter(res)
		},
	}
}

/**
 * The job queue's worker (mail, housekeeping) of an app: every process drains the queue (decision
 * 0033). Started by `listen`, and by `npm run dev` for each app it makes.
 */
export function startJobs(app: Pick<ReturnType<typeof createApp>, 'db' | 'cms' | 'mailer'>, env: Env) {
	return startJobWorker(
		app.db,
		{
			pollSeconds: env.JOB_POLL_SECONDS,
			retryLimit: env.JOB_RETRY_LIMIT,
			retryDelaySeconds: env.JOB_RETRY_DELAY_SECONDS,
			timeoutSeconds: env.JOB_TIMEOUT_SECONDS,
		},
		createJobRunner({ db: app.db, cms: app.cms, mailer: app.mailer }),
	)
}

/** Starts an HTTP server; resolves once it listens. Used by server.js and the tests. */
export async function listen(options: AppOptions & { port?: number; host?: string }) {
	const app = createApp(options)
	// Revalidations reach the other processes (PostgreSQL LISTEN/NOTIFY, Redis pub/sub).
	const subscriber = app.redis ? startRedis(app.redis.duplicate()) : null
	const bus = await connectInvalidation(app.tags, {
		db: app.db,
		redis:
			app.redis && subscriber
				? {
						publish: (channel, message) => app.redis!.publish(channel, message),
						subscribe: (channel, onMessage) => subscriber.subscribe(channel, onMessage),
						unsubscribe: (channel) => subscriber.unsubscribe(channel),
					}
				: null,
	})
	const jobs = startJobs(app, options.env)
	const sweep = startFileSweep(app.db, options.env.HAND_IN_ORPHAN_GRACE_SECONDS * 1000)
	const server = createServer(app.listener)
	server.keepAliveTimeout = 65_000
	await new Promise<void>((resolve) =>
		server.listen(options.port ?? options.env.PORT, options.host ?? '0.0.0.0', resolve),
	)
	const address = server.address()
	const port = typeof address === 'object' && address ? address.port : options.env.PORT
	return {
		...app,
		server,
		port,
		jobs,
		/**
		 * Stops accepting, answers what is under way with `Connection: close`, closes each connection
		 * as its answer ends, and cuts whatever is left after DRAIN_TIMEOUT_SECONDS (15 s).
		 */
		async close() {
			app.drain.start()
			const closed = new Promise<void>((resolve) => server.close(() => resolve()))
			server.closeIdleConnections()
			const force = setTimeout(() => server.closeAllConnections(), options.env.DRAIN_TIMEOUT_SECONDS * 1000)
			await closed
			clearTimeout(force)
			await app.afterResponse.settled()
			// Jobs under way get the same time to finish; what is left is handed back to the queue.
			await jobs.stop(options.env.DRAIN_TIMEOUT_SECONDS * 1000)
			await sweep.stop()
			await bus.close()
			await Promise.allSettled([subscriber?.quit(), app.redis?.quit()])
			if (!options.db) await app.db.close()
		},
	}
}

/**
 * Every wait on Redis is bounded (docs/decisions/0017-faults.md): commands are
 * refused at once while the connection is down (no offline queue) and time
 * out after 250 ms when Redis does not answer; reconnects are tried within a
 * second. The rate limits then count in this process's memory instead.
 */
function connectRedis(url: string) {
	return startRedis(
		createClient({
			url,
			disableOfflineQueue: true,
			commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
			socket: { connectTimeout: 1_000, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 1_000) },
		}),
	)
}

const REDIS_COMMAND_TIMEOUT_MS = 250

/**
 * Connects a node-redis client in the background (commands queue until it is
 * ready): a Redis outage at start must not stop the process; errors are logged.
 */
function startRedis<
	C extends { on(event: 'error', listener: (error: Error) => void): unknown; connect(): Promise<unknown> },
>(client: C) {
	client.on('error', (error) => log.error('redis/error', { error: describeError(error) }))
	client.connect().catch((error) => log.error('redis/connect-failed', { error: describeError(error) }))
	return client
}

/** The production start: one clear line and exit code 1 on a configuration error. */
export async function main(options: { clientDir?: string } = {}) {
	let env: Env
	try {
		env = parseEnv()
	} catch (error) {
		if (error instanceof EnvError) {
			console.error(error.message)
			process.exit(1)
		}
		throw error
	}
	const running = await listen({ env, clientDir: options.clientDir })
	log.info('server/listening', {
		port: running.port,
		baseDomain: env.APP_BASE_DOMAIN,
		mode: process.env.NODE_ENV ?? 'unset',
	})
	let stopping = false
	const stop = async (signal: string) => {
		if (stopping) return
		stopping = true
		log.info('server/stopping', { signal })
		await running.close()
		process.exit(0)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
	return running
}

/** Whether the request carries a body (declared by its length or sent in chunks). */
function hasBody(req: IncomingMessage) {
	return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
}
