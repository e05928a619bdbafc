import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import type { Database } from './client.ts'

/** A query: awaited on PostgreSQL, run with `.all()` (synchronously) on SQLite. */
type Query<T> = PromiseLike<T> & { all?: () => T }

/** The database as the steps of a write see it: inside `inTransaction`, `orm` is the transaction. */
export type Tx = Pick<Database, 'dialect' | 't' | 'orm'>

/**
 * The steps of a write, written once (docs/decisions/0017-faults.md): a
 * generator that yields each query through `step` and returns the result.
 * Writes end in `.returning()` so that every step yields rows.
 */
export type Steps<T> = Generator<Query<unknown>, T, unknown>

/** One query of a write: `const rows = yield* step(db.orm.select()…)`. */
export function* step<T>(query: PromiseLike<T>): Generator<Query<T>, T, T> {
	return yield query as Query<T>
}

/** Thrown by steps (`rollback`) to undo everything they wrote and have `inTransaction` return `value`. */
class Rollback {
	constructor(readonly value: unknown) {}
}

/**
 * Ends the transaction without storing anything, making `inTransaction` return `value`: for steps
 * that find, after a write that decided a race (a token used, an invitation accepted), that what
 * it was for cannot be done (the account may not sign in).
 */
export function rollback<T>(value: T): never {
	throw new Rollback(value)
}

/**
 * Runs the steps as one transaction on either dialect: everything they write
 * is stored together or not at all. On PostgreSQL each query is awaited in a
 * transaction of its own connection. On SQLite the whole generator runs
 * synchronously inside better-sqlite3's transaction (BEGIN IMMEDIATE): the
 * process shares one connection, and an asynchronous body would let other
 * requests' statements run inside the transaction. So steps never await
 * anything but their queries; they may branch and loop freely.
 */
export async function inTransaction<T>(db: Database, steps: (tx: Tx) => Steps<T>): Promise<T> {
	try {
		if (db.dialect === 'pg')
			return await db.orm.transaction((orm) => drive(steps({ ...db, orm: orm as unknown as Database['orm'] })))
		const sqlite = db.orm as unknown as BetterSQLite3Database
		return sqlite.transaction((orm) => driveSync(steps({ ...db, orm: orm as unknown as Database['orm'] })), {
			behavior: 'immediate',
		})
	} catch (error) {
		if (error instanceof Rollback) return error.value as T
		throw error
	}
}

/** Runs the steps one query after another, outside a transaction (a write of one statement, or one that needs none). */
export async function runSteps<T>(db: Tx, steps: (db: Tx) => Steps<T>): Promise<T> {
	return db.dialect === 'pg' ? drive(steps(db)) : driveSync(steps(db))
}

async function drive<T>(it: Steps<T>): Promise<T> {
	let next = it.next()
	while (!next.done) next = it.next(await next.value)
	return next.value
}

function driveSync<T>(it: Steps<T>): T {
	let next = it.next()
	while (!next.done) {
		const query = next.value
		if (typeof query.all !== 'function') throw new Error('a step must be a query of its handle')
		next = it.next(query.all())
	}
	return next.value
}
