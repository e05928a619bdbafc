import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { API_KEY_SCOPES, SCIM_GROUP_ROLES, sqlList } from '../values.ts'
import { ts, id, userId, tenantId, tenants, users } from './core.ts'

// Systems a school connects: SCIM provisioning, webhooks, API keys.
// The same tables as db/schema/sqlite/integrations.ts (db/schema/pg.ts says how the two are kept equal).

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
