/**
 * What the server entry builds once per process (server/app.ts takes requests through them): the
 * database, the content client and its cache tags, a router per locale prefix, the static assets,
 * rate limits, mail, the page cache, the host resolver and the hand-in gate.
 */
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { createRequestHandler, type ServerBuild } from 'react-router'
import type * as NodeRedis from 'redis'
import sirv from 'sirv'
// The virtual module React Router provides at build time: the routes compiled into this bundle.
import * as serverBuild from 'virtual:react-router/server-build'
import { createTagStore } from '#app/content/cache-tags.server.ts'
import { createCmsClient } from '#app/content/cms.server.ts'
import { createContentCache } from '#app/content/content-cache.server.ts'
import { PREFIXED_LOCALES } from '#app/i18n/locales.ts'
import type { Env } from '#app/platform/env.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { createMailer } from '#app/platform/mailer.server.ts'
import {
	createMemoryDriver,
	createRedisDriver,
	createUpstashDriver,
	databaseWindows,
	type RateLimitDriver,
} from '#app/platform/rate-limit.server.ts'
import { createHostResolver } from '#app/platform/tenant.server.ts'
import { openDatabase, type Database } from '#db/client.ts'
import { createDeferredWork } from './deferred.ts'
import { createHandInGate } from './hand-in-body.ts'
import { createPageCache } from './page-cache.ts'

export interface AppOptions {
	env: Env
	/** An open database; by default one is opened from env.DATABASE_URL. */
	db?: Database
	/** The built browser assets; server.js passes its own build/client. */
	clientDir?: string
	rateLimit?: RateLimitDriver
	/** How long a host's tenant is remembered before the database is asked again (60 s; tests shorten it). */
	hostCacheTtlMs?: number
	/** A copy of the routes' build to serve instead of this bundle's (the benchmark records loaders' data through one). */
	serverBuild?: ServerBuild
}

const HSTS = 'max-age=31536000; includeSubDomains'

export const LIVENESS_PATH = '/api/health/live'
export const LIVENESS_BODY = Buffer.from(JSON.stringify({ status: 'ok' }))

const SECURITY_HEADERS: Record<string, string> = {
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'strict-origin-when-cross-origin',
	'x-frame-options': 'DENY',
}

export type Services = ReturnType<typeof createServices>

export function createServices(options: AppOptions) {
	const { env } = options
	const db = options.db ?? openDatabase(env.DATABASE_URL)
	const tags = createTagStore()
	const cms = createContentCache(
		createCmsClient({ apiUrl: env.CMS_API_URL, projectUuid: env.CMS_PROJECT_UUID, apiKey: env.CMS_API_UUID }),
		tags,
	)
	const configured = new URL(env.AUTH_URL)
	// Over https, browsers remember to never use plain http for this host.
	const baseHeaders =
		configured.protocol === 'https:' ? { ...SECURITY_HEADERS, 'strict-transport-security': HSTS } : SECURITY_HEADERS
	const redis = env.REDIS_URL ? connectRedis(env.REDIS_URL) : null
	return {
		env,
		db,
		tags,
		cms,
		/** The configured origin's scheme and port (a Host header never chooses them). */
		configured,
		baseHeaders,
		livenessHeaders: {
			...baseHeaders,
			'content-type': 'application/json',
			'content-length': String(LIVENESS_BODY.length),
			'cache-control': 'no-store',
		},
		trustForwardedHost: env.AUTH_TRUST_HOST === 'true',
		routerFor: createRouters(options.serverBuild ?? (serverBuild as ServerBuild)),
		assets: sirv(options.clientDir ?? resolve('build/client'), {
			immutable: true,
			maxAge: 31536000,
			gzip: true,
			brotli: true,
		}),
		afterResponse: createDeferredWork(),
		redis,
		rateLimit: options.rateLimit ?? rateLimitDriver(env, redis, db),
		mailer: createMailer(env),
		pageCache: createPageCache(tags, { baseHeaders }),
		resolveTenantHost: createHostResolver(
			db,
			env.APP_BASE_DOMAIN,
			tags,
			options.hostCacheTtlMs ?? env.HOST_CACHE_TTL_SECONDS * 1000,
			env.HOST_CACHE_STALE_SECONDS * 1000,
		),
		handInGate: createHandInGate(env.HAND_IN_CONCURRENCY, env.HAND_IN_QUEUE_SECONDS * 1000),
	}
}

/**
 * React Router's handler for a locale prefix (null: none). The build itself, not a function
 * returning it: given a function, React Router derives its route tables again on every request
 * (meant for development reloads), which was most of the time a page took with this many routes.
 * Always in production mode: in any other, React Router sends error messages and stacks to the
 * browser (errors are logged by handleError instead).
 */
function createRouters(build: ServerBuild) {
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
	const unprefixed = createRequestHandler(build, 'production')
	return (prefix: string | null) => (prefix ? handlers.get(prefix)! : unprefixed)
}

/** The rate-limit driver RATE_LIMIT_DRIVER names; the shared ones count credential guessing in the database too (decision 0035). */
function rateLimitDriver(env: Env, redis: ReturnType<typeof connectRedis> | null, db: Database) {
	if (env.RATE_LIMIT_DRIVER === 'redis') return createRedisDriver(redis!, databaseWindows(db))
	if (env.RATE_LIMIT_DRIVER === 'upstash')
		return createUpstashDriver(env.UPSTASH_REDIS_REST_URL!, env.UPSTASH_REDIS_REST_TOKEN!, databaseWindows(db))
	return createMemoryDriver()
}

/**
 * Every wait on Redis is bounded (docs/decisions/0017-faults.md): commands are
 * refused at once while the connection is down (no offline queue) and time
 * out after 250 ms when Redis does not answer; reconnects are tried within a
 * second. The rate limits then count in this process's memory instead.
 */
function connectRedis(url: string) {
	// node-redis is required here, not imported at the top: it takes a tenth of a second of a core to
	// load, and only a process with REDIS_URL uses it.
	const { createClient } = createRequire(import.meta.url)('redis') as typeof NodeRedis
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
export function startRedis<
	C extends { on(event: 'error', listener: (error: Error) => void): unknown; connect(): Promise<unknown> },
>(client: C) {
	client.on('error', (error) => log.error('redis/error', { error: describeError(error) }))
	client.connect().catch((error) => log.error('redis/connect-failed', { error: describeError(error) }))
	return client
}
