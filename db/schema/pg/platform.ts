import { bigint, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { ts, id } from './core.ts'

// What every room shares: the audit log, counters, rate-limit windows.
// The same tables as db/schema/sqlite/platform.ts (db/schema/pg.ts says how the two are kept equal).

export const audit_log = pgTable(
	'audit_log',
	{
		id: id(),
		actor_user_id: text('actor_user_id'),
		action: text('action').notNull(),
		target_kind: text('target_kind').notNull(),
		target_id: text('target_id'),
		tenant_id: text('tenant_id'),
		metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		index('audit_log_tenant_created_idx').on(t.tenant_id, t.created_at),
		index('audit_log_created_idx').on(t.created_at),
		index('audit_log_actor_idx').on(t.actor_user_id),
	],
)

/**
 * Derived, not a record of its own: counts and sums of the specification's
 * tables, kept in step by database triggers in the transaction of every write
 * (drizzle/<dialect>/0005_stats_counters.sql), so dashboards read a handful of rows
 * instead of aggregating a tenant's progress. Metrics: `users` per tenant,
 * `enrolled` (active or completed) per course, `completed` per entry,
 * `attempts` (n and the sum of scores) per quiz, `attempt_number` per quiz and
 * attempt number (`bucket`). Tenant- and course-level rows use '' for the
 * slugs below their level. Decision: docs/decisions/0013-derived-counters.md.
 */
export const stats_counters = pgTable(
	'stats_counters',
	{
		tenant_id: text('tenant_id').notNull(),
		course_slug: text('course_slug').notNull(),
		entry_slug: text('entry_slug').notNull(),
		metric: text('metric').notNull(),
		bucket: integer('bucket').notNull(),
		n: integer('n').notNull(),
		total: bigint('total', { mode: 'number' }).notNull(),
	},
	(t) => [primaryKey({ columns: [t.tenant_id, t.course_slug, t.entry_slug, t.metric, t.bucket] })],
)

/**
 * Rate-limit windows kept in the database (decision 0035): one fixed window per policy and key,
 * `count` hits until `expires_at_ms` (epoch milliseconds). The credential-guessing policies count
 * here whenever the limits are shared (RATE_LIMIT_DRIVER redis or upstash), and every policy while
 * the shared store fails, so no process allows the whole policy on its own.
 */
export const rate_limit_windows = pgTable('rate_limit_windows', {
	key: text('key').primaryKey(),
	count: integer('count').notNull(),
	expires_at_ms: bigint('expires_at_ms', { mode: 'number' }).notNull(),
})
