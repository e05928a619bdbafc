import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { ts, now, id, userId, tenantId, users } from './core.ts'

// Signed certificates and the keys that sign them.
// The same tables as db/schema/pg/certificates.ts (db/schema/sqlite.ts says how the two are kept equal).

/** A tenant's Ed25519 signing keys (decision 0038); see pg.ts. */
export const signing_keys = sqliteTable(
	'signing_keys',
	{
		id: id(),
		tenant_id: tenantId(),
		version: integer('version').notNull(),
		public_key_multibase: text('public_key_multibase').notNull(),
		secret_key_sealed: text('secret_key_sealed').notNull(),
		kek_id: text('kek_id').notNull(),
		created_at: ts('created_at').notNull().default(now),
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

/** A certificate issued to a learner for a course (decision 0038); see pg.ts. */
export const certificates = sqliteTable(
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
		issued_at: ts('issued_at').notNull().default(now),
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
		index('certificates_course_idx').on(t.tenant_id, t.course_slug, t.issued_at),
		index('certificates_user_idx').on(t.tenant_id, t.user_id),
		check('certificates_status_check', sql`status_list >= 1 AND status_index >= 0 AND status_index < 131072`),
		check('certificates_revoked_check', sql`(revoked_at IS NULL) = (revoked_reason IS NULL)`),
	],
)
