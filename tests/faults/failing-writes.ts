import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { execRaw } from '#tests/support/databases.ts'

/**
 * A write to make fail: a table and an event; for `jobs`, the job's name too (the queue is one table
 * for every kind, so the write of one kind is refused, not every job). `jobs` is SQLite's table and
 * pg-boss's `pgboss.job` on PostgreSQL (the name in its `data`).
 */
export type Write = [table: string, event: 'INSERT' | 'UPDATE' | 'DELETE', jobName?: string]

/** How a failing write reads in a report: `INSERT on jobs (mail.enrolled)`. */
export const describeWrite = ([table, event, jobName]: Write) => `${event} on ${table}${jobName ? ` (${jobName})` : ''}`

/**
 * Makes every `event` on `table` fail until the returned function drops the trigger (SQLite:
 * `RAISE(ABORT)`; PostgreSQL: a plpgsql `RAISE EXCEPTION`), each answered as "injected failure";
 * with `where`, only a row whose column has that value (an INSERT or UPDATE's new row).
 */
export async function failWrites(
	db: Database,
	[table, event, jobName]: Write,
	where?: [column: string, value: string],
) {
	const name = `injected_${table}_${event.toLowerCase()}${jobName ? `_${jobName.replace(/\W+/g, '_')}` : ''}`
	if (jobName && !/^[\w.]+$/.test(jobName)) throw new Error(`not a job name: ${jobName}`)
	if (where && !/^\w+$/.test(where[0] + where[1].replace(/[@.-]/g, ''))) throw new Error(`not a plain value: ${where}`)
	const condition = jobName
		? db.dialect === 'pg'
			? `NEW.data->>'name' = '${jobName}'`
			: `NEW.name = '${jobName}'`
		: where
			? `NEW.${where[0]} = '${where[1]}'`
			: null
	if (db.dialect === 'pg') {
		const target = table === 'jobs' ? 'pgboss.job' : table
		const when = condition ? `WHEN (${condition})` : ''
		await execRaw(
			db,
			`CREATE OR REPLACE FUNCTION injected_failure() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`,
		)
		await execRaw(
			db,
			`CREATE TRIGGER ${name} BEFORE ${event} ON ${target} FOR EACH ROW ${when} EXECUTE FUNCTION injected_failure()`,
		)
		return () => execRaw(db, `DROP TRIGGER ${name} ON ${target}`)
	}
	const when = condition ? `WHEN ${condition}` : ''
	await execRaw(
		db,
		`CREATE TRIGGER ${name} BEFORE ${event} ON ${table} ${when} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
	)
	return () => execRaw(db, `DROP TRIGGER ${name}`)
}

/** The queue's jobs as `name id`: pg-boss's table on PostgreSQL, SQLite's own. */
async function jobRows(db: Database) {
	if (db.dialect === 'pg') {
		const rows = await db.orm.execute<{ id: string; name: string }>(
			sql.raw(`select id::text as id, data->>'name' as name from pgboss.job`),
		)
		return (rows as unknown as Array<{ id: string; name: string }>).map((r) => `${r.name} ${r.id}`)
	}
	const sqlite = db.orm as unknown as { all(q: unknown): Array<{ id: string; name: string }> }
	return sqlite.all(sql.raw('select id, name from jobs')).map((r) => `${r.name} ${r.id}`)
}

/**
 * The rows of every table of `tables`, in a stable order, as text (dates as instants); `jobs` as the
 * queue's jobs by name and id (their state changes as the worker runs them).
 */
export async function snapshot(db: Database, tables: readonly string[]) {
	const out: Record<string, string[]> = {}
	for (const table of tables) {
		if (table === 'jobs') {
			out[table] = (await jobRows(db)).sort()
			continue
		}
		const rows = (await db.orm.select().from(db.t[table as keyof Database['t']])) as Record<string, unknown>[]
		out[table] = rows
			.map((row) => {
				const copy: Record<string, unknown> = {}
				// Bytes (a file's chunks) by their digest: as JSON they are arrays of numbers, megabytes of
				// them read and compared on every snapshot once a hand-in is stored.
				for (const [column, value] of Object.entries(row))
					copy[column] =
						value instanceof Uint8Array ? `sha256:${createHash('sha256').update(value).digest('hex')}` : value
				// A session's idle expiry is pushed out after an answer (a read, not the action's write).
				if (table === 'sessions') delete copy.idle_expires_at
				return JSON.stringify(copy, (_k, v) => (v instanceof Date ? v.toISOString() : v))
			})
			.sort()
	}
	return out
}

/** What differs between two snapshots: table names and counts of rows only in one or the other. */
export function differences(a: Record<string, string[]>, b: Record<string, string[]>) {
	const diff: string[] = []
	for (const table of Object.keys(a)) {
		const before = new Set(a[table])
		const after = new Set(b[table])
		const gone = [...before].filter((r) => !after.has(r)).length
		const added = [...after].filter((r) => !before.has(r)).length
		if (gone || added) diff.push(`${table}: ${gone} changed or removed, ${added} added or changed`)
	}
	return diff
}

/** Whether an answer shows what only the server should know: the injected error, a driver's name, a stack frame. */
export const showsInternals = (text: string) => /injected failure|SqliteError|PostgresError|\bat \w+ \(/.test(text)
