import { getTableConfig as pgTableConfig, type PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as pg from '#db/schema/pg.ts'
import * as sqlite from '#db/schema/sqlite.ts'
import { newId } from '#db/ids.ts'
import { noPassword, upsertUser } from '#db/users.ts'
import { putEnrollment } from '#db/learning.ts'
import { upsertTenant } from '#db/tenants.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'

/** docs/decisions/0013-derived-counters.md; the stored sessions of docs/decisions/0015-sessions.md */
const DERIVED_TABLES = ['stats_counters', 'sessions']
/**
 * The spec leaves the assignment model open ("not shown"): ours, docs/decisions/0027 and 0028; certificates: 0038;
 * rate-limit windows that outlive Redis: 0035; course results and second chances: 0037.
 */
const OWN_TABLES = [
	'assignment_submissions',
	'submission_files',
	'file_chunks',
	'submission_watchers',
	'signing_keys',
	'certificates',
	'rate_limit_windows',
	'course_passes',
	'second_chances',
	// A learner's time zone, due-date extensions and calendar feeds (decision 0045).
	'user_settings',
	'due_extensions',
	'calendar_feeds',
	// What an invitation carries beside the specification's row (decision 0040).
	'invitation_courses',
	'invitation_names',
	// The language a list gave for the invitee (decision 0065).
	'invitation_locales',
	// Reminders, their opt-outs and course announcements (decision 0047).
	'reminders_sent',
	'reminder_opt_outs',
	'announcements',
	// A quiz attempt's due date and lateness beside the specification's row (decision 0061).
	'quiz_attempt_dues',
	// Each mail a job sent, so that a retried or stale attempt does not send it again (decision 0058).
	'job_mails',
	// SCIM provisioning: a tenant's tokens, its group mappings, the pushed groups and members, externalIds (decision 0070).
	'scim_tokens',
	'scim_group_mappings',
	'scim_groups',
	'scim_group_members',
	'scim_users',
	// Outgoing webhooks: endpoints, the events outbox, delivery attempts (decision 0072).
	'webhook_endpoints',
	'webhook_events',
	'webhook_deliveries',
	// API keys and the answers to their idempotent POSTs (decision 0071).
	'api_keys',
	'api_idempotency',
	// A tenant's identity providers, their claimed domains and sign-ins under way (decision 0069).
	'identity_providers',
	'identity_provider_domains',
	'sso_login_states',
	// The SAML replay cache: each accepted assertion's ID until it expires (decision 0077).
	'saml_assertions_seen',
]

const SPEC_TABLES: Record<string, string[]> = {
	tenants: [
		'id',
		'slug',
		'name',
		'status',
		'feature_flags_json',
		'custom_domain',
		'created_at',
		'updated_at',
		'suspended_at',
	],
	users: [
		'id',
		'tenant_id',
		'email',
		'password_hash',
		'role',
		'name',
		'locale',
		'email_verified_at',
		'token_version',
		'deactivated_at',
		'created_at',
		'updated_at',
	],
	course_admin_assignments: ['id', 'user_id', 'tenant_id', 'course_slug', 'assigned_by', 'assigned_at'],
	invitations: [
		'id',
		'email',
		'tenant_id',
		'role',
		'course_slug',
		'token_hash',
		'invited_by',
		'expires_at',
		'accepted_at',
	],
	enrollments: ['id', 'user_id', 'tenant_id', 'course_slug', 'status', 'enrolled_at', 'completed_at'],
	entry_progress: ['id', 'user_id', 'tenant_id', 'course_slug', 'entry_slug', 'completed_at', 'last_viewed_at'],
	quiz_attempts: [
		'id',
		'user_id',
		'tenant_id',
		'course_slug',
		'entry_slug',
		'attempt_number',
		'score',
		'passed',
		'answers_json',
		'feedback_json',
		'started_at',
		'submitted_at',
	],
	verification_tokens: ['id', 'user_id', 'token_hash', 'type', 'expires_at', 'used_at', 'created_at'],
	oauth_accounts: ['id', 'user_id', 'tenant_id', 'provider', 'provider_account_id', 'avatar_url', 'created_at'],
	audit_log: ['id', 'actor_user_id', 'action', 'target_kind', 'target_id', 'tenant_id', 'metadata', 'created_at'],
}

function describePg(table: PgTable) {
	const c = pgTableConfig(table)
	return {
		name: c.name,
		columns: c.columns.map((col) => ({ name: col.name, notNull: col.notNull })),
		indexes: c.indexes.map((i) => ({
			name: i.config.name,
			unique: i.config.unique,
			columns: i.config.columns.map((x: any) => x.name),
		})),
		checks: c.checks.map((k) => k.name).sort(),
	}
}

function describeSqlite(table: SQLiteTable) {
	const c = sqliteTableConfig(table)
	return {
		name: c.name,
		columns: c.columns.map((col) => ({ name: col.name, notNull: col.notNull })),
		indexes: c.indexes.map((i) => ({
			name: i.config.name,
			unique: i.config.unique,
			columns: i.config.columns.map((x: any) => x.name),
		})),
		checks: c.checks.map((k) => k.name).sort(),
	}
}

describe('schema parity', () => {
	it('has exactly the specification tables and columns', () => {
		for (const [name, columns] of Object.entries(SPEC_TABLES)) {
			expect(describePg((pg as any)[name]).columns.map((c) => c.name)).toEqual(columns)
			expect(describeSqlite((sqlite as any)[name]).columns.map((c) => c.name)).toEqual(columns)
		}
		// Besides them only the service's own: counts of the specification's records kept by triggers, stored
		// sessions, and assignment hand-ins.
		const all = [...Object.keys(SPEC_TABLES), ...DERIVED_TABLES, ...OWN_TABLES].sort()
		expect(Object.keys(pg).sort()).toEqual(all)
		expect(Object.keys(sqlite).sort()).toEqual(all)
	})

	it('keeps nullability, indexes, unique keys and checks identical across dialects', () => {
		for (const name of [...Object.keys(SPEC_TABLES), ...DERIVED_TABLES, ...OWN_TABLES]) {
			const a = describePg((pg as any)[name])
			const b = describeSqlite((sqlite as any)[name])
			if (name === 'users') {
				// The one intended difference (spec): password_hash is nullable on PostgreSQL, '' on SQLite.
				const pw = (d: typeof a) => d.columns.find((c) => c.name === 'password_hash')!.notNull
				expect(pw(a)).toBe(false)
				expect(pw(b)).toBe(true)
				a.columns = a.columns.filter((c) => c.name !== 'password_hash')
				b.columns = b.columns.filter((c) => c.name !== 'password_hash')
			}
			expect(b).toEqual(a)
		}
	})

	it('has the unique keys the specification names', () => {
		const uniques = (t: PgTable) =>
			describePg(t)
				.indexes.filter((i) => i.unique)
				.map((i) => i.columns.join(','))
		expect(uniques(pg.users)).toContain('tenant_id,email')
		expect(uniques(pg.course_admin_assignments)).toContain('user_id,tenant_id,course_slug')
		expect(uniques(pg.enrollments)).toContain('tenant_id,user_id,course_slug')
		expect(uniques(pg.entry_progress)).toContain('user_id,tenant_id,course_slug,entry_slug')
		expect(uniques(pg.quiz_attempts)).toContain('user_id,tenant_id,course_slug,entry_slug,attempt_number')
	})
})

describe.each(DIALECTS)('constraints on %s', (dialect) => {
	let db: TestDatabase
	let tenantId: string
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		tenantId = (await upsertTenant(db, { slug: 'acme', name: 'Acme' })).id
	})
	afterAll(() => db?.drop())

	const insertUser = (values: Record<string, unknown>) =>
		db.orm.insert(db.t.users).values({ id: newId(), email: `${newId()}@x.test`, tenant_id: tenantId, ...values } as any)

	it('rejects values outside the allowed lists', async () => {
		await expect(insertUser({ role: 'owner' })).rejects.toThrow()
		await expect(insertUser({ locale: 'it' })).rejects.toThrow()
		await expect(
			// @ts-expect-error the column type refuses it too; this checks that the database does
			db.orm.insert(db.t.tenants).values({ id: newId(), slug: 'x', name: 'X', status: 'paused' }),
		).rejects.toThrow()
		const user = await upsertUser(db, { tenant_id: tenantId, email: 'enum@x.test', role: 'student', name: 'E' })
		await expect(
			db.orm
				.insert(db.t.enrollments)
				// @ts-expect-error the column type refuses it too; this checks that the database does
				.values({ id: newId(), user_id: user.id, tenant_id: tenantId, course_slug: 'c', status: 'paused' }),
		).rejects.toThrow()
		await expect(
			db.orm
				.insert(db.t.verification_tokens)
				// @ts-expect-error the column type refuses it too; this checks that the database does
				.values({ id: newId(), user_id: user.id, token_hash: 'h', type: 'login', expires_at: new Date() }),
		).rejects.toThrow()
	})

	it('ties tenant_id null to super_admin and nothing else', async () => {
		await expect(insertUser({ tenant_id: null, role: 'student' })).rejects.toThrow()
		await expect(insertUser({ role: 'super_admin' })).rejects.toThrow()
		await expect(insertUser({ tenant_id: null, role: 'super_admin', email: 'root@x.test' })).resolves.toBeDefined()
		// two platform accounts with one email are refused despite tenant_id being null
		await expect(insertUser({ tenant_id: null, role: 'super_admin', email: 'root@x.test' })).rejects.toThrow()
	})

	it('keeps (tenant_id, email) unique but lets another tenant reuse the email', async () => {
		const other = await upsertTenant(db, { slug: 'globex', name: 'Globex' })
		await insertUser({ email: 'same@x.test' })
		await expect(insertUser({ email: 'same@x.test' })).rejects.toThrow()
		await expect(insertUser({ email: 'same@x.test', tenant_id: other.id })).resolves.toBeDefined()
	})

	it('stores an OAuth-only user without a password the way the spec says for the dialect', async () => {
		const user = await upsertUser(db, { tenant_id: tenantId, email: 'oauth@x.test', role: 'student', name: 'O' })
		expect(user.password_hash).toBe(dialect === 'pg' ? null : '')
		expect(noPassword(db)).toBe(user.password_hash)
	})

	it('requires course_slug on course_admin invitations', async () => {
		const base = { id: newId(), email: 'i@x.test', tenant_id: tenantId, token_hash: newId(), expires_at: new Date() }
		await expect(db.orm.insert(db.t.invitations).values({ ...base, role: 'course_admin' })).rejects.toThrow()
		await expect(
			db.orm.insert(db.t.invitations).values({ ...base, role: 'course_admin', course_slug: 'c' }),
		).resolves.toBeDefined()
	})

	it('keeps one enrollment row per (tenant, user, course)', async () => {
		const user = await upsertUser(db, { tenant_id: tenantId, email: 'enroll@x.test', role: 'student', name: 'E' })
		const scope = { tenantId, userId: user.id }
		const first = await putEnrollment(db, scope, 'intro', 'active')
		const second = await putEnrollment(db, scope, 'intro', 'cancelled')
		expect(second.id).toBe(first.id)
		const rows = await db.orm.select().from(db.t.enrollments).where(eq(db.t.enrollments.user_id, user.id))
		expect(rows).toHaveLength(1)
		expect(rows[0].status).toBe('cancelled')
	})

	it('round-trips dates, booleans and JSON identically', async () => {
		const user = await upsertUser(db, { tenant_id: tenantId, email: 'quiz@x.test', role: 'student', name: 'Q' })
		const at = new Date('2026-11-01T10:20:30.456Z')
		const [row] = await db.orm
			.insert(db.t.quiz_attempts)
			.values({
				id: newId(),
				user_id: user.id,
				tenant_id: tenantId,
				course_slug: 'c',
				entry_slug: 'q',
				attempt_number: 1,
				score: 67,
				passed: false,
				answers_json: { a: ['x', 1] },
				feedback_json: [{ id: 'q1', correct: true }],
				started_at: at,
				submitted_at: at,
			})
			.returning()
		expect(row.passed).toBe(false)
		expect(row.answers_json).toEqual({ a: ['x', 1] })
		expect(row.feedback_json).toEqual([{ id: 'q1', correct: true }])
		expect(row.submitted_at?.toISOString()).toBe(at.toISOString())
		await expect(db.orm.insert(db.t.quiz_attempts).values({ ...row, id: newId() })).rejects.toThrow()
	})
})
