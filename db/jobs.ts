import { and, asc, count, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import pg from 'pg'
import PgBoss from 'pg-boss'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { jobs } from './schema/sqlite-jobs.ts'
import { step, type Tx } from './transaction.ts'

/*
 * The durable job queue's storage (docs/decisions/0033-job-queue.md). PostgreSQL: pg-boss 10
 * (pinned) in schema `pgboss`, one queue for every kind of job (the kind travels in the job's
 * data), so each process polls one queue however many kinds there are. SQLite: the `jobs` table
 * (db/schema/sqlite-jobs.ts), drained by the poller of server/queue.ts. A job is written with
 * `enqueueJobSteps` inside the transaction of the change it follows (a transactional outbox): both
 * are stored, or neither.
 */

/** pg-boss's queue for every job of the app. */
export const PG_QUEUE = 'lms'
const PG_SCHEMA = 'pgboss'

/** How jobs are retried and timed out; the same on both databases (env: JOB_*). */
export interface JobSettings {
	/** Retries after the first attempt; then the job is given up (and logged). */
	retryLimit: number
	/** The first retry's delay; each next one doubles it, with up to as much again at random. */
	retryDelaySeconds: number
	/** An attempt still running after this long is taken as dead (its process killed) and retried. */
	timeoutSeconds: number
}

const DEFAULT_JOB_SETTINGS: JobSettings = { retryLimit: 10, retryDelaySeconds: 15, timeoutSeconds: 60 }

type Payload = Record<string, unknown>

/**
 * Writes jobs of one kind as a step of the caller's transaction, one per payload, due now or at
 * `runAt`, in one statement (a list's chunk writes hundreds). On PostgreSQL the rows take their
 * retry and timeout settings from pg-boss's queue row (as pg-boss's own `send` does), and a missing
 * queue fails the transaction instead of dropping the jobs.
 */
export function* enqueueJobsSteps(tx: Tx, name: string, payloads: Payload[], runAt?: Date) {
	if (payloads.length === 0) return []
	if (tx.dialect === 'pg') {
		const data = JSON.stringify(payloads.map((payload) => ({ name, payload })))
		const startAfter = runAt ? sql`${runAt.toISOString()}::timestamptz` : sql`now()`
		const rows = yield* step(
			tx.orm.execute<{ id: string }>(sql`
				insert into ${sql.identifier(PG_SCHEMA)}.job
					(name, data, retry_limit, retry_delay, retry_backoff, expire_in, policy, start_after)
				select q.name, d.data, q.retry_limit, q.retry_delay, q.retry_backoff,
					q.expire_seconds * interval '1 second', q.policy, ${startAfter}
				from ${sql.identifier(PG_SCHEMA)}.queue q
					cross join jsonb_array_elements(${data}::jsonb) as d(data)
				where q.name = ${PG_QUEUE}
				returning id`),
		)
		const ids = (rows as unknown as Array<{ id: string }>).map((r) => r.id)
		if (ids.length === 0) throw new Error(`job queue ${PG_QUEUE} is not installed (run the migrations)`)
		return ids
	}
	const sqlite = tx.orm as unknown as BetterSQLite3Database
	const rows = yield* step(
		sqlite
			.insert(jobs)
			.values(payloads.map((payload) => ({ id: newId(), name, payload, run_at: runAt ?? new Date() })))
			.returning({ id: jobs.id }) as unknown as PromiseLike<Array<{ id: string }>>,
	)
	return rows.map((r) => r.id)
}

/** One job as a step of the caller's transaction: enqueueJobsSteps for one. */
export function* enqueueJobSteps(tx: Tx, name: string, payload: Payload, runAt?: Date) {
	const [id] = yield* enqueueJobsSteps(tx, name, [payload], runAt)
	return id
}

/**
 * A scheduled job (the reminder sweep): one per period `slot` however many processes ask. PostgreSQL:
 * pg-boss's singleton key and slot (its unique index job_i4 on name, singleton_on, singleton_key, the
 * same one its own cron uses), so the first process's insert wins and the others' do nothing. SQLite
 * (one process): written unless a job of that kind is still unfinished. Answers whether it was written.
 */
export async function enqueueScheduledJob(db: Database, name: string, slot: Date) {
	if (db.dialect === 'pg') {
		const data = JSON.stringify({ name, payload: {} })
		const rows = (await db.orm.execute(sql`
			insert into ${sql.identifier(PG_SCHEMA)}.job
				(name, data, retry_limit, retry_delay, retry_backoff, expire_in, policy, singleton_key, singleton_on)
			select q.name, ${data}::jsonb, q.retry_limit, q.retry_delay, q.retry_backoff,
				q.expire_seconds * interval '1 second', q.policy, ${name}, ${slot.toISOString()}::timestamptz at time zone 'utc'
			from ${sql.identifier(PG_SCHEMA)}.queue q where q.name = ${PG_QUEUE}
			on conflict do nothing
			returning id`)) as unknown as Array<{ id: string }>
		return rows.length === 1
	}
	const sqlite = db.orm as unknown as BetterSQLite3Database
	return sqlite.transaction(
		(tx) => {
			const pending = tx
				.select({ n: count() })
				.from(jobs)
				.where(and(eq(jobs.name, name), isNull(jobs.failed_at)))
				.get()!.n
			if (pending > 0) return false
			tx.insert(jobs).values({ id: newId(), name, payload: {}, run_at: new Date() }).run()
			return true
		},
		{ behavior: 'immediate' },
	)
}

/**
 * pg-boss's own connections: a small pool (2) of `pg` with the waits of ours (decision 0017: 2 s
 * to connect, 10 s per statement, 3 s per lock wait), and a client-side deadline of 15 s for an
 * answer (decision 0035): past the server's own bounds, so it only acts when the server stopped
 * answering; the pool then drops the connection (a query's error releases its client destroyed).
 * Errors of idle connections go to `onError` (an unhandled one would end the process).
 */
export function openPgBossPool(url: string, onError: (error: Error) => void, max = 2) {
	const pool = new pg.Pool({
		connectionString: url,
		max,
		application_name: 'lms-jobs',
		connectionTimeoutMillis: 2_000,
		statement_timeout: 10_000,
		lock_timeout: 3_000,
		query_timeout: 15_000,
		idleTimeoutMillis: 30_000,
	})
	pool.on('error', onError)
	return pool
}

/** pg-boss's settings for our queue row: retries with exponential backoff, and the attempt timeout. */
export function pgQueueOptions(settings: JobSettings): PgBoss.Queue {
	return {
		name: PG_QUEUE,
		policy: 'standard',
		retryLimit: settings.retryLimit,
		retryDelay: settings.retryDelaySeconds,
		retryBackoff: true,
		expireInSeconds: settings.timeoutSeconds,
	}
}

export function pgBossFor(pool: pg.Pool, options: Omit<PgBoss.ConstructorOptions, 'db'> = {}) {
	return new PgBoss({
		db: { executeSql: (text, values) => pool.query(text, values) },
		schema: PG_SCHEMA,
		...options,
	})
}

/**
 * Installs (or upgrades) pg-boss's schema and creates our queue: part of the migrations, so a
 * migrated database can take jobs before any worker started. pg-boss takes its own advisory lock.
 */
export async function installPgQueue(url: string) {
	let failure: Error | null = null
	const pool = openPgBossPool(url, (error) => (failure = error), 1)
	const boss = pgBossFor(pool, { supervise: false, schedule: false, migrate: true })
	boss.on('error', (error: Error) => (failure = error))
	try {
		await boss.start()
		await boss.createQueue(PG_QUEUE, pgQueueOptions(DEFAULT_JOB_SETTINGS))
		await boss.stop({ graceful: false, close: false })
	} finally {
		await pool.end()
	}
	if (failure) throw failure
}

/** Jobs not done yet: waiting, to be retried, or running (tests wait for none). */
export async function unfinishedJobs(db: Database): Promise<number> {
	if (db.dialect === 'pg') {
		const rows = (await db.orm.execute(
			sql`select count(*)::int as n from ${sql.identifier(PG_SCHEMA)}.job where name = ${PG_QUEUE} and state < 'completed'`,
		)) as unknown as Array<{ n: number }>
		return rows[0].n
	}
	const sqlite = db.orm as unknown as BetterSQLite3Database
	return sqlite.select({ n: count() }).from(jobs).where(isNull(jobs.failed_at)).get()!.n
}

// SQLite: the poller's statements. Each is one statement, so a job is claimed by one attempt only
// even if a second process shared the file (not a supported setup: the poller is single-process).

export type SqliteJob = typeof jobs.$inferSelect

/** Marks up to `limit` due jobs as running (attempts + 1) and returns them: waiting ones, and running ones older than the timeout (their process died). */
export function claimDueJobs(db: Database, now: Date, timeoutSeconds: number, limit: number): SqliteJob[] {
	const sqlite = db.orm as unknown as BetterSQLite3Database
	const stale = new Date(now.getTime() - timeoutSeconds * 1000)
	const due = sqlite
		.select({ id: jobs.id })
		.from(jobs)
		.where(and(isNull(jobs.failed_at), lte(jobs.run_at, now), or(isNull(jobs.locked_at), lt(jobs.locked_at, stale))))
		.orderBy(asc(jobs.run_at))
		.limit(limit)
	return sqlite
		.update(jobs)
		.set({ locked_at: now, attempts: sql`${jobs.attempts} + 1` })
		.where(sql`${jobs.id} in ${due}`)
		.returning()
		.all()
}

/** A job done: removed. Only by the attempt holding it (a timed-out attempt finishing late changes nothing). */
export function finishJob(db: Database, job: Pick<SqliteJob, 'id' | 'locked_at'>) {
	const sqlite = db.orm as unknown as BetterSQLite3Database
	sqlite
		.delete(jobs)
		.where(and(eq(jobs.id, job.id), eq(jobs.locked_at, job.locked_at!)))
		.run()
}

/** A failed attempt: run again at `runAt`, or, with `runAt` null, given up (kept, with failed_at). */
export function failJob(db: Database, job: Pick<SqliteJob, 'id' | 'locked_at'>, error: string, runAt: Date | null) {
	const sqlite = db.orm as unknown as BetterSQLite3Database
	sqlite
		.update(jobs)
		.set(
			runAt
				? { locked_at: null, last_error: error, run_at: runAt }
				: { locked_at: null, last_error: error, failed_at: new Date() },
		)
		.where(and(eq(jobs.id, job.id), eq(jobs.locked_at, job.locked_at!)))
		.run()
}

/** Attempts cut by a clean stop go back to the queue at once (their attempt is not counted again). */
export function releaseJob(db: Database, job: Pick<SqliteJob, 'id' | 'locked_at'>) {
	const sqlite = db.orm as unknown as BetterSQLite3Database
	sqlite
		.update(jobs)
		.set({ locked_at: null, attempts: sql`${jobs.attempts} - 1` })
		.where(and(eq(jobs.id, job.id), eq(jobs.locked_at, job.locked_at!), isNotNull(jobs.locked_at)))
		.run()
}

/**
 * Removes queued and finished jobs whose payload matches any of the `LIKE` patterns (lower case,
 * `\` escapes), on the erasure of the person they name (decision 0044).
 */
export function* forgetJobsSteps(tx: Tx, patterns: string[]) {
	if (!patterns.length) return
	if (tx.dialect === 'pg') {
		const matches = (column: ReturnType<typeof sql>) =>
			sql.join(
				patterns.map((p) => sql`lower(${column}) like ${p} escape '\\'`),
				sql` or `,
			)
		// pg-boss moves finished jobs to `archive`: both tables hold payloads.
		for (const table of ['job', 'archive'])
			yield* step(
				tx.orm.execute(
					sql`delete from ${sql.identifier(PG_SCHEMA)}.${sql.identifier(table)} where ${matches(sql`data::text`)} returning id`,
				),
			)
		return
	}
	const sqlite = tx.orm as unknown as BetterSQLite3Database
	yield* step(
		sqlite
			.delete(jobs)
			.where(or(...patterns.map((p) => sql`lower(${jobs.payload}) like ${p} escape '\\'`)))
			.returning({ id: jobs.id }) as unknown as PromiseLike<Array<{ id: string }>>,
	)
}
