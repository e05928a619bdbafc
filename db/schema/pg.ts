import { sql } from 'drizzle-orm'
import {
	bigint,
	customType,
	boolean,
	check,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core'
import {
	ENROLLMENT_STATUSES,
	SUBMISSION_STATUSES,
	SECOND_CHANCE_KINDS,
	REMINDER_KINDS,
	LOCALES,
	ROLES,
	TENANT_STATUSES,
	TOKEN_TYPES,
	INVITABLE_ROLES,
	API_KEY_SCOPES,
	SCIM_GROUP_ROLES,
	SSO_PROVIDER_KINDS,
	type SsoMappedRole,
	sqlList,
} from './values.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const id = () => text('id').primaryKey()
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })
// The owner columns of per-user and per-tenant rows.
const userId = () =>
	text('user_id')
		.notNull()
		.references(() => users.id)
const tenantId = () =>
	text('tenant_id')
		.notNull()
		.references(() => tenants.id)

export const tenants = pgTable(
	'tenants',
	{
		id: id(),
		slug: text('slug').notNull(),
		name: text('name').notNull(),
		status: text('status', { enum: TENANT_STATUSES }).notNull().default('active'),
		feature_flags_json: jsonb('feature_flags_json').$type<Record<string, unknown>>().notNull().default({}),
		custom_domain: text('custom_domain'),
		created_at: ts('created_at').notNull().defaultNow(),
		updated_at: ts('updated_at').notNull().defaultNow(),
		suspended_at: ts('suspended_at'),
	},
	(t) => [
		uniqueIndex('tenants_slug_unique').on(t.slug),
		uniqueIndex('tenants_custom_domain_unique').on(t.custom_domain),
		check('tenants_status_check', sql.raw(`status IN (${sqlList(TENANT_STATUSES)})`)),
	],
)

export const users = pgTable(
	'users',
	{
		id: id(),
		tenant_id: text('tenant_id').references(() => tenants.id),
		email: text('email').notNull(),
		// null for OAuth-only users on PostgreSQL (the SQLite schema uses '')
		password_hash: text('password_hash'),
		role: text('role', { enum: ROLES }).notNull().default('student'),
		name: text('name').notNull().default(''),
		locale: text('locale', { enum: LOCALES }).notNull().default('en'),
		email_verified_at: ts('email_verified_at'),
		token_version: integer('token_version').notNull().default(0),
		deactivated_at: ts('deactivated_at'),
		created_at: ts('created_at').notNull().defaultNow(),
		updated_at: ts('updated_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('users_tenant_email_unique').on(t.tenant_id, t.email),
		// NULLs are distinct in a unique index, so platform accounts need their own
		uniqueIndex('users_platform_email_unique')
			.on(t.email)
			.where(sql`tenant_id IS NULL`),
		index('users_tenant_created_idx').on(t.tenant_id, t.created_at),
		// The admin user list filters by role or status and shows the newest first: each filter has
		// an index in that order, so a page reads 50 entries however many users the tenant has.
		index('users_tenant_role_created_idx').on(t.tenant_id, t.role, t.created_at),
		index('users_tenant_deactivated_idx')
			.on(t.tenant_id, t.created_at)
			.where(sql`deactivated_at IS NOT NULL`),
		index('users_tenant_unverified_idx')
			.on(t.tenant_id, t.created_at)
			.where(sql`email_verified_at IS NULL`),
		check('users_role_check', sql.raw(`role IN (${sqlList(ROLES)})`)),
		check('users_locale_check', sql.raw(`locale IN (${sqlList(LOCALES)})`)),
		check('users_tenant_role_check', sql`(role = 'super_admin') = (tenant_id IS NULL)`),
	],
)

export const course_admin_assignments = pgTable(
	'course_admin_assignments',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		assigned_by: text('assigned_by').references(() => users.id),
		assigned_at: ts('assigned_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('course_admin_assignments_unique').on(t.user_id, t.tenant_id, t.course_slug),
		index('course_admin_assignments_course_idx').on(t.tenant_id, t.course_slug),
	],
)

export const invitations = pgTable(
	'invitations',
	{
		id: id(),
		email: text('email').notNull(),
		tenant_id: tenantId(),
		role: text('role', { enum: INVITABLE_ROLES }).notNull(),
		course_slug: text('course_slug'),
		token_hash: text('token_hash').notNull(),
		invited_by: text('invited_by').references(() => users.id),
		expires_at: ts('expires_at').notNull(),
		accepted_at: ts('accepted_at'),
	},
	(t) => [
		uniqueIndex('invitations_token_hash_unique').on(t.token_hash),
		index('invitations_tenant_email_idx').on(t.tenant_id, t.email),
		// One open invitation per address and tenant (decision 0040): inviting again refreshes it.
		uniqueIndex('invitations_open_unique')
			.on(t.tenant_id, t.email)
			.where(sql`accepted_at IS NULL`),
		check('invitations_role_check', sql.raw(`role IN (${sqlList(INVITABLE_ROLES)})`)),
		check('invitations_course_slug_check', sql`role <> 'course_admin' OR course_slug IS NOT NULL`),
	],
)

/**
 * The course enrollments an invitation carries (decision 0040): made on acceptance, in its
 * transaction, each only while the admin who added it (`granted_by`) may still enroll in that course.
 */
export const invitation_courses = pgTable(
	'invitation_courses',
	{
		id: id(),
		tenant_id: tenantId(),
		invitation_id: text('invitation_id')
			.notNull()
			.references(() => invitations.id, { onDelete: 'cascade' }),
		course_slug: text('course_slug').notNull(),
		granted_by: text('granted_by').references(() => users.id),
	},
	(t) => [
		uniqueIndex('invitation_courses_unique').on(t.invitation_id, t.course_slug),
		index('invitation_courses_tenant_idx').on(t.tenant_id, t.invitation_id),
	],
)

/** The invitee's name as the admin's list gave it: it fills the acceptance form (decision 0040). */
export const invitation_names = pgTable('invitation_names', {
	invitation_id: text('invitation_id')
		.primaryKey()
		.references(() => invitations.id, { onDelete: 'cascade' }),
	tenant_id: tenantId(),
	name: text('name').notNull(),
})

/**
 * The language a list gave for the invitee (issue 52, decision 0065): the invitation's mail, its
 * acceptance page (the mailed link) and so the account are in it; none: the inviter's page language.
 */
export const invitation_locales = pgTable(
	'invitation_locales',
	{
		invitation_id: text('invitation_id')
			.primaryKey()
			.references(() => invitations.id, { onDelete: 'cascade' }),
		tenant_id: tenantId(),
		locale: text('locale', { enum: LOCALES }).notNull(),
	},
	() => [check('invitation_locales_locale_check', sql.raw(`locale IN (${sqlList(LOCALES)})`))],
)

export const enrollments = pgTable(
	'enrollments',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		status: text('status', { enum: ENROLLMENT_STATUSES }).notNull(),
		enrolled_at: ts('enrolled_at').notNull().defaultNow(),
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

export const entry_progress = pgTable(
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

export const quiz_attempts = pgTable(
	'quiz_attempts',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		entry_slug: text('entry_slug').notNull(),
		attempt_number: integer('attempt_number').notNull(),
		score: integer('score').notNull(),
		passed: boolean('passed').notNull(),
		answers_json: jsonb('answers_json').$type<Record<string, unknown>>().notNull(),
		feedback_json: jsonb('feedback_json').$type<unknown[]>().notNull(),
		started_at: ts('started_at').notNull().defaultNow(),
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
export const quiz_attempt_dues = pgTable('quiz_attempt_dues', {
	attempt_id: text('attempt_id')
		.primaryKey()
		.references(() => quiz_attempts.id, { onDelete: 'cascade' }),
	tenant_id: tenantId(),
	due_at: ts('due_at').notNull(),
	late: boolean('late').notNull(),
})

export const verification_tokens = pgTable(
	'verification_tokens',
	{
		id: id(),
		user_id: userId(),
		token_hash: text('token_hash').notNull(),
		type: text('type', { enum: TOKEN_TYPES }).notNull(),
		expires_at: ts('expires_at').notNull(),
		used_at: ts('used_at'),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('verification_tokens_hash_unique').on(t.token_hash),
		index('verification_tokens_user_idx').on(t.user_id, t.type),
		check('verification_tokens_type_check', sql.raw(`type IN (${sqlList(TOKEN_TYPES)})`)),
	],
)

export const oauth_accounts = pgTable(
	'oauth_accounts',
	{
		id: id(),
		user_id: userId(),
		tenant_id: tenantId(),
		provider: text('provider').notNull(),
		provider_account_id: text('provider_account_id').notNull(),
		avatar_url: text('avatar_url'),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		// identities are never shared across tenants: the tenant is part of the key
		uniqueIndex('oauth_accounts_identity_unique').on(t.tenant_id, t.provider, t.provider_account_id),
		index('oauth_accounts_user_idx').on(t.user_id),
	],
)

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
 * Not in the specification's list: one row per signed-in session, so that the
 * signed cookie (which carries the spec's claims) names a session the server
 * can end. Sign-out revokes the row; expiry is checked here (idle and
 * absolute); an impersonated session names the super_admin session it was
 * started from; a consumed-token proof can mint one session only (unique
 * proof_hash). Decision: docs/decisions/0015-sessions.md.
 */
export const sessions = pgTable(
	'sessions',
	{
		id: id(),
		user_id: userId(),
		// The host's tenant it was issued on (null on the apex); a super_admin's can name a tenant.
		tenant_id: text('tenant_id').references(() => tenants.id),
		token_version: integer('token_version').notNull(),
		created_at: ts('created_at').notNull().defaultNow(),
		idle_expires_at: ts('idle_expires_at').notNull(),
		expires_at: ts('expires_at').notNull(),
		revoked_at: ts('revoked_at'),
		impersonator_session_id: text('impersonator_session_id'),
		proof_hash: text('proof_hash'),
		// The host it was issued on: where the person's mails link until the tenant's custom domain is live (decision 0062).
		host: text('host'),
	},
	(t) => [index('sessions_user_idx').on(t.user_id), uniqueIndex('sessions_proof_hash_unique').on(t.proof_hash)],
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
 * An assignment hand-in (decision 0027): numbered per learner and entry like quiz attempts, kept
 * when a newer one is handed in. `score` is in the content's points (0..max_score, the maximum as
 * it was when graded); `passed` is set by grading.
 */
export const assignment_submissions = pgTable(
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
		passed: boolean('passed'),
		feedback: text('feedback'),
		graded_by: text('graded_by').references(() => users.id),
		graded_at: ts('graded_at'),
		submitted_at: ts('submitted_at').notNull().defaultNow(),
		// The entry's due date for this learner when it was handed in (decision 0045), and whether it
		// came after it: written once by the hand-in, never recomputed (a later extension or content
		// edit does not change what a hand-in was).
		due_at: ts('due_at'),
		late: boolean('late').notNull().default(false),
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
export const submission_files = pgTable(
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
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		index('submission_files_submission_idx').on(t.submission_id),
		check('submission_files_size_check', sql`size_bytes >= 0`),
	],
)

/** The database file store's bodies (app/platform/file-store.server.ts): a file in numbered chunks of at most 256 KiB. */
export const file_chunks = pgTable(
	'file_chunks',
	{
		file_id: text('file_id')
			.notNull()
			.references(() => submission_files.id, { onDelete: 'cascade' }),
		seq: integer('seq').notNull(),
		data: bytea('data').notNull(),
	},
	(t) => [primaryKey({ columns: [t.file_id, t.seq] })],
)

/**
 * Staff who asked to be emailed when a learner hands in work for a course (decision 0028). The
 * row alone grants nothing: notices go only to those who may still grade the course when the
 * hand-in arrives (a course_admin still assigned, an active tenant_admin or super_admin).
 */
export const submission_watchers = pgTable(
	'submission_watchers',
	{
		user_id: userId(),
		tenant_id: tenantId(),
		course_slug: text('course_slug').notNull(),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.tenant_id, t.course_slug, t.user_id] })],
)

/**
 * A tenant's Ed25519 signing keys for its certificates (decision 0038). The public half is kept in
 * the clear, in the tenant's DID document for as long as the row exists, so certificates signed by a
 * retired key stay verifiable; the secret half is sealed (AES-256-GCM) under the key-encryption key
 * named by `kek_id`. At most one key per tenant is current (not retired).
 */
export const signing_keys = pgTable(
	'signing_keys',
	{
		id: id(),
		tenant_id: tenantId(),
		// The key's number in the tenant's DID document: `did:web:<host>#key-<version>`.
		version: integer('version').notNull(),
		public_key_multibase: text('public_key_multibase').notNull(),
		secret_key_sealed: text('secret_key_sealed').notNull(),
		kek_id: text('kek_id').notNull(),
		created_at: ts('created_at').notNull().defaultNow(),
		retired_at: ts('retired_at'),
	},
	(t) => [
		uniqueIndex('signing_keys_version_unique').on(t.tenant_id, t.version),
		uniqueIndex('signing_keys_current_unique')
			.on(t.tenant_id)
			.where(sql`retired_at IS NULL`),
		check('signing_keys_version_check', sql`version >= 1`),
	],
)

/**
 * A certificate issued to a learner for a course (decision 0038): the exact Open Badges 3.0
 * credential as signed, the name it carries (the learner's at issue), and its place in the tenant's
 * revocation status list. At most one live (unrevoked) certificate per learner and course; `public_id`
 * is the unguessable id of its public verification page.
 */
export const certificates = pgTable(
	'certificates',
	{
		id: id(),
		tenant_id: tenantId(),
		user_id: userId(),
		course_slug: text('course_slug').notNull(),
		public_id: text('public_id').notNull(),
		recipient_name: text('recipient_name').notNull(),
		course_title: text('course_title').notNull(),
		credential_json: text('credential_json').notNull(),
		key_version: integer('key_version').notNull(),
		status_list: integer('status_list').notNull(),
		status_index: integer('status_index').notNull(),
		issued_at: ts('issued_at').notNull().defaultNow(),
		revoked_at: ts('revoked_at'),
		revoked_reason: text('revoked_reason'),
		revoked_by: text('revoked_by').references(() => users.id),
	},
	(t) => [
		uniqueIndex('certificates_public_id_unique').on(t.public_id),
		uniqueIndex('certificates_live_unique')
			.on(t.tenant_id, t.user_id, t.course_slug)
			.where(sql`revoked_at IS NULL`),
		uniqueIndex('certificates_status_unique').on(t.tenant_id, t.status_list, t.status_index),
		// A course's certificates, newest first (the admin list).
		index('certificates_course_idx').on(t.tenant_id, t.course_slug, t.issued_at),
		index('certificates_user_idx').on(t.tenant_id, t.user_id),
		check('certificates_status_check', sql`status_list >= 1 AND status_index >= 0 AND status_index < 131072`),
		check('certificates_revoked_check', sql`(revoked_at IS NULL) = (revoked_reason IS NULL)`),
	],
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

/**
 * A learner's course result beside the enrollment's status (decision 0037): whether the course's
 * pass rule holds, settled in the transaction of every write that can change it. One row per
 * learner and course. `passed_at` is the first time it held (a later reopening keeps it).
 */
export const course_passes = pgTable(
	'course_passes',
	{
		id: id(),
		tenant_id: tenantId(),
		user_id: userId(),
		course_slug: text('course_slug').notNull(),
		passed: boolean('passed').notNull(),
		average: integer('average'),
		passed_at: ts('passed_at'),
		updated_at: ts('updated_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('course_passes_unique').on(t.tenant_id, t.user_id, t.course_slug),
		index('course_passes_course_idx').on(t.tenant_id, t.course_slug),
		check('course_passes_average_check', sql`average IS NULL OR (average >= 0 AND average <= 100)`),
	],
)

/**
 * A second chance course staff gave a learner on one entry (decision 0037), with its reason:
 * `extra_attempts` more attempts at a quiz, or an assignment reopened after the hand-in numbered
 * `after_number` (its final grade no longer ends hand-ins).
 */
export const second_chances = pgTable(
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
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		index('second_chances_entry_idx').on(t.tenant_id, t.user_id, t.course_slug, t.entry_slug),
		check('second_chances_kind_check', sql.raw(`kind IN (${sqlList(SECOND_CHANCE_KINDS)})`)),
		check('second_chances_extra_check', sql`extra_attempts >= 0 AND extra_attempts <= 10`),
	],
)

/**
 * One row per reminder mail ever decided (decision 0047): the key is what makes "once per item per
 * learner" hold whatever the number of sweeps, processes or retries. The row is written in the same
 * transaction as the mail's job, so a row exists exactly when its mail was queued. `item_key` names
 * the item: a course and the start of an inactive spell, an entry's due date, an announcement's id.
 */
export const reminders_sent = pgTable(
	'reminders_sent',
	{
		tenant_id: tenantId(),
		user_id: userId(),
		kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
		item_key: text('item_key').notNull(),
		sent_at: ts('sent_at').notNull().defaultNow(),
	},
	(t) => [
		primaryKey({ columns: [t.tenant_id, t.user_id, t.kind, t.item_key] }),
		check('reminders_sent_kind_check', sql.raw(`kind IN (${sqlList(REMINDER_KINDS)})`)),
	],
)

/** A learner's "no more mails of this kind" (decision 0047): the account page and the one-click unsubscribe write it. */
export const reminder_opt_outs = pgTable(
	'reminder_opt_outs',
	{
		tenant_id: tenantId(),
		user_id: userId(),
		kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		primaryKey({ columns: [t.tenant_id, t.user_id, t.kind] }),
		check('reminder_opt_outs_kind_check', sql.raw(`kind IN (${sqlList(REMINDER_KINDS)})`)),
	],
)

/** What course staff wrote to a course's learners (decision 0047); each learner's mail is keyed by its id in reminders_sent. */
export const announcements = pgTable(
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
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [index('announcements_course_idx').on(t.tenant_id, t.course_slug, t.created_at)],
)

/**
 * A learner's own settings that are not the spec's `users` columns (decision 0045): the time zone
 * due dates are shown in (an IANA name; absent row: the tenant's default, else UTC).
 */
export const user_settings = pgTable(
	'user_settings',
	{
		user_id: userId(),
		tenant_id: tenantId(),
		time_zone: text('time_zone').notNull(),
		updated_at: ts('updated_at').notNull().defaultNow(),
	},
	(t) => [uniqueIndex('user_settings_unique').on(t.tenant_id, t.user_id)],
)

/**
 * A due date course staff moved for one learner on one entry (decision 0045): the newest one is
 * in force (one row per learner and entry, replaced); each is audited with its reason.
 */
export const due_extensions = pgTable(
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
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('due_extensions_unique').on(t.tenant_id, t.user_id, t.course_slug, t.entry_slug),
		index('due_extensions_course_idx').on(t.tenant_id, t.course_slug),
	],
)

/**
 * A learner's private calendar feed (decision 0045): only the SHA-256 of its token is stored. The
 * token is an HMAC of `nonce` under AUTH_SECRET, so the account page can show the link again while
 * the database alone cannot; a new link replaces the row (the old token stops matching).
 */
export const calendar_feeds = pgTable(
	'calendar_feeds',
	{
		user_id: userId(),
		tenant_id: tenantId(),
		nonce: text('nonce').notNull(),
		token_hash: text('token_hash').notNull(),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('calendar_feeds_user_unique').on(t.tenant_id, t.user_id),
		uniqueIndex('calendar_feeds_token_unique').on(t.token_hash),
	],
)

/**
 * Each mail a job's attempt handed to a transport (decision 0058), keyed by the job and the mail's
 * place among the job's mails: a later attempt of the same job (a retry, or a stale one of a process
 * that was frozen past the job timeout) finds it and does not send it again. On PostgreSQL the row is
 * inserted before the SMTP exchange and committed after it, so a second attempt waits on it.
 */
export const job_mails = pgTable(
	'job_mails',
	{
		job_id: text('job_id').notNull(),
		seq: integer('seq').notNull(),
		sent_at: ts('sent_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.job_id, t.seq] })],
)

/**
 * SCIM 2.0 provisioning (decision 0070). A tenant admin's bearer token for the school's identity
 * provider: only its SHA-256 is stored, the token is shown once. It acts for its tenant only, and
 * only while `created_by` is still an active tenant admin of it; revoked rows stay for the record.
 */
export const scim_tokens = pgTable(
	'scim_tokens',
	{
		id: id(),
		tenant_id: tenantId(),
		label: text('label').notNull(),
		token_hash: text('token_hash').notNull(),
		created_by: text('created_by')
			.notNull()
			.references(() => users.id),
		created_at: ts('created_at').notNull().defaultNow(),
		last_used_at: ts('last_used_at'),
		revoked_at: ts('revoked_at'),
	},
	(t) => [
		uniqueIndex('scim_tokens_hash_unique').on(t.token_hash),
		index('scim_tokens_tenant_idx').on(t.tenant_id, t.created_at),
	],
)

/**
 * What a SCIM group of this name gives its members, as the tenant admin chose (decision 0070): a role
 * (course_admin with its course, or tenant_admin), or an enrollment in a course (role null).
 */
export const scim_group_mappings = pgTable(
	'scim_group_mappings',
	{
		id: id(),
		tenant_id: tenantId(),
		display_name: text('display_name').notNull(),
		role: text('role', { enum: SCIM_GROUP_ROLES }),
		course_slug: text('course_slug'),
		created_by: text('created_by').references(() => users.id),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('scim_group_mappings_unique').on(t.tenant_id, t.display_name),
		check('scim_group_mappings_role_check', sql.raw(`role IS NULL OR role IN (${sqlList(SCIM_GROUP_ROLES)})`)),
		check(
			'scim_group_mappings_target_check',
			sql`(role IS NULL AND course_slug IS NOT NULL) OR (role = 'course_admin' AND course_slug IS NOT NULL) OR (role = 'tenant_admin' AND course_slug IS NULL)`,
		),
	],
)

/** A group the identity provider pushed (SCIM Groups), by its display name in the tenant. */
export const scim_groups = pgTable(
	'scim_groups',
	{
		id: id(),
		tenant_id: tenantId(),
		display_name: text('display_name').notNull(),
		external_id: text('external_id'),
		created_at: ts('created_at').notNull().defaultNow(),
		updated_at: ts('updated_at').notNull().defaultNow(),
	},
	(t) => [uniqueIndex('scim_groups_name_unique').on(t.tenant_id, t.display_name)],
)

/** The members of a SCIM group: users of the group's tenant. */
export const scim_group_members = pgTable(
	'scim_group_members',
	{
		group_id: text('group_id')
			.notNull()
			.references(() => scim_groups.id, { onDelete: 'cascade' }),
		tenant_id: tenantId(),
		user_id: userId(),
	},
	(t) => [
		primaryKey({ columns: [t.group_id, t.user_id] }),
		index('scim_group_members_user_idx').on(t.tenant_id, t.user_id),
	],
)

/** The identity provider's own id of a user (SCIM externalId), one per user, unique in the tenant. */
export const scim_users = pgTable(
	'scim_users',
	{
		user_id: text('user_id')
			.primaryKey()
			.references(() => users.id),
		tenant_id: tenantId(),
		external_id: text('external_id').notNull(),
	},
	(t) => [uniqueIndex('scim_users_external_unique').on(t.tenant_id, t.external_id)],
)

/**
 * A tenant's outgoing webhook endpoint (decision 0072): where events of the chosen `events` are
 * delivered, signed per Standard Webhooks. The signing secret is sealed (AES-256-GCM under a key
 * derived from AUTH_SECRET, named by `kek_id`); during a rotation the previous secret signs too
 * until `previous_secret_expires_at`. Disabled when `disabled_at` is set, by an admin or after
 * failing since `failing_since` for too long (`disabled_reason`).
 */
export const webhook_endpoints = pgTable(
	'webhook_endpoints',
	{
		id: id(),
		tenant_id: tenantId(),
		url: text('url').notNull(),
		events: jsonb('events').$type<string[]>().notNull(),
		secret_sealed: text('secret_sealed').notNull(),
		previous_secret_sealed: text('previous_secret_sealed'),
		previous_secret_expires_at: ts('previous_secret_expires_at'),
		kek_id: text('kek_id').notNull(),
		disabled_at: ts('disabled_at'),
		disabled_reason: text('disabled_reason'),
		failing_since: ts('failing_since'),
		created_at: ts('created_at').notNull().defaultNow(),
		updated_at: ts('updated_at').notNull().defaultNow(),
	},
	(t) => [
		index('webhook_endpoints_tenant_idx').on(t.tenant_id),
		check(
			'webhook_endpoints_disabled_check',
			sql`(disabled_at IS NULL AND disabled_reason IS NULL) OR (disabled_at IS NOT NULL AND disabled_reason IN ('admin', 'failing'))`,
		),
	],
)

/**
 * The outbox of outgoing webhooks (decision 0072): one row per event, written in the transaction of
 * the change it reports. `id` is the Standard Webhooks `webhook-id` (`msg_…`); `payload` is the
 * body's `data`.
 */
export const webhook_events = pgTable(
	'webhook_events',
	{
		id: id(),
		tenant_id: tenantId(),
		type: text('type').notNull(),
		payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [index('webhook_events_tenant_created_idx').on(t.tenant_id, t.created_at)],
)

/** Each attempt to deliver an event to an endpoint (decision 0072): its answer, or why it had none. */
export const webhook_deliveries = pgTable(
	'webhook_deliveries',
	{
		id: id(),
		tenant_id: tenantId(),
		endpoint_id: text('endpoint_id')
			.notNull()
			.references(() => webhook_endpoints.id, { onDelete: 'cascade' }),
		event_id: text('event_id')
			.notNull()
			.references(() => webhook_events.id, { onDelete: 'cascade' }),
		attempt: integer('attempt').notNull(),
		status_code: integer('status_code'),
		duration_ms: integer('duration_ms'),
		error: text('error'),
		at: ts('at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('webhook_deliveries_attempt_unique').on(t.endpoint_id, t.event_id, t.attempt),
		index('webhook_deliveries_endpoint_at_idx').on(t.endpoint_id, t.at),
	],
)

/**
 * A tenant's API keys (issue 49, decision 0071), and the platform's (tenant_id null, decision 0087):
 * only the SHA-256 of the secret is stored; `prefix` is the secret's visible start (`lmsk_`, or
 * `lmsp_` for a platform key, and 8 characters) that the admin page lists it by. `scope`: read, or
 * read_write; `course_slug`: the one course a key may see, when set.
 */
export const api_keys = pgTable(
	'api_keys',
	{
		id: id(),
		// Null for a platform key (a super admin's, for tenant management: decision 0087).
		tenant_id: text('tenant_id').references(() => tenants.id),
		name: text('name').notNull(),
		scope: text('scope', { enum: API_KEY_SCOPES }).notNull(),
		course_slug: text('course_slug'),
		prefix: text('prefix').notNull(),
		secret_hash: text('secret_hash').notNull(),
		created_by: text('created_by').references(() => users.id),
		created_at: ts('created_at').notNull().defaultNow(),
		last_used_at: ts('last_used_at'),
		last_used_ip: text('last_used_ip'),
		revoked_at: ts('revoked_at'),
	},
	(t) => [
		uniqueIndex('api_keys_secret_hash_unique').on(t.secret_hash),
		index('api_keys_tenant_created_idx').on(t.tenant_id, t.created_at),
		check('api_keys_scope_check', sql.raw(`scope IN (${sqlList(API_KEY_SCOPES)})`)),
		// A platform key manages tenants: it has no course to be limited to.
		check('api_keys_platform_course_check', sql.raw('tenant_id IS NOT NULL OR course_slug IS NULL')),
	],
)

/**
 * The first answer to each `Idempotency-Key` of a key's POSTs (decision 0071): the row is claimed
 * (unique per key and Idempotency-Key, so concurrent retries make one) before the write, and the
 * answer stored after it; `status` is null while the first request is still at work.
 */
export const api_idempotency = pgTable(
	'api_idempotency',
	{
		id: id(),
		tenant_id: text('tenant_id').references(() => tenants.id),
		key_id: text('key_id')
			.notNull()
			.references(() => api_keys.id),
		idempotency_key: text('idempotency_key').notNull(),
		request_hash: text('request_hash').notNull(),
		status: integer('status'),
		response_body: text('response_body'),
		created_at: ts('created_at').notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('api_idempotency_key_unique').on(t.key_id, t.idempotency_key),
		index('api_idempotency_created_idx').on(t.created_at),
	],
)

/**
 * A tenant's identity providers (issue 48, decision 0069). `kind` tells OpenID Connect from the
 * protocols that join later (SAML); an OIDC row has its client id and secret (CHECK). The secret is
 * AES-256-GCM under SSO_ENCRYPTION_KEY (app/accounts/sso/secret-box.server.ts), never plain text.
 * role_map: the values of `role_claim` that give course_admin or tenant_admin at each sign-in.
 */
export const identity_providers = pgTable(
	'identity_providers',
	{
		id: id(),
		tenant_id: tenantId(),
		kind: text('kind', { enum: SSO_PROVIDER_KINDS }).notNull(),
		label: text('label').notNull(),
		enabled: boolean('enabled').notNull().default(true),
		issuer: text('issuer').notNull(),
		client_id: text('client_id'),
		client_secret_sealed: text('client_secret_sealed'),
		scopes: text('scopes').notNull().default('openid email profile'),
		require_sso: boolean('require_sso').notNull().default(false),
		role_claim: text('role_claim'),
		// SAML (kind 'saml'; `issuer` holds the IdP's entity id): where AuthnRequests go, the IdP's
		// signing certificates (PEM, one or more for rollover), and this provider's own SP key pair
		// (the certificate published in the SP metadata, the private key sealed like a client secret).
		saml_sso_url: text('saml_sso_url'),
		saml_idp_certs: text('saml_idp_certs'),
		saml_sp_cert: text('saml_sp_cert'),
		saml_sp_key_sealed: text('saml_sp_key_sealed'),
		role_map: jsonb('role_map').$type<Partial<Record<SsoMappedRole, string[]>>>().notNull().default({}),
		created_at: ts('created_at').notNull().defaultNow(),
		updated_at: ts('updated_at').notNull().defaultNow(),
	},
	(t) => [
		index('identity_providers_tenant_idx').on(t.tenant_id),
		check('identity_providers_kind_check', sql.raw(`kind IN (${sqlList(SSO_PROVIDER_KINDS)})`)),
		check(
			'identity_providers_oidc_client_check',
			sql.raw(`kind <> 'oidc' OR (client_id IS NOT NULL AND client_secret_sealed IS NOT NULL)`),
		),
		check(
			'identity_providers_saml_check',
			sql.raw(
				`kind <> 'saml' OR (saml_sso_url IS NOT NULL AND saml_idp_certs IS NOT NULL AND saml_sp_cert IS NOT NULL AND saml_sp_key_sealed IS NOT NULL)`,
			),
		),
	],
)

/** The email domains a provider claims: one provider per domain in a tenant (the unique key). */
export const identity_provider_domains = pgTable(
	'identity_provider_domains',
	{
		tenant_id: tenantId(),
		provider_id: text('provider_id')
			.notNull()
			.references(() => identity_providers.id, { onDelete: 'cascade' }),
		domain: text('domain').notNull(),
	},
	(t) => [
		primaryKey({ columns: [t.tenant_id, t.domain] }),
		index('identity_provider_domains_provider_idx').on(t.provider_id),
	],
)

/**
 * A sign-in under way with a tenant's provider (decision 0069): the SHA-256 of its state, bound to
 * the tenant and the provider, with the PKCE verifier, the nonce and the return path; the callback
 * deletes it (one use) and refuses it past expires_at. For SAML (decision 0077) the state is the
 * RelayState, `nonce` the AuthnRequest's ID (the answer's InResponseTo) and code_verifier empty.
 */
export const sso_login_states = pgTable(
	'sso_login_states',
	{
		state_hash: text('state_hash').primaryKey(),
		tenant_id: tenantId(),
		provider_id: text('provider_id')
			.notNull()
			.references(() => identity_providers.id, { onDelete: 'cascade' }),
		nonce: text('nonce').notNull(),
		code_verifier: text('code_verifier').notNull(),
		return_to: text('return_to'),
		expires_at: ts('expires_at').notNull(),
	},
	(t) => [index('sso_login_states_expires_idx').on(t.expires_at)],
)

/**
 * The SAML replay cache (decision 0077), shared by every process through the database: the ID of
 * each assertion a provider's ACS accepted, kept until the assertion expires. The key refuses a
 * second use of one assertion, whichever process receives it.
 */
export const saml_assertions_seen = pgTable(
	'saml_assertions_seen',
	{
		tenant_id: tenantId(),
		provider_id: text('provider_id')
			.notNull()
			.references(() => identity_providers.id, { onDelete: 'cascade' }),
		assertion_id: text('assertion_id').notNull(),
		expires_at: ts('expires_at').notNull(),
	},
	(t) => [
		primaryKey({ columns: [t.provider_id, t.assertion_id] }),
		index('saml_assertions_seen_expires_idx').on(t.expires_at),
	],
)
