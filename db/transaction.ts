import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import type { Database } from './client.ts'

/** A query of the transaction's handle: awaited on PostgreSQL, run with `.all()` on SQLite. */
type Step<T> = PromiseLike<T> & { all?: () => T }

/** One query inside `inTransaction`, typed: `const rows = yield* step(tx.select()…)`. */
export function* step<T>(query: PromiseLike<T>): Generator<Step<T>, T, T> {
	return yield query as Step<T>
}

export type Work<T> = (tx: Database['orm']) => Generator<Step<unknown>, T, unknown>

/**
 * Runs `work` as one transaction on either dialect: everything it writes is
 * stored together or not at all (docs/decisions/0017-faults.md).
 *
 * `work` is a generator that yields each query (through `step`). On
 * PostgreSQL each is awaited inside a transaction of its own connection. On
 * SQLite the whole generator runs synchronously inside better-sqlite3's
 * transaction (BEGIN IMMEDIATE), because the process shares one connection:
 * an async body would let other requests' statements run inside it. So
 * `work` must not await anything else; it can branch and loop freely.
 */
export async function inTransaction<T>(db: Database, work: Work<T>): Promise<T> {
	if (db.dialect === 'pg') {
		return db.orm.transaction(async (tx) => {
			const it = work(tx as unknown as Database['orm'])
			let next = it.next()
			while (!next.done) next = it.next(await next.value)
			return next.value
		})
	}
	const sqlite = db.orm as unknown as BetterSQLite3Database
	return sqlite.transaction(
		(tx) => {
			const it = work(tx as unknown as Database['orm'])
			let next = it.next()
			while (!next.done) {
				const query = next.value
				if (typeof query.all !== 'function') throw new Error('inTransaction: every step must be a query of the transaction')
				next = it.next(query.all())
			}
			return next.value
		},
		{ behavior: 'immediate' },
	)
}
