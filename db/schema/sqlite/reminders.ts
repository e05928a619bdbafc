import { sql } from 'drizzle-orm'
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { REMINDER_KINDS, sqlList } from '../values.ts'
import { ts, now, id, userId, tenantId, users } from './core.ts'

// Mail to learners: reminders sent, opt-outs, announcements, calendar feeds, queued mails.
// The same tables as db/schema/pg/reminders.ts (db/schema/sqlite.ts says how the two are kept equal).

/**
 * One row per reminder mail ever decided (decision 0047): the key is what makes "once per item per
 * learner" hold whatever the number of sweeps, processes or retries. The row is written in the same
 * transaction as the mail's job, so a row exists exactly when its mail was queued. `item_key` names
 * the item: a course and the start of an inactive spell, an entry's due date, an announcement's id.
 */
export const reminders_sent = sqliteTable(
	'reminders_sent',
	{
		tenant_id: tenantId(),
		user_id: userId(),
		kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
		item_key: text('item_key').notNull(),
		sent_at: ts('sent_at').notNull().default(now),
	},
	(t) => [
		primaryKey({ columns: [t.tenant_id, t.user_id, t.kind, t.item_key] }),
		check('reminders_sent_kind_check', sql.raw(`kind IN (${sqlList(REMINDER_KINDS)})`)),
	],
)

/** A learner's "no more mails of this kind" (decision 0047): the account page and the one-click unsubscribe write it. */
export const reminder_opt_outs = sqliteTable(
	'reminder_opt_outs',
	{
		tenant_id: tenantId(),
		user_id: userId(),
		kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
		created_at: ts('created_at').notNull().default(now),
	},
	(t) => [
		primaryKey({ columns: [t.tenant_id, t.user_id, t.kind] }),
		check('reminder_opt_outs_kind_check', sql.raw(`kind IN (${sqlList(REMINDER_KINDS)})`)),
	],
)

/** What course staff wrote to a course's learners (decision 0047); each learner's mail is keyed by its id in reminders_sent. */
export const announcements = sqliteTable(
	'announcements',
	{
		id: id(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		author_id: text('author_id')
			.notNull()
			.references(() => users.id),
		subject: text('subject').notNull(),
		body: text('body').notNull(),
		created_at: ts('created_at').notNull().default(now),
	},
	(t) => [index('announcements_course_idx').on(t.tenant_id, t.course_slug, t.created_at)],
)

/**
 * A learner's private calendar feed (decision 0045): only the SHA-256 of its token is stored. The
 * token is an HMAC of `nonce` under AUTH_SECRET, so the account page can show the link again while
 * the database alone cannot; a new link replaces the row (the old token stops matching).
 */
export const calendar_feeds = sqliteTable(
	'calendar_feeds',
	{
		user_id: userId(),
		tenant_id: tenantId(),
		nonce: text('nonce').notNull(),
		token_hash: text('token_hash').notNull(),
		created_at: ts('created_at').notNull().default(now),
	},
	(t) => [
		uniqueIndex('calendar_feeds_user_unique').on(t.tenant_id, t.user_id),
		uniqueIndex('calendar_feeds_token_unique').on(t.token_hash),
	],
)

/** Each mail a job's attempt handed to a transport (decision 0058; pg.ts says more). */
export const job_mails = sqliteTable(
	'job_mails',
	{
		job_id: text('job_id').notNull(),
		seq: integer('seq').notNull(),
		sent_at: ts('sent_at').notNull().default(now),
	},
	(t) => [primaryKey({ columns: [t.job_id, t.seq] })],
)
