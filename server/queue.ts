import type PgBoss from 'pg-boss'
import { describeError, log } from '#app/platform/log.server.ts'
import type { JobAttempt } from '#app/platform/jobs.server.ts'
import type { Database } from '#db/client.ts'
import {
	claimDueJobs,
	failJob,
	finishJob,
	openPgBossPool,
	PG_QUEUE,
	pgBossFor,
	pgQueueOptions,
	releaseJob,
	unfinishedJobs,
	type JobSettings,
} from '#db/jobs.ts'

/*
 * The worker that drains the durable job queue in every app process (docs/decisions/0033-job-queue.md):
 * one polling loop over two stores, pg-boss on PostgreSQL and the `jobs` table on SQLite. Jobs are
 * only ever picked up by polling, never at the moment they are written: when a job runs has nothing
 * to do with the request that wrote it, so its work (a lookup, a token, SMTP) cannot slow that
 * request's neighbours in a way that tells anything about it (issue 36).
 */

export interface WorkerSettings extends JobSettings {
	/** How often each process looks for due jobs. */
	pollSeconds: number
}

/** Runs one attempt; a rejection is a failed attempt (retried with backoff, then given up). */
export type RunJob = (job: JobAttempt) => Promise<void>

export interface JobWorker {
	/** Stops taking jobs, lets the attempt under way finish for up to `timeoutMs`, then hands the rest back. */
	stop(timeoutMs: number): Promise<void>
	/** Resolves once no job is waiting, running or due for a retry (tests); rejects after `timeoutMs`. */
	idle(timeoutMs?: number): Promise<void>
}

/** A claimed attempt and what the store does with it afterwards. */
interface Claimed extends JobAttempt {
	/** Whether this is the last attempt (its failure gives the job up). */
	last: boolean
	done(): Promise<void>
	failed(error: string): Promise<void>
	/** Not attempted after all (a stop came first): back to the queue as it was. */
	release(): Promise<void>
}

interface Store {
	/** Starts (and installs) the store; may throw, and is tried again. */
	open(): Promise<void>
	/** Due jobs, each marked as running. Errors are the loop's (logged, next poll). */
	claim(): Promise<Claimed[]>
	close(): Promise<void>
}

/** Jobs taken per poll and run one after another. */
const BATCH = 10

export function startJobWorker(db: Database, settings: WorkerSettings, run: RunJob): JobWorker {
	const store = db.dialect === 'pg' ? pgBossStore(db, settings) : sqliteStore(db, settings)
	const stopping = new AbortController()
	let current: Promise<void> = Promise.resolve()
	let claimed: Claimed[] = []

	// The store opens in the background: an app whose database is out of reach at start still starts
	// (and answers 503); the worker keeps trying, waiting up to 30 s between tries.
	const loop = (async () => {
		for (let wait = 500; !stopping.signal.aborted; wait = Math.min(wait * 2, 30_000)) {
			try {
				await store.open()
				break
			} catch (error) {
				log.error('job/queue-start-failed', { error: describeError(error), retryInMs: wait })
				await sleep(wait, stopping.signal)
			}
		}
		while (!stopping.signal.aborted) {
			const run = poll()
			current = run.then(() => {})
			// A full batch means more are probably due (an announcement's hundreds of mails): the next
			// poll starts at once rather than a poll interval later.
			if ((await run) < BATCH) await sleep(settings.pollSeconds * 1000, stopping.signal)
		}
	})()

	/** Runs what one claim took; answers how many jobs it took. */
	async function poll() {
		try {
			claimed = await store.claim()
			const taken = claimed.length
			while (claimed.length > 0) {
				const job = claimed.shift()!
				if (stopping.signal.aborted) {
					await job.release()
					continue
				}
				const error = await attempt(run, job)
				if (error === null) await job.done()
				else await job.failed(error)
			}
			return taken
		} catch (error) {
			// The database out of reach, say: what was claimed and not finished times out and is retried.
			log.error('job/queue-error', { error: describeError(error) })
			return 0
		}
	}

	return {
		async stop(timeoutMs: number) {
			stopping.abort()
			const cut = new Promise<'cut'>((r) => setTimeout(() => r('cut'), timeoutMs).unref())
			if ((await Promise.race([current.then(() => 'done' as const), cut])) === 'cut')
				log.warn('job/stop-cut', { unfinished: claimed.length + 1 })
			for (const job of claimed.splice(0)) await job.release().catch(() => {})
			await loop
			await store.close()
		},
		async idle(timeoutMs = 30_000) {
			const deadline = Date.now() + timeoutMs
			for (;;) {
				const left = await unfinishedJobs(db)
				if (left === 0) return
				if (Date.now() > deadline) throw new Error(`${left} jobs still unfinished after ${timeoutMs} ms`)
				await new Promise((r) => setTimeout(r, 50))
			}
		},
	}
}

/** One attempt with its log lines; the error's description when it failed, else null. */
async function attempt(run: RunJob, job: Claimed) {
	log.info('job/started', { job: job.name, id: job.id, attempt: job.attempt })
	try {
		await run(job)
		return null
	} catch (error) {
		const fields = { job: job.name, id: job.id, attempt: job.attempt, error: describeError(error) }
		if (job.last) log.error('job/given-up', fields)
		else log.warn('job/failed', fields)
		return describeError(error)
	}
}

function sleep(ms: number, signal: AbortSignal) {
	return new Promise<void>((resolve) => {
		if (signal.aborted) return resolve()
		const timer = setTimeout(resolve, ms)
		signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
	})
}

/** A job's data in pg-boss's queue: its kind and payload. */
type QueuedJob = { name: string; payload: Record<string, unknown> }

/**
 * PostgreSQL: pg-boss, used for its store (fetch with SKIP LOCKED, complete, fail with retries and
 * backoff) and its maintenance, which fails and retries an attempt that outlived the job timeout (a
 * killed process); the loop above is ours, so every query is awaited and its failure handled.
 */
function pgBossStore(db: Database, settings: WorkerSettings): Store {
	const onError = (error: Error) => log.error('job/queue-error', { error: describeError(error) })
	const pool = openPgBossPool(db.url, onError)
	let boss: PgBoss | null = null
	return {
		async open() {
			const candidate = pgBossFor(pool, {
				// Maintenance runs in one process at a time, every half timeout (at most a minute): a job
				// held by a killed process runs again within about 1.5 timeouts plus a poll.
				supervise: true,
				maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.ceil(settings.timeoutSeconds / 2))),
				schedule: false,
				migrate: true,
			})
			candidate.on('error', onError)
			try {
				await candidate.start()
				// The settings of this process's environment (every process should share them).
				await candidate.createQueue(PG_QUEUE, pgQueueOptions(settings))
				await candidate.updateQueue(PG_QUEUE, pgQueueOptions(settings))
			} catch (error) {
				await candidate.stop({ graceful: false, close: false }).catch(() => {})
				throw error
			}
			boss = candidate
		},
		async claim() {
			const b = boss!
			const jobs = await b.fetch<QueuedJob>(PG_QUEUE, { batchSize: BATCH, includeMetadata: true })
			return (jobs ?? []).map((job) => ({
				id: job.id,
				name: job.data.name,
				payload: job.data.payload,
				attempt: job.retryCount + 1,
				last: job.retryCount >= job.retryLimit,
				done: async () => void (await b.complete(PG_QUEUE, job.id)),
				failed: async (error) => void (await b.fail(PG_QUEUE, job.id, { message: error })),
				// pg-boss has no "unfetch": failed, so it is retried (and, were it the last attempt, given one more).
				release: async () => {
					await b.fail(PG_QUEUE, job.id, { message: 'released by a stopping worker' })
					await b.retry(PG_QUEUE, job.id)
				},
			}))
		},
		async close() {
			await boss?.stop({ graceful: false, close: false })
			await pool.end()
		},
	}
}

/** The delay before attempt `attempts + 1`: the base doubled per earlier attempt, plus up to as much again at random (as pg-boss). */
export function backoffMs(attempts: number, retryDelaySeconds: number, random = Math.random()) {
	return retryDelaySeconds * 1000 * 2 ** Math.min(16, attempts - 1) * (1 + random)
}

/**
 * SQLite: one process polls the `jobs` table. Each poll claims the due jobs in one statement; a
 * failed attempt is rescheduled with backoff, the last one given up (the row kept with failed_at and
 * last_error). An attempt whose process died stays locked until the timeout, then is claimed again.
 */
function sqliteStore(db: Database, settings: WorkerSettings): Store {
	return {
		async open() {},
		async claim() {
			return claimDueJobs(db, new Date(), settings.timeoutSeconds, BATCH).map((job) => ({
				id: job.id,
				name: job.name,
				payload: job.payload,
				attempt: job.attempts,
				last: job.attempts > settings.retryLimit,
				done: async () => finishJob(db, job),
				failed: async (error) =>
					failJob(
						db,
						job,
						error,
						job.attempts > settings.retryLimit
							? null
							: new Date(Date.now() + backoffMs(job.attempts, settings.retryDelaySeconds)),
					),
				release: async () => releaseJob(db, job),
			}))
		},
		async close() {},
	}
}
