// The large data set of the benchmarks (bench/admin-scale.ts and bench/run.ts),
// written with one INSERT … SELECT per table so that a million rows take
// seconds, on either dialect.
import { desc, eq } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { execRaw, seriesSql as series } from '#tests/support/databases.ts'

/** Five entries of intro-to-web and five of a second course: ten progress rows per user. */
export const SCALE_ENTRIES = ['what-is-http', 'html-forms', 'basics-quiz', 'progressive-enhancement', 'build-a-form']
const OTHER = ['o1', 'o2', 'o3', 'o4', 'o5']

export interface ScaleOptions {
	/** Users to add (ids bu-1 … bu-N, emails bench-N@acme.test); each gets one enrollment, ten progress rows and one quiz attempt. */
	users: number
	/** The tenant that receives every user, or half of them when `extraTenants` is set (acme in the benchmarks). */
	tenantId: string
	/** Further tenants to create (bench-t1 … bench-tK) that share the other half of the users round-robin. */
	extraTenants?: number
}

/** SQL for "n-th second of 2026" in the dialect's timestamp representation. */
function timestamp(db: Database) {
	return db.dialect === 'pg'
		? (expr: string) => `(timestamp '2026-01-01' + (${expr}) * interval '1 second')`
		: (expr: string) => `(1767225600000 + (${expr}) * 1000)`
}

/**
 * Adds `users` users with an enrollment, ten entry_progress rows and a quiz
 * attempt each (so 100,000 users make 1,000,000 progress rows), then ANALYZE
 * (on PostgreSQL VACUUM ANALYZE: autovacuum does the same soon after a bulk
 * load in production, and index-only scans need the visibility map it sets).
 * Returns the milliseconds it took.
 */
export async function seedScale(db: Database, options: ScaleOptions) {
	const started = performance.now()
	const { users, tenantId } = options
	const extra = options.extraTenants ?? 0
	const ts = timestamp(db)
	const from = series(db, users)
	const empty = db.dialect === 'pg' ? 'NULL' : `''`
	// With extra tenants, even users belong to the main tenant and odd ones to bench-t1 … bench-tK in turn.
	const tenant =
		extra > 0
			? `CASE WHEN n % 2 = 0 THEN '${tenantId}' ELSE 'bench-t' || (((n / 2) % ${extra}) + 1) END`
			: `'${tenantId}'`
	const statements: string[] = []
	if (extra > 0) {
		statements.push(
			`INSERT INTO tenants (id, slug, name, status, feature_flags_json, custom_domain, created_at, updated_at, suspended_at)
			 SELECT 'bench-t' || n, 'bench-t' || n, 'Bench Tenant ' || n, 'active', '{}', NULL, ${ts('n')}, ${ts('n')}, NULL FROM ${series(db, extra)}`,
		)
	}
	statements.push(
		`INSERT INTO users (id, tenant_id, email, password_hash, role, name, locale, email_verified_at, token_version, deactivated_at, created_at, updated_at)
		 SELECT 'bu-' || n, ${tenant}, 'bench-' || n || '@acme.test', ${empty},
		        CASE WHEN n % 100 = 0 THEN 'course_admin' ELSE 'student' END, 'Bench Learner ' || n, 'en',
		        CASE WHEN n % 10 = 0 THEN NULL ELSE ${ts('n')} END, 0,
		        CASE WHEN n % 50 = 0 THEN ${ts('n')} ELSE NULL END, ${ts('n')}, ${ts('n')}
		 FROM ${from}`,
		`INSERT INTO enrollments (id, user_id, tenant_id, course_slug, status, enrolled_at, completed_at)
		 SELECT 'be-' || n, 'bu-' || n, ${tenant}, 'intro-to-web', CASE WHEN n % 7 = 0 THEN 'completed' ELSE 'active' END, ${ts('n')}, NULL FROM ${from}`,
		...[...SCALE_ENTRIES.map((e) => ['intro-to-web', e]), ...OTHER.map((e) => ['other-course', e])].map(
			([course, entry], i) =>
				`INSERT INTO entry_progress (id, user_id, tenant_id, course_slug, entry_slug, completed_at, last_viewed_at)
				 SELECT 'bp-${i}-' || n, 'bu-' || n, ${tenant}, '${course}', '${entry}', CASE WHEN n % ${i + 2} = 0 THEN NULL ELSE ${ts('n')} END, ${ts('n')} FROM ${from}`,
		),
		`INSERT INTO quiz_attempts (id, user_id, tenant_id, course_slug, entry_slug, attempt_number, score, passed, answers_json, feedback_json, started_at, submitted_at)
		 SELECT 'bq-' || n, 'bu-' || n, ${tenant}, 'intro-to-web', 'basics-quiz', 1, (n * 37) % 101, ((n * 37) % 101) >= 70, '{}', '[]', ${ts('n')}, ${ts('n')} FROM ${from}`,
		db.dialect === 'pg' ? 'VACUUM ANALYZE' : 'ANALYZE',
	)
	for (const statement of statements) await execRaw(db, statement)
	return performance.now() - started
}

/**
 * Learners for the write benchmark: ids bw-1 … bw-N in the tenant, enrolled in
 * intro-to-web with its first two lessons done, so the lesson after them and
 * the quiz are open to each.
 */
export async function seedWriters(db: Database, tenantId: string, count: number) {
	const ts = timestamp(db)
	const from = series(db, count)
	const empty = db.dialect === 'pg' ? 'NULL' : `''`
	const statements = [
		`INSERT INTO users (id, tenant_id, email, password_hash, role, name, locale, email_verified_at, token_version, deactivated_at, created_at, updated_at)
		 SELECT 'bw-' || n, '${tenantId}', 'writer-' || n || '@acme.test', ${empty}, 'student', 'Bench Writer ' || n, 'en', ${ts('n')}, 0, NULL, ${ts('n')}, ${ts('n')} FROM ${from}`,
		`INSERT INTO enrollments (id, user_id, tenant_id, course_slug, status, enrolled_at, completed_at)
		 SELECT 'bwe-' || n, 'bw-' || n, '${tenantId}', 'intro-to-web', 'active', ${ts('n')}, NULL FROM ${from}`,
		...['what-is-http', 'html-forms'].map(
			(entry, i) =>
				`INSERT INTO entry_progress (id, user_id, tenant_id, course_slug, entry_slug, completed_at, last_viewed_at)
				 SELECT 'bwp-${i}-' || n, 'bw-' || n, '${tenantId}', 'intro-to-web', '${entry}', ${ts('n')}, ${ts('n')} FROM ${from}`,
		),
		'ANALYZE',
	]
	for (const statement of statements) await execRaw(db, statement)
}

/** The id of the tenant's user at position `n` (0-based) of the admin users list, newest first: a keyset cursor. */
export async function userCursorAt(db: Database, tenantId: string, n: number) {
	const u = db.t.users
	const [row] = await db.orm
		.select({ id: u.id })
		.from(u)
		.where(eq(u.tenant_id, tenantId))
		.orderBy(desc(u.created_at), desc(u.id))
		.limit(1)
		.offset(n)
	return row.id
}

/** The cursor after which the tenant's oldest 50 users follow: the users list's last page. */
export async function lastPageCursor(db: Database, tenantId: string) {
	return userCursorAt(db, tenantId, (await db.orm.$count(db.t.users, eq(db.t.users.tenant_id, tenantId))) - 51)
}
