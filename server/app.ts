/**
 * The server entry, compiled into build/server/index.js together with the
 * routes: the app of one process, its listener, its workers and its drain.
 * Each request goes through the entry's steps in server/handle.ts, which
 * resolve the tenant from the host once, answer an unknown host (404) and a
 * suspended tenant (branded 503) before any routing, and hand every loader and
 * action one RequestContext.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { parseEnv, EnvError, type Env } from '#app/platform/env.server.ts'
import '#app/i18n/catalogues.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { createJobRunner } from '#app/jobs.server.ts'
import { startJobWorker } from './queue.ts'
import { connectInvalidation } from './invalidation.ts'
import { handle } from './handle.ts'
import { startFileSweep } from './file-sweep.ts'
import { startSchedule } from './schedule.ts'
import { createServices, startRedis, type AppOptions } from './services.ts'

/** The routes' build, for the benchmark that replays loaders' data through the same routes (bench/replay-server.ts). */
export * as serverBuild from 'virtual:react-router/server-build'

/**
 * The app of one process: the services it builds once (server/services.ts), and the listener that
 * takes each request through the entry's steps (server/handle.ts).
 */
export function createApp(options: AppOptions) {
	const s = createServices(options)
	const drain = createDrain()
	const listener = (req: IncomingMessage, res: ServerResponse) => {
		drain.track(res)
		handle(s, req, res)?.catch((error) => {
			log.error('request/failed', { path: (req.url ?? '').split('?')[0], error: describeError(error) })
			if (res.headersSent) return res.destroy()
			res.writeHead(500, { ...s.baseHeaders, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
			res.end('Something went wrong on our side. Please try again.')
		})
	}
	const { db, cms, mailer, rateLimit, tags, pageCache, redis, afterResponse } = s
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
		createJobRunner({ db: app.db, cms: app.cms, mailer: app.mailer, env }),
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
	const schedule = startSchedule(app.db, options.env.REMINDER_SWEEP_SECONDS)
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
			// No job starts from here on (one queued meanwhile waits for another process, or the next
			// start); jobs under way get the drain's time to finish, and what is left is handed back.
			const jobsStopped = jobs.stop(options.env.DRAIN_TIMEOUT_SECONDS * 1000)
			const closed = new Promise<void>((resolve) => server.close(() => resolve()))
			server.closeIdleConnections()
			const force = setTimeout(() => server.closeAllConnections(), options.env.DRAIN_TIMEOUT_SECONDS * 1000)
			await closed
			clearTimeout(force)
			// Deferred work, and hand-ins the cut ended removing their files (bounded by their own deadline).
			await app.afterResponse.settled()
			await jobsStopped
			await sweep.stop()
			await schedule.stop()
			await bus.close()
			await Promise.allSettled([subscriber?.quit(), app.redis?.quit()])
			if (!options.db) await app.db.close()
		},
	}
}

/** The production start: one clear line and exit code 1 on a configuration error. */
export async function main(options: Pick<AppOptions, 'clientDir' | 'serverBuild'> = {}) {
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
	const running = await listen({ env, ...options })
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
