import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Sqlite from 'better-sqlite3'
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3'
import { drizzle as drizzlePg, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { livePool } from './liveness.ts'
import { sqliteTablesAsPg } from './schema/parity.ts'
import * as pgSchema from './schema/pg.ts'
import * as sqliteSchema from './schema/sqlite.ts'

export type Dialect = 'pg' | 'sqlite'
type Tables = typeof pgSchema

/**
 * One handle for both dialects. The query builders of drizzle's PostgreSQL and
 * SQLite drivers share the methods the repository layer uses (select, insert
 * … returning, onConflictDo*, update, delete), and both schemas produce the
 * same JavaScript values (Date, boolean, parsed JSON), so the repository is
 * written once against the PostgreSQL types and runs on either. That the row
 * types are the same, table by table, is checked by tsc (db/schema/parity.ts).
 */
export interface Database {
	dialect: Dialect
	url: string
	orm: PostgresJsDatabase<Tables>
	t: Tables
	/** Round trip to the server; throws when the database does not answer. */
	ping(): Promise<void>
	/** PostgreSQL only: LISTEN/NOTIFY between the processes sharing the database. */
	pubsub?: {
		listen(channel: string, onMessage: (payload: string) => void): Promise<{ unlisten(): Promise<void> }>
		notify(channel: string, payload: string): Promise<void>
	}
	close(): Promise<void>
}

// postgres.js connection errors (ANSWER_TIMEOUT: the patched client-side deadline), PostgreSQL's connection-exception class (08), refusals to
// connect (57P01-57P03 shutdown, cannot connect now; 53300 too many connections; 3D000 no such
// database; 28xxx authentication), the bounded waits giving up (55P03 lock_timeout, 57014
// statement_timeout: docs/decisions/0017-faults.md), SQLite's can't-open, I/O and busy errors.
const UNAVAILABLE_CODES =
	/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|CONNECT_TIMEOUT|ANSWER_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|08\w{3}|57P0[123]|53300|3D000|28\w{3}|55P03|57014|SQLITE_CANTOPEN|SQLITE_IOERR\w*|SQLITE_BUSY)$/
// 55000 is a broad class; as a connection refusal it is a database that does not allow connections.
const REFUSED_CONNECTION = /not currently accepting connections/

/** Whether an error (or one it wraps, as drizzle's query errors do) says the database is out of reach, not that a query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
	for (
		let e = error, depth = 0;
		e && typeof e === 'object' && depth < 5;
		e = (e as { cause?: unknown }).cause, depth++
	) {
		const code = (e as { code?: unknown }).code
		if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) return true
		if (code === '55000' && REFUSED_CONNECTION.test(String((e as { message?: unknown }).message))) return true
	}
	return false
}

/** Whether an error (or one it wraps) is a unique key refusing a duplicate: PostgreSQL 23505, SQLite's UNIQUE constraint. */
export function isUniqueViolation(error: unknown): boolean {
	for (
		let e = error, depth = 0;
		e && typeof e === 'object' && depth < 5;
		e = (e as { cause?: unknown }).cause, depth++
	) {
		const code = (e as { code?: unknown }).code
		if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return true
	}
	return false
}

/**
 * A query built and prepared once per database handle, then only executed:
 * for the reads every signed-in request makes (session user, enrollment,
 * progress), where building the SQL and preparing the statement again each
 * time costs more than running it.
 */
export function preparedFor<Q>(build: (db: Database) => Q): (db: Database) => Q {
	const byDb = new WeakMap<Database, Q>()
	return (db) => {
		let query = byDb.get(db)
		if (query === undefined) byDb.set(db, (query = build(db)))
		return query
	}
}

function isPostgresUrl(url: string) {
	return /^postgres(ql)?:\/\//.test(url)
}

/** `file:./data/app.sqlite`, `sqlite:./x.sqlite`, a plain path or `:memory:`. */
function sqlitePath(url: string) {
	return url.replace(/^(file|sqlite):(\/\/)?/, '')
}

/**
 * How long a query already sent may wait for the server's answer before its connection is destroyed
 * and it fails as unavailable (docs/decisions/0035-stalls-and-limits.md): a backstop for one
 * connection gone dead while the server lives, longer than the server's own statement timeout, so
 * it never cuts a slow query that is still progressing (issue 46). A frozen or dead server is told
 * apart by db/liveness.ts within a second. DATABASE_ANSWER_TIMEOUT_MS changes it (read once).
 */
const POSTGRES_ANSWER_TIMEOUT_MS = Number(process.env.DATABASE_ANSWER_TIMEOUT_MS) || 15_000

const POSTGRES_TIMEOUTS = {
	connect_timeout: 2,
	// A query sent waits at most this long for the server's answer (ANSWER_TIMEOUT, patched into
	// postgres.js): a connection that stops answering otherwise holds it for ever.
	answer_timeout: POSTGRES_ANSWER_TIMEOUT_MS / 1000,
	backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
	connection: { statement_timeout: 10_000, lock_timeout: 3_000 },
}

/** How long a query or transaction may wait for a connection of the pool before it is given up (and answered 503). */
export const POSTGRES_ACQUIRE_TIMEOUT_MS = 2_000

/** The error of a query given up waiting for a connection: code 57014 (query_canceled), as PostgreSQL's own timeouts. */
function acquireTimeout() {
	return Object.assign(new Error('no database connection within the acquire timeout'), { code: '57014' })
}

/**
 * postgres.js has no limit on how long a query waits in the pool for a
 * connection: when its connections are stuck reconnecting, queries wait
 * without end. This bounds that wait (POSTGRES_ACQUIRE_TIMEOUT_MS): a query
 * not yet sent to a connection by then is cancelled (taken out of the queue,
 * so it never runs), and a transaction whose body has not started yet is
 * given up and its body refused if a connection comes later. What has been
 * sent is left to the server's statement and lock timeouts.
 */
function boundAcquire(client: postgres.Sql, ms: number): postgres.Sql {
	const watch = (query: postgres.PendingQuery<postgres.Row[]>) => {
		setTimeout(() => {
			if (!(query as unknown as { state: unknown }).state) void query.cancel()
		}, ms).unref()
		return query
	}
	return new Proxy(client, {
		get(target, property, receiver) {
			if (property === 'unsafe') return (...args: Parameters<postgres.Sql['unsafe']>) => watch(target.unsafe(...args))
			if (property === 'begin') {
				return (...args: unknown[]) => {
					const body = args.pop() as (sql: postgres.TransactionSql) => unknown
					let started = false
					let abandoned = false
					const transaction = (target.begin as (...a: unknown[]) => Promise<unknown>)(
						...args,
						(sql: postgres.TransactionSql) => {
							if (abandoned) throw acquireTimeout()
							started = true
							return body(sql)
						},
					)
					return new Promise((resolve, reject) => {
						const timer = setTimeout(() => {
							if (started) return
							abandoned = true
							// Its rejection, when a connection comes after all, has nobody waiting for it.
							transaction.catch(() => {})
							reject(acquireTimeout())
						}, ms).unref()
						transaction.then(resolve, reject).finally(() => clearTimeout(timer))
					})
				}
			}
			return Reflect.get(target, property, receiver)
		},
	})
}

export interface OpenOptions {
	/** PostgreSQL pool size (10). */
	max?: number
	/** Called with every SQL statement the query builder sends and its parameters (the benchmark counts and explains them); off by default. */
	onQuery?: (sql: string, params: unknown[]) => void
	/** PostgreSQL: how long a query may wait for a connection (POSTGRES_ACQUIRE_TIMEOUT_MS). */
	acquireTimeoutMs?: number
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
	const logger = options.onQuery ? { logQuery: options.onQuery } : undefined
	if (isPostgresUrl(url)) {
		const make = (max = options.max ?? 10) => postgres(url, { max, onnotice: () => {}, ...POSTGRES_TIMEOUTS })
		const pool = livePool(make)
		const orm = drizzlePg(boundAcquire(pool.sql, options.acquireTimeoutMs ?? POSTGRES_ACQUIRE_TIMEOUT_MS), {
			schema: pgSchema,
			logger,
		})
		// LISTEN on a client of its own: the pool is replaced after an outage, and postgres.js re-listens
		// after its own reconnects.
		let listener: postgres.Sql | undefined
		return {
			dialect: 'pg',
			url,
			orm,
			t: pgSchema,
			ping: pool.ping,
			pubsub: {
				listen: (channel, onMessage) => (listener ??= make(1)).listen(channel, onMessage),
				notify: async (channel, payload) => {
					await pool.sql.notify(channel, payload)
				},
			},
			close: async () => {
				await Promise.all([pool.close(), listener?.end({ timeout: 5 })])
			},
		}
	}
	const path = sqlitePath(url)
	if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true })
	const client = new Sqlite(path)
	client.pragma('journal_mode = WAL')
	client.pragma('synchronous = NORMAL')
	client.pragma('busy_timeout = 5000')
	client.pragma('foreign_keys = ON')
	const orm = drizzleSqlite(client, { schema: sqliteSchema, logger })
	return {
		dialect: 'sqlite',
		url,
		// The query builders' own types differ (a synchronous driver, other dialect classes), and are not
		// compared; the rows they return are typed from the tables, which db/schema/parity.ts compares.
		orm: orm as unknown as PostgresJsDatabase<Tables>,
		t: sqliteTablesAsPg(sqliteSchema),
		ping: async () => {
			client.prepare('select 1').get()
		},
		close: async () => {
			client.close()
		},
	}
}
