import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { LOCALES, ROLES, TENANT_STATUSES, sqlList } from '../values.ts'

// The tenants and users every other table points to, and the column helpers both use.
// The same tables as db/schema/pg/core.ts (db/schema/sqlite.ts says how the two are kept equal).

// Timestamps are epoch milliseconds, booleans 0/1, JSON as text.
export const ts = (name: string) => integer(name, { mode: 'timestamp_ms' })
export const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`
export const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>()
export const id = () => text('id').primaryKey()
// The owner columns of per-user and per-tenant rows.
export const userId = () =>
	text('user_id')
		.notNull()
		.references(() => users.id)
export const tenantId = () =>
	text('tenant_id')
		.notNull()
		.references(() => tenants.id)

export const tenants = sqliteTable(
	'tenants',
	{
		id: id(),
		slug: text('slug').notNull(),
		name: text('name').notNull(),
		status: text('status', { enum: TENANT_STATUSES }).notNull().default('active'),
		feature_flags_json: json<Record<string, unknown>>('feature_flags_json').notNull().default({}),
		custom_domain: text('custom_domain'),
		created_at: ts('created_at').notNull().default(now),
		updated_at: ts('updated_at').notNull().default(now),
		suspended_at: ts('suspended_at'),
	},
	(t) => [
		uniqueIndex('tenants_slug_unique').on(t.slug),
		uniqueIndex('tenants_custom_domain_unique').on(t.custom_domain),
		check('tenants_status_check', sql.raw(`status IN (${sqlList(TENANT_STATUSES)})`)),
	],
)

export const users = sqliteTable(
	'users',
	{
		id: id(),
		tenant_id: text('tenant_id').references(() => tenants.id),
		email: text('email').notNull(),
		// '' for OAuth-only users on SQLite (the PostgreSQL schema uses null)
		password_hash: text('password_hash').notNull().default(''),
		role: text('role', { enum: ROLES }).notNull().default('student'),
		name: text('name').notNull().default(''),
		locale: text('locale', { enum: LOCALES }).notNull().default('en'),
		email_verified_at: ts('email_verified_at'),
		token_version: integer('token_version').notNull().default(0),
		deactivated_at: ts('deactivated_at'),
		created_at: ts('created_at').notNull().default(now),
		updated_at: ts('updated_at').notNull().default(now),
	},
	(t) => [
		uniqueIndex('users_tenant_email_unique').on(t.tenant_id, t.email),
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
