import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/*
 * SQLite's job queue (docs/decisions/0033-job-queue.md): the table the single-process poller of
 * server/queue.ts drains. SQLite only, so it stays out of sqlite.ts, whose tables must match pg.ts
 * (db/schema/parity.ts): on PostgreSQL the queue is pg-boss's own tables in schema `pgboss`.
 */
export const jobs = sqliteTable(
	'jobs',
	{
		id: text('id').primaryKey(),
		/** The job's kind (`mail.passwordReset`); its handler is registered under that name. */
		name: text('name').notNull(),
		payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
		/** Not before: now at enqueue, later after a failed attempt (backoff). */
		run_at: integer('run_at', { mode: 'timestamp_ms' }).notNull(),
		/** Attempts started so far. */
		attempts: integer('attempts').notNull().default(0),
		/** Set while an attempt runs; an attempt older than the job timeout is taken as dead. */
		locked_at: integer('locked_at', { mode: 'timestamp_ms' }),
		last_error: text('last_error'),
		/** Set when the job was given up (its attempts spent); kept for inspection. */
		failed_at: integer('failed_at', { mode: 'timestamp_ms' }),
		created_at: integer('created_at', { mode: 'timestamp_ms' })
			.notNull()
			.default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
	},
	(t) => [index('jobs_due_idx').on(t.failed_at, t.run_at)],
)
