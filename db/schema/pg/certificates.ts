import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { ts, id, userId, tenantId, users } from './core.ts'

// Signed certificates and the keys that sign them.
// The same tables as db/schema/sqlite/certificates.ts (db/schema/pg.ts says how the two are kept equal).

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
