import type { InferInsertModel, InferSelectModel, Table } from 'drizzle-orm'
import type * as pg from './pg.ts'
import type * as sqlite from './sqlite.ts'

/*
 * The repository is typed against the PostgreSQL schema and runs on SQLite through a cast
 * (db/client.ts), so tsc alone would never see the two schemas drift apart. These assertions
 * make it: for every table, the row drizzle returns (select) and the row it accepts (insert)
 * must be the same type on both dialects, or `npm run typecheck` fails naming the table.
 * tests/integration/schema.test.ts compares what types cannot see: SQL names, nullability,
 * indexes and checks. Decision: docs/decisions/0003-two-dialects.md.
 */

/** True only when A and B are the same type (not merely assignable either way). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

type Pg = typeof pg
type Sqlite = typeof sqlite
type TableName = keyof Pg & keyof Sqlite

// users.password_hash is the one intended difference (the specification's): NULL on
// PostgreSQL, '' on SQLite for OAuth-only users (noPassword(db) in db/users.ts). The
// PostgreSQL type, the one the repository sees, is the wider (string | null), so code
// written against it handles both. It is compared apart, below, so that any other drift
// of the users table still fails.
type Intended = { users: 'password_hash' }
type Compared<K extends TableName, Row> = Omit<Row, K extends keyof Intended ? Intended[K] : never>

/** Per table: its selected and its inserted rows are each the same type on both dialects. */
type Parity = {
	[K in TableName]: Pg[K] extends Table
		? Sqlite[K] extends Table
			? [
					Equals<Compared<K, InferSelectModel<Pg[K]>>, Compared<K, InferSelectModel<Sqlite[K]>>>,
					Equals<Compared<K, InferInsertModel<Pg[K]>>, Compared<K, InferInsertModel<Sqlite[K]>>>,
				]
			: never
		: never
}

// Both schemas export the same tables.
const _sameTables: Equals<keyof Pg, keyof Sqlite> = true

// Each table is listed so that a new one must be added here: an unlisted key is an error.
const _parity: Parity = {
	tenants: [true, true],
	users: [true, true],
	course_admin_assignments: [true, true],
	invitations: [true, true],
	invitation_courses: [true, true],
	invitation_names: [true, true],
	invitation_locales: [true, true],
	enrollments: [true, true],
	entry_progress: [true, true],
	quiz_attempts: [true, true],
	quiz_attempt_dues: [true, true],
	verification_tokens: [true, true],
	oauth_accounts: [true, true],
	audit_log: [true, true],
	sessions: [true, true],
	stats_counters: [true, true],
	assignment_submissions: [true, true],
	submission_files: [true, true],
	file_chunks: [true, true],
	submission_watchers: [true, true],
	signing_keys: [true, true],
	certificates: [true, true],
	rate_limit_windows: [true, true],
	course_passes: [true, true],
	second_chances: [true, true],
	reminders_sent: [true, true],
	reminder_opt_outs: [true, true],
	announcements: [true, true],
	user_settings: [true, true],
	due_extensions: [true, true],
	calendar_feeds: [true, true],
	job_mails: [true, true],
	scim_tokens: [true, true],
	scim_group_mappings: [true, true],
	scim_groups: [true, true],
	scim_group_members: [true, true],
	scim_users: [true, true],
	webhook_endpoints: [true, true],
	webhook_events: [true, true],
	webhook_deliveries: [true, true],
	api_keys: [true, true],
	api_idempotency: [true, true],
	identity_providers: [true, true],
	identity_provider_domains: [true, true],
	sso_login_states: [true, true],
	saml_assertions_seen: [true, true],
}

// The intended difference, pinned: if either side changes, this note and decision 0003 must too.
const _passwordHash: [
	Equals<InferSelectModel<Pg['users']>['password_hash'], string | null>,
	Equals<InferSelectModel<Sqlite['users']>['password_hash'], string>,
] = [true, true]

/**
 * The SQLite tables under the PostgreSQL tables' types, for the one handle of db/client.ts. Sound
 * for what the repository reads and writes, whose types are equal above; the tables' own classes
 * (column builders, dialect) differ and are never compared.
 */
export function sqliteTablesAsPg(tables: Sqlite): Pg {
	return tables as unknown as Pg
}
