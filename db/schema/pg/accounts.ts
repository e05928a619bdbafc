import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { LOCALES, TOKEN_TYPES, INVITABLE_ROLES, sqlList } from '../values.ts'
import { ts, id, userId, tenantId, tenants, users } from './core.ts'

// Who may sign in and how: invitations, one-time tokens, linked accounts, sessions, settings, course staff.
// The same tables as db/schema/sqlite/accounts.ts (db/schema/pg.ts says how the two are kept equal).

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
