import { sql } from 'drizzle-orm'
import { blob, check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { ENROLLMENT_STATUSES, SUBMISSION_STATUSES, SECOND_CHANCE_KINDS, sqlList } from '../values.ts'
import { ts, now, json, id, userId, tenantId, users } from './core.ts'

// A learner's place in a course: enrollments, progress, quiz attempts, hand-ins, results, second chances, due extensions.
// The same tables as db/schema/pg/learning.ts (db/schema/sqlite.ts says how the two are kept equal).

export const enrollments = sqliteTable(
	'enrollments',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		status: text('status', { enum: ENROLLMENT_STATUSES }).notNull(),
		enrolled_at: ts('enrolled_at').notNull().default(now),
		completed_at: ts('completed_at'),
	},
	(t) => [
		uniqueIndex('enrollments_unique').on(t.tenant_id, t.user_id, t.course_slug),
		index('enrollments_course_idx').on(t.tenant_id, t.course_slug, t.status),
		// The course roster, newest enrollments first, a page at a time.
		index('enrollments_roster_idx').on(t.tenant_id, t.course_slug, t.enrolled_at),
		check('enrollments_status_check', sql.raw(`status IN (${sqlList(ENROLLMENT_STATUSES)})`)),
	],
)

export const entry_progress = sqliteTable(
	'entry_progress',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		entry_slug: text('entry_slug').notNull(),
		completed_at: ts('completed_at'),
		last_viewed_at: ts('last_viewed_at'),
	},
	(t) => [
		uniqueIndex('entry_progress_unique').on(t.user_id, t.tenant_id, t.course_slug, t.entry_slug),
		// Covers per-entry completion counts of the course dashboard without reading rows.
		index('entry_progress_course_idx').on(t.tenant_id, t.course_slug, t.entry_slug, t.completed_at),
		index('entry_progress_resume_idx').on(t.user_id, t.tenant_id, t.last_viewed_at),
	],
)

export const quiz_attempts = sqliteTable(
	'quiz_attempts',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		entry_slug: text('entry_slug').notNull(),
		attempt_number: integer('attempt_number').notNull(),
		score: integer('score').notNull(),
		passed: integer('passed', { mode: 'boolean' }).notNull(),
		answers_json: json<Record<string, unknown>>('answers_json').notNull(),
		feedback_json: json<unknown[]>('feedback_json').notNull(),
		started_at: ts('started_at').notNull().default(now),
		submitted_at: ts('submitted_at'),
	},
	(t) => [
		uniqueIndex('quiz_attempts_unique').on(t.user_id, t.tenant_id, t.course_slug, t.entry_slug, t.attempt_number),
		// Covers the dashboard's score averages and attempt distribution.
		index('quiz_attempts_course_idx').on(t.tenant_id, t.course_slug, t.entry_slug, t.attempt_number, t.score),
		check('quiz_attempts_number_check', sql`attempt_number >= 1`),
		check('quiz_attempts_score_check', sql`score BETWEEN 0 AND 100`),
	],
)

/**
 * A quiz attempt's due date, as a hand-in's (assignment_submissions.due_at, late): the quiz's due
 * date in force for the learner when the attempt was submitted, and whether it came after it,
 * written with the attempt and never recomputed (decision 0061). A row only for a quiz with a due
 * date; the spec's `quiz_attempts` keeps exactly its columns.
 */
export const quiz_attempt_dues = sqliteTable('quiz_attempt_dues', {
	attempt_id: text('attempt_id')
		.primaryKey()
		.references(() => quiz_attempts.id, { onDelete: 'cascade' }),
	tenant_id: tenantId(),
	due_at: ts('due_at').notNull(),
	late: integer('late', { mode: 'boolean' }).notNull(),
})

/**
 * An assignment hand-in (decision 0027): numbered per learner and entry like quiz attempts, kept
 * when a newer one is handed in. `score` is in the content's points (0..max_score, the maximum as
 * it was when graded); `passed` is set by grading.
 */
export const assignment_submissions = sqliteTable(
	'assignment_submissions',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		entry_slug: text('entry_slug').notNull(),
		submission_number: integer('submission_number').notNull(),
		text_answer: text('text_answer'),
		link_url: text('link_url'),
		status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('submitted'),
		score: integer('score'),
		max_score: integer('max_score'),
		passed: integer('passed', { mode: 'boolean' }),
		feedback: text('feedback'),
		graded_by: text('graded_by').references(() => users.id),
		graded_at: ts('graded_at'),
		submitted_at: ts('submitted_at').notNull().default(now),
		// The entry's due date for this learner when it was handed in (decision 0045), and whether it
		// came after it: written once by the hand-in, never recomputed (a later extension or content
		// edit does not change what a hand-in was).
		due_at: ts('due_at'),
		late: integer('late', { mode: 'boolean' }).notNull().default(false),
	},
	(t) => [
		uniqueIndex('assignment_submissions_unique').on(
			t.user_id,
			t.tenant_id,
			t.course_slug,
			t.entry_slug,
			t.submission_number,
		),
		// The grading queue: a course's submissions by status, oldest first.
		index('assignment_submissions_queue_idx').on(t.tenant_id, t.course_slug, t.status, t.submitted_at),
		check('assignment_submissions_number_check', sql`submission_number >= 1`),
		check('assignment_submissions_score_check', sql`score IS NULL OR (score >= 0 AND score <= max_score)`),
		check('assignment_submissions_status_check', sql.raw(`status IN (${sqlList(SUBMISSION_STATUSES)})`)),
	],
)

/**
 * A file handed in. The row is written first, with no submission, while the body streams into the
 * file store; the submission's transaction then claims it. `content_type` is what the server
 * decided from the bytes, never what the browser sent.
 */
export const submission_files = sqliteTable(
	'submission_files',
	{
		id: id(),
		tenant_id: tenantId(),
		user_id: userId(),
		submission_id: text('submission_id').references(() => assignment_submissions.id, { onDelete: 'cascade' }),
		file_name: text('file_name').notNull(),
		content_type: text('content_type').notNull(),
		size_bytes: integer('size_bytes').notNull(),
		sha256: text('sha256').notNull(),
		created_at: ts('created_at').notNull().default(now),
	},
	(t) => [
		index('submission_files_submission_idx').on(t.submission_id),
		check('submission_files_size_check', sql`size_bytes >= 0`),
	],
)

/** The database file store's bodies (app/platform/file-store.server.ts): a file in numbered chunks of at most 256 KiB. */
export const file_chunks = sqliteTable(
	'file_chunks',
	{
		file_id: text('file_id')
			.notNull()
			.references(() => submission_files.id, { onDelete: 'cascade' }),
		seq: integer('seq').notNull(),
		data: blob('data', { mode: 'buffer' }).notNull(),
	},
	(t) => [primaryKey({ columns: [t.file_id, t.seq] })],
)

/**
 * Staff who asked to be emailed when a learner hands in work for a course (decision 0028). The
 * row alone grants nothing: notices go only to those who may still grade the course when the
 * hand-in arrives (a course_admin still assigned, an active tenant_admin or super_admin).
 */
export const submission_watchers = sqliteTable(
	'submission_watchers',
	{
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		created_at: ts('created_at').notNull().default(now),
	},
	(t) => [primaryKey({ columns: [t.tenant_id, t.course_slug, t.user_id] })],
)

/** A learner's course result (decision 0037); see pg.ts. */
export const course_passes = sqliteTable(
	'course_passes',
	{
		id: id(),
		tenant_id: tenantId(),
		user_id: userId(),
		course_slug: text('course_slug').notNull(),
		passed: integer('passed', { mode: 'boolean' }).notNull(),
		average: integer('average'),
		passed_at: ts('passed_at'),
		updated_at: ts('updated_at').notNull().default(now),
	},
	(t) => [
		uniqueIndex('course_passes_unique').on(t.tenant_id, t.user_id, t.course_slug),
		index('course_passes_course_idx').on(t.tenant_id, t.course_slug),
		check('course_passes_average_check', sql`average IS NULL OR (average >= 0 AND average <= 100)`),
	],
)

/** A second chance on one entry (decision 0037); see pg.ts. */
export const second_chances = sqliteTable(
	'second_chances',
	{
		id: id(),
		tenant_id: tenantId(),
		user_id: userId(),
		course_slug: text('course_slug').notNull(),
		entry_slug: text('entry_slug').notNull(),
		kind: text('kind', { enum: SECOND_CHANCE_KINDS }).notNull(),
		extra_attempts: integer('extra_attempts').notNull().default(0),
		after_number: integer('after_number').notNull().default(0),
		reason: text('reason').notNull(),
		granted_by: text('granted_by').references(() => users.id),
		created_at: ts('created_at').notNull().default(now),
	},
	(t) => [
		index('second_chances_entry_idx').on(t.tenant_id, t.user_id, t.course_slug, t.entry_slug),
		check('second_chances_kind_check', sql.raw(`kind IN (${sqlList(SECOND_CHANCE_KINDS)})`)),
		check('second_chances_extra_check', sql`extra_attempts >= 0 AND extra_attempts <= 10`),
	],
)

/**
 * A due date course staff moved for one learner on one entry (decision 0045): the newest one is
 * in force (one row per learner and entry, replaced); each is audited with its reason.
 */
export const due_extensions = sqliteTable(
	'due_extensions',
	{
		id: id(),
		tenant_id: tenantId(),
		user_id: userId(),
		course_slug: text('course_slug').notNull(),
		entry_slug: text('entry_slug').notNull(),
		due_at: ts('due_at').notNull(),
		reason: text('reason').notNull(),
		granted_by: text('granted_by').references(() => users.id),
		created_at: ts('created_at').notNull().default(now),
	},
	(t) => [
		uniqueIndex('due_extensions_unique').on(t.tenant_id, t.user_id, t.course_slug, t.entry_slug),
		index('due_extensions_course_idx').on(t.tenant_id, t.course_slug),
	],
)
