// Admin pages at scale: seeds 100,000 users and 1,000,000 progress rows into a
// fresh database of each dialect, then times the queries behind /admin/users
// and /admin/courses/<slug>/dashboard (median of several runs each).
//
//   npm run bench:admin                       # SQLite
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:admin   # and PostgreSQL
import { writeFileSync, mkdirSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { listUsers } from '#db/admin.ts'
import { courseEntryStats, courseRoster } from '#db/course-roster.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS } from '#tests/support/databases.ts'
import { lastPageCursor, seedScale } from './scale-data.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

const USERS = Number(process.env.BENCH_USERS ?? 100_000)
const RUNS = 7

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
		const seedMs = await seedScale(db, { users: USERS, tenantId: acme.id })
		const [{ n: progressRows }] = (await db.orm
			.select({ n: sql<number>`count(*)` })
			.from(db.t.entry_progress)) as Array<{ n: number }>
		console.log(
			`${dialect}: seeded ${USERS} users and ${progressRows} progress rows in ${(seedMs / 1000).toFixed(1)} s`,
		)
		const last = await lastPageCursor(db, acme.id)
		const cases: Array<[string, () => Promise<unknown>]> = [
			['users: first page', () => listUsers(db, { tenantId: acme.id })],
			['users: last page (keyset cursor)', () => listUsers(db, { tenantId: acme.id, after: last })],
			['users: search "bench-99999"', () => listUsers(db, { tenantId: acme.id, q: 'bench-99999' })],
			['users: role course_admin', () => listUsers(db, { tenantId: acme.id, role: 'course_admin' })],
			['users: status deactivated', () => listUsers(db, { tenantId: acme.id, status: 'deactivated' })],
			['dashboard: per-entry analytics', () => courseEntryStats(db, acme.id, 'intro-to-web')],
			['dashboard: roster page 1 with progress and results', () => courseRoster(db, acme.id, 'intro-to-web', 1)],
		]
		for (const [name, fn] of cases) {
			const { median, max } = await time(fn)
			results.push({ dialect, query: name, medianMs: Number(median.toFixed(1)), maxMs: Number(max.toFixed(1)) })
			console.log(
				`${dialect.padEnd(6)} ${name.padEnd(52)} median ${median.toFixed(1).padStart(7)} ms   max ${max.toFixed(1).padStart(7)} ms`,
			)
		}
	} finally {
		await db.drop()
	}
}
mkdirSync('.tmp/bench', { recursive: true })
writeFileSync('.tmp/bench/admin-scale.json', `${JSON.stringify({ users: USERS, runs: RUNS, results }, null, 2)}\n`)
console.log('written to .tmp/bench/admin-scale.json')
