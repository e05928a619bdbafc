// Admin pages at scale: seeds 100,000 users and 1,000,000 progress rows into a
// fresh database of each dialect, then times the queries behind /admin/users
// and /admin/courses/<slug>/dashboard (median of several runs each).
//
//   npm run bench:admin                       # SQLite
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:admin   # and PostgreSQL
import { writeFileSync, mkdirSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { courseEntryStats, courseRoster, listUsers } from '#db/admin.ts'
import { seedDemoData } from '#db/seed.ts'
import { findTenantBySlug } from '#db/tenants.ts'
import { createTestDatabase, DIALECTS, execRaw, type TestDatabase } from '#tests/support/databases.ts'

const USERS = Number(process.env.BENCH_USERS ?? 100_000)
const ENTRIES = ['what-is-http', 'html-forms', 'basics-quiz', 'progressive-enhancement', 'build-a-form']
// Five entries of intro-to-web and five of a second course: two progress rows per user and entry pair, a million in all.
const OTHER = ['o1', 'o2', 'o3', 'o4', 'o5']
const RUNS = 7

async function seedScale(db: TestDatabase, tenantId: string) {
	const started = performance.now()
	const ts = db.dialect === 'pg' ? (expr: string) => `(timestamp '2026-01-01' + (${expr}) * interval '1 second')` : (expr: string) => `(1767225600000 + (${expr}) * 1000)`
	const series =
		db.dialect === 'pg'
			? `generate_series(1, ${USERS}) AS s(n)`
			: `(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${USERS}) SELECT n FROM s) AS s`
	const empty = db.dialect === 'pg' ? 'NULL' : `''`
	const statements = [
		`INSERT INTO users (id, tenant_id, email, password_hash, role, name, locale, email_verified_at, token_version, deactivated_at, created_at, updated_at)
		 SELECT 'bu-' || n, '${tenantId}', 'bench-' || n || '@acme.test', ${empty},
		        CASE WHEN n % 100 = 0 THEN 'course_admin' ELSE 'student' END, 'Bench Learner ' || n, 'en',
		        CASE WHEN n % 10 = 0 THEN NULL ELSE ${ts('n')} END, 0,
		        CASE WHEN n % 50 = 0 THEN ${ts('n')} ELSE NULL END, ${ts('n')}, ${ts('n')}
		 FROM ${series}`,
		`INSERT INTO enrollments (id, user_id, tenant_id, course_slug, status, enrolled_at, completed_at)
		 SELECT 'be-' || n, 'bu-' || n, '${tenantId}', 'intro-to-web', CASE WHEN n % 7 = 0 THEN 'completed' ELSE 'active' END, ${ts('n')}, NULL FROM ${series}`,
		...[...ENTRIES.map((e) => ['intro-to-web', e]), ...OTHER.map((e) => ['other-course', e])].map(
			([course, entry], i) =>
				`INSERT INTO entry_progress (id, user_id, tenant_id, course_slug, entry_slug, completed_at, last_viewed_at)
				 SELECT 'bp-${i}-' || n, 'bu-' || n, '${tenantId}', '${course}', '${entry}', CASE WHEN n % ${i + 2} = 0 THEN NULL ELSE ${ts('n')} END, ${ts('n')} FROM ${series}`,
		),
		`INSERT INTO quiz_attempts (id, user_id, tenant_id, course_slug, entry_slug, attempt_number, score, passed, answers_json, feedback_json, started_at, submitted_at)
		 SELECT 'bq-' || n, 'bu-' || n, '${tenantId}', 'intro-to-web', 'basics-quiz', 1, (n * 37) % 101, ((n * 37) % 101) >= 70, '{}', '[]', ${ts('n')}, ${ts('n')} FROM ${series}`,
	]
	for (const statement of statements) await execRaw(db, statement)
	if (db.dialect === 'pg') await execRaw(db, 'ANALYZE')
	else await execRaw(db, 'ANALYZE')
	return performance.now() - started
}

async function time(fn: () => Promise<unknown>) {
	const samples: number[] = []
	for (let i = 0; i < RUNS; i++) {
		const t = performance.now()
		await fn()
		samples.push(performance.now() - t)
	}
	samples.sort((a, b) => a - b)
	return { median: samples[Math.floor(RUNS / 2)], max: samples[RUNS - 1] }
}

const results: Array<Record<string, string | number>> = []
for (const dialect of DIALECTS) {
	const db = await createTestDatabase(dialect)
	try {
		await seedDemoData(db, 'bench-password-123')
		const acme = (await findTenantBySlug(db, 'acme'))!
		const seedMs = await seedScale(db, acme.id)
		const [{ n: progressRows }] = (await db.orm.select({ n: sql<number>`count(*)` }).from(db.t.entry_progress)) as Array<{ n: number }>
		console.log(`${dialect}: seeded ${USERS} users and ${progressRows} progress rows in ${(seedMs / 1000).toFixed(1)} s`)
		const cases: Array<[string, () => Promise<unknown>]> = [
			['users: first page', () => listUsers(db, { tenantId: acme.id })],
			['users: page 1,000 (offset 49,950)', () => listUsers(db, { tenantId: acme.id, page: 1000 })],
			['users: search "bench-99999"', () => listUsers(db, { tenantId: acme.id, q: 'bench-99999' })],
			['users: role course_admin', () => listUsers(db, { tenantId: acme.id, role: 'course_admin' })],
			['users: status deactivated', () => listUsers(db, { tenantId: acme.id, status: 'deactivated' })],
			['dashboard: per-entry analytics', () => courseEntryStats(db, acme.id, 'intro-to-web')],
			['dashboard: roster page 1 with progress and results', () => courseRoster(db, acme.id, 'intro-to-web', 1)],
		]
		for (const [name, fn] of cases) {
			const { median, max } = await time(fn)
			results.push({ dialect, query: name, medianMs: Number(median.toFixed(1)), maxMs: Number(max.toFixed(1)) })
			console.log(`${dialect.padEnd(6)} ${name.padEnd(52)} median ${median.toFixed(1).padStart(7)} ms   max ${max.toFixed(1).padStart(7)} ms`)
		}
	} finally {
		await db.drop()
	}
}
mkdirSync('.tmp/bench', { recursive: true })
writeFileSync('.tmp/bench/admin-scale.json', `${JSON.stringify({ users: USERS, runs: RUNS, results }, null, 2)}\n`)
console.log('written to .tmp/bench/admin-scale.json')
