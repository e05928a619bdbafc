import { sql } from 'drizzle-orm'
import { customType, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { LOCALES, ROLES, TENANT_STATUSES, sqlList } from '../values.ts'

// The tenants and users every other table points to, and the column helpers both use.
// The same tables as db/schema/sqlite/core.ts (db/schema/pg.ts says how the two are kept equal).

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
export const id = () => text('id').primaryKey()
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })
// The owner columns of per-user and per-tenant rows.
export const userId = () =>
	text('user_id')
		.notNull()
		.references(() => users.id)
export const tenantId = () =>
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
