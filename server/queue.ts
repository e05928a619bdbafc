import type PgBoss from 'pg-boss'
import { describeError, log } from '#app/utils/log.server.ts'
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
	type SqliteJob,
} from '#db/jobs.ts'

/*
 * The worker that drains the durable job queue in every app process (docs/decisions/0033-job-queue.md):
 * pg-boss on PostgreSQL, a small poller of the `jobs` table on SQLite, behind one interface. Jobs are
 * only ever picked up by polling, never at the moment they are written: when a job runs has nothing
 * to do with the request that wrote it, so its work (a lookup, a token, SMTP) cannot slow that
 * request's neighbours in a way that tells anything about it (issue 36).
 */

export interface WorkerSettings extends JobSettings {
	/** How often each process looks for due jobs. */
	pollSeconds: number
}

/** One attempt of a job, as its handler sees it. */
export interface JobAttempt {
	id: string
	name: string
	payload: Record<string, unknown>
	/** 1 for the first attempt. */
	attempt: number
}

/** Runs one attempt; a rejection is a failed attempt (retried with backoff, then given up). */
export type RunJob = (job: JobAttempt) => Promise<void>

export interface JobWorker {
	/** Stops taking jobs, lets attempts under way finish for up to `timeoutMs`, then hands the rest back. */
	stop(timeoutMs: number): Promise<void>
	/** Resolves once no job is waiting, running or due for a retry (tests); rejects after `timeoutMs`. */
	idle(timeoutMs?: number): Promise<void>
}

/** Jobs taken per poll and run one after another. */
const BATCH = 10

export function startJobWorker(db: Database, settings: WorkerSettings, run: RunJob): JobWorker {
	const worker = db.dialect === 'pg' ? startPgBoss(db, settings, run) : startPoller(db, settings, run)
	return {
		...worker,
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

/** One attempt with its log lines: a failure is logged as retried or, on the last attempt, given up. */
async function attempt(run: RunJob, job: JobAttempt, last: boolean) {
	log.info('job/started', { job: job.name, id: job.id, attempt: job.attempt })
	try {
		await run(job)
		return null
	} catch (error) {
		const fields = { job: job.name, id: job.id, attempt: job.attempt, error: describeError(error) }
		if (last) log.error('job/given-up', fields)
		else log.warn('job/failed', fields)
		return error instanceof Error ? error : new Error(String(error))
	}
}

/**
 * PostgreSQL: pg-boss, started in the background (an app whose database is out of reach at start
 * still starts and answers 503; the worker keeps trying, waiting up to 30 s between tries).
 */
function startPgBoss(db: Database, settings: WorkerSettings, run: RunJob) {
	const onError = (error: Error) => log.error('job/queue-error', { error: describeError(error) })
	const pool = openPgBossPool(db.url, onError)
	const stopping = new AbortController()
	let boss: PgBoss | null = null
	const started = (async () => {
		for (let wait = 500; !stopping.signal.aborted; wait = Math.min(wait * 2, 30_000)) {
			const candidate = pgBossFor(pool, {
				// Expired attempts (a killed process) are failed and retried by pg-boss's maintenance, which
				// runs in one process at a time: often enough that a held job waits at most about 1.5 timeouts.
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
				if (stopping.signal.aborted) return await candidate.stop({ graceful: false, close: false })
				await candidate.work<QueuedJob>(
					PG_QUEUE,
					{ batchSize: BATCH, pollingIntervalSeconds: settings.pollSeconds, includeMetadata: true },
					async (batch: PgBoss.JobWithMetadata<QueuedJob>[]) => {
						for (const job of batch) {
							const failed = await attempt(
								run,
								{ id: job.id, name: job.data.name, payload: job.data.payload, attempt: job.retryCount + 1 },
								job.retryCount >= job.retryLimit,
							)
							// Each job of the batch on its own: pg-boss completes the jobs still active after the handler.
							if (failed) await candidate.fail(PG_QUEUE, job.id, { message: describeError(failed) })
						}
					},
				)
				boss = candidate
				return
			} catch (error) {
				log.error('job/queue-start-failed', { error: describeError(error), retryInMs: wait })
				await candidate.stop({ graceful: false, close: false }).catch(() => {})
				await abortableSleep(wait, stopping.signal)
			}
		}
	})()
	return {
		async stop(timeoutMs: number) {
			stopping.abort()
			await started
			// Attempts still running after the timeout are failed, so another process retries them.
			await boss?.stop({ graceful: true, wait: true, close: false, timeout: Math.max(1_000, timeoutMs) })
			await pool.end()
		},
	}
}

/** A job's data in pg-boss's queue: its kind and payload. */
type QueuedJob = { name: string; payload: Record<string, unknown> }

function abortableSleep(ms: number, signal: AbortSignal) {
	return new Promise<void>((resolve) => {
		const timer = setTimeout(resolve, ms)
		signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
	})
}

/** The delay before attempt `attempts + 1`: the base doubled per earlier attempt, plus up to as much again at random (as pg-boss). */
export function backoffMs(attempts: number, retryDelaySeconds: number, random = Math.random()) {
	return retryDelaySeconds * 1000 * 2 ** Math.min(16, attempts - 1) * (1 + random)
}

/**
 * SQLite: one process polls the `jobs` table. Each poll claims the due jobs in one statement and runs
 * them one after another; a failed attempt is rescheduled with backoff, the last one given up (the
 * row kept with failed_at and last_error). An attempt whose process died stays locked until the
 * timeout, then is claimed again.
 */
function startPoller(db: Database, settings: WorkerSettings, run: RunJob) {
	let stopping = false
	let current: SqliteJob | null = null
	let timer: NodeJS.Timeout | null = null
	let loop: Promise<void> = Promise.resolve()
	const poll = async () => {
		try {
			for (const job of claimDueJobs(db, new Date(), settings.timeoutSeconds, BATCH)) {
				if (stopping) {
					releaseJob(db, job)
					continue
				}
				current = job
				const last = job.attempts > settings.retryLimit
				const failed = await attempt(
					run,
					{ id: job.id, name: job.name, payload: job.payload, attempt: job.attempts },
					last,
				)
				current = null
				if (!failed) finishJob(db, job)
				else
					failJob(
						db,
						job,
						describeError(failed),
						last ? null : new Date(Date.now() + backoffMs(job.attempts, settings.retryDelaySeconds)),
					)
			}
		} catch (error) {
			// The database out of reach, say: the next poll tries again.
			log.error('job/queue-error', { error: describeError(error) })
		}
	}
	const schedule = () => {
		if (stopping) return
		timer = setTimeout(() => {
			loop = poll().finally(schedule)
		}, settings.pollSeconds * 1000)
	}
	schedule()
	return {
		async stop(timeoutMs: number) {
			stopping = true
			if (timer) clearTimeout(timer)
			const cut = new Promise<'cut'>((r) => setTimeout(() => r('cut'), timeoutMs).unref())
			if ((await Promise.race([loop.then(() => 'done' as const), cut])) === 'cut' && current) {
				// Still running at the deadline: handed back as not attempted, for the next start.
				releaseJob(db, current)
			}
		},
	}
}
