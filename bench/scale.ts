// Scenario 5: the same pages and admin queries on a small and a large data
// set, side by side. Each data set gets its own database and its own app
// (the production build's listen, in this process) on a database handle that
// counts the SQL statements it sends; requests are sequential and alternate
// between the two apps, so each page's server time and query count are exact
// and drifting machine load hits both sizes alike.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { eq } from 'drizzle-orm'
import { listUsers } from '#db/admin.ts'
import { courseEntryStats, courseRoster } from '#db/course-roster.ts'
import { openDatabase, type Database, type Dialect } from '#db/client.ts'
import { seedDemoData } from '#db/seed.ts'
import type { User } from '#db/users.ts'
import { createTestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { lastPageCursor, seedScale, userCursorAt } from './scale-data.ts'
import {
	appEnv,
	get,
	loadSnapshotServer,
	median,
	percentile,
	profileHere,
	sessionCookie,
	SNAPSHOT_CLIENT_DIR,
} from './support.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

export const SCALE_PAGES: Array<{ path: string; as: 'learner' | 'admin' }> = [
	{ path: '/learn/dashboard', as: 'learner' },
	{ path: '/learn/course/intro-to-web', as: 'learner' },
	{ path: '/learn/course/intro-to-web/entry/what-is-http', as: 'learner' },
	{ path: '/admin', as: 'admin' },
	{ path: '/admin/users', as: 'admin' },
	// Keyset pages: {second} and {last} stand for the cursors of each data set (see cursors below).
	{ path: '/admin/users?after={second}', as: 'admin' },
	{ path: '/admin/users?after={last}', as: 'admin' },
	{ path: '/admin/users?q=bench-9999', as: 'admin' },
	{ path: '/admin/users?role=course_admin', as: 'admin' },
	{ path: '/admin/users?status=deactivated', as: 'admin' },
	{ path: '/admin/courses/intro-to-web/dashboard', as: 'admin' },
	{ path: '/admin/audit', as: 'admin' },
]

export const SCALE_QUERIES = [
	'users: first page (with total)',
	'users: last page (keyset, after all but the oldest 50)',
	'users: search by part of an email',
	'users: role filter',
	'users: status filter (deactivated)',
	'dashboard: per-entry analytics',
	'dashboard: roster page 1 with progress and results',
] as const

interface Stats {
	p50: number
	p95: number
}
export interface PageStats extends Stats {
	queriesMin: number
	queriesMax: number
	status: number
}

/** One seeded data set with its own app: 100 tenants, `users` users, ten progress rows each. */
async function openDataSet(dialect: Dialect, users: number, cmsUrl: string) {
	const db = await createTestDatabase(dialect)
	let queryCount = 0
	let captured: Array<{ sql: string; params: unknown[] }> | null = null
	const counting = openDatabase(db.url, {
		onQuery: (sql, params) => {
			queryCount++
			captured?.push({ sql, params })
		},
	})
	try {
		await seedDemoData(db, DEMO_PASSWORD)
		const acme = (await findTenantBySlug(db, 'acme'))!
		const seedMs = await seedScale(db, { users, tenantId: acme.id, extraTenants: 99 })
		const progressRows = await db.orm.$count(db.t.entry_progress)
		const env = appEnv({ DATABASE_URL: db.url, CMS_API_URL: cmsUrl })
		const { listen } = await loadSnapshotServer()
		const app = await listen({ env, db: counting, port: 0, host: '127.0.0.1', clientDir: SNAPSHOT_CLIENT_DIR })
		let serverMs = 0
		app.server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
			const t = performance.now()
			res.on('finish', () => (serverMs = performance.now() - t))
		})
		const userBy = async (email: string) =>
			(await db.orm.select().from(db.t.users).where(eq(db.t.users.email, email)))[0] as User
		const cookies = {
			learner: await sessionCookie(env, db, app.port, await userBy('learner@acme.test')),
			admin: await sessionCookie(env, db, app.port, await userBy('admin@acme.test')),
		}
		// The users list's cursors: the last user of the first page, and the one after which the last 50 follow.
		const cursors = { second: await userCursorAt(db, acme.id, 49), last: await lastPageCursor(db, acme.id) }
		const queries: Record<(typeof SCALE_QUERIES)[number], (on: Database) => Promise<unknown>> = {
			'users: first page (with total)': (on) => listUsers(on, { tenantId: acme.id }),
			'users: last page (keyset, after all but the oldest 50)': (on) =>
				listUsers(on, { tenantId: acme.id, after: cursors.last }),
			'users: search by part of an email': (on) => listUsers(on, { tenantId: acme.id, q: 'bench-9999' }),
			'users: role filter': (on) => listUsers(on, { tenantId: acme.id, role: 'course_admin' }),
			'users: status filter (deactivated)': (on) => listUsers(on, { tenantId: acme.id, status: 'deactivated' }),
			'dashboard: per-entry analytics': (on) => courseEntryStats(on, acme.id, 'intro-to-web'),
			'dashboard: roster page 1 with progress and results': (on) => courseRoster(on, acme.id, 'intro-to-web', 1),
		}
		return {
			users,
			progressRows: Number(progressRows),
			seedSeconds: Number((seedMs / 1000).toFixed(1)),
			/** One page request: the server's time for it (request to last byte) and the SQL statements it sent. */
			async page(path: string, as: 'learner' | 'admin') {
				queryCount = 0
				const res = await get(
					app.port,
					path.replace(/\{(second|last)\}/, (_, name: keyof typeof cursors) => cursors[name]),
					{ cookie: cookies[as] },
				)
				return { status: res.status, ms: serverMs, queries: queryCount }
			},
			async query(name: (typeof SCALE_QUERIES)[number]) {
				const t = performance.now()
				await queries[name](db)
				return performance.now() - t
			},
			/** The profile of a query: the plan of each statement it sends, as the database ran it (PostgreSQL: with timings and buffers). */
			async explain(name: (typeof SCALE_QUERIES)[number]) {
				captured = []
				await queries[name](counting)
				const statements = captured
				captured = null
				const plans: string[][] = []
				for (const { sql, params } of statements) {
					if (db.dialect === 'pg') {
						const client = (
							db.orm as unknown as {
								$client: { unsafe(q: string, p: unknown[]): Promise<Array<Record<string, string>>> }
							}
						).$client
						plans.push((await client.unsafe(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).map((r) => r['QUERY PLAN']))
					} else {
						const client = (
							db.orm as unknown as {
								$client: { prepare(q: string): { all(...p: unknown[]): Array<{ detail: string }> } }
							}
						).$client
						plans.push(
							client
								.prepare(`EXPLAIN QUERY PLAN ${sql}`)
								.all(...params)
								.map((r) => r.detail),
						)
					}
				}
				return statements.map((s, i) => ({ sql: s.sql, plan: plans[i] }))
			},
			async close() {
				await app.close()
				await counting.close()
				await db.drop()
			},
		}
	} catch (error) {
		await counting.close()
		await db.drop()
		throw error
	}
}

const round = (ms: number) => Number(ms.toFixed(1))

/**
 * Small and large data sets of the dialect, measured in alternation; then a
 * CPU profile of the large set's page that grew most, when it grew 2x or more,
 * and the query plans of each query timed directly that grew 2x or more.
 */
export async function compareSizes(
	dialect: Dialect,
	sizes: { small: number; large: number },
	cmsUrl: string,
	samples: { pages: number; queries: number },
	maxGrowth: number,
) {
	const small = await openDataSet(dialect, sizes.small, cmsUrl)
	let large: Awaited<ReturnType<typeof openDataSet>> | null = null
	try {
		large = await openDataSet(dialect, sizes.large, cmsUrl)
		const sets = { small, large }
		// Warm-up: every page on both, several times (JIT, content cache).
		for (let i = 0; i < 5; i++)
			for (const { path, as } of SCALE_PAGES) for (const set of [small, large]) await set.page(path, as)
		const pages: Record<string, { small: PageStats; large: PageStats; p95Growth: number }> = {}
		for (const { path, as } of SCALE_PAGES) {
			const seen = {
				small: [] as Array<{ ms: number; queries: number; status: number }>,
				large: [] as Array<{ ms: number; queries: number; status: number }>,
			}
			for (let i = 0; i < samples.pages; i++)
				for (const key of ['small', 'large'] as const) seen[key].push(await sets[key].page(path, as))
			const stats = (list: typeof seen.small): PageStats => ({
				p50: round(median(list.map((s) => s.ms))),
				p95: round(
					percentile(
						list.map((s) => s.ms),
						95,
					),
				),
				queriesMin: Math.min(...list.map((s) => s.queries)),
				queriesMax: Math.max(...list.map((s) => s.queries)),
				status: list.find((s) => s.status !== 200)?.status ?? 200,
			})
			const s = stats(seen.small)
			const l = stats(seen.large)
			pages[path] = { small: s, large: l, p95Growth: Number((l.p95 / Math.max(s.p95, 0.1)).toFixed(2)) }
		}
		const queries: Record<string, { small: Stats; large: Stats; p95Growth: number }> = {}
		for (const name of SCALE_QUERIES) {
			await small.query(name)
			await large.query(name)
			const seen = { small: [] as number[], large: [] as number[] }
			for (let i = 0; i < samples.queries; i++)
				for (const key of ['small', 'large'] as const) seen[key].push(await sets[key].query(name))
			const stats = (list: number[]): Stats => ({ p50: round(median(list)), p95: round(percentile(list, 95)) })
			const s = stats(seen.small)
			const l = stats(seen.large)
			queries[name] = { small: s, large: l, p95Growth: Number((l.p95 / Math.max(s.p95, 0.1)).toFixed(2)) }
		}
		// A query that grew too much is profiled by its plans, on both data sets.
		const plans: Record<string, unknown> = {}
		for (const [name, q] of Object.entries(queries)) {
			if (q.p95Growth < maxGrowth) continue
			const query = name as (typeof SCALE_QUERIES)[number]
			plans[name] = { small: await small.explain(query), large: await large.explain(query) }
		}
		const worst = Object.entries(pages).sort((a, b) => b[1].p95Growth - a[1].p95Growth)[0]
		let profile = null
		if (worst && worst[1].p95Growth >= maxGrowth) {
			const page = SCALE_PAGES.find((p) => p.path === worst[0])!
			profile = {
				page: page.path,
				top: await profileHere(async () => {
					for (let i = 0; i < 20; i++) await large!.page(page.path, page.as)
				}),
			}
		}
		return {
			seedSeconds: { small: small.seedSeconds, large: large.seedSeconds },
			progressRows: { small: small.progressRows, large: large.progressRows },
			users: sizes,
			pages,
			queries,
			profile,
			plans,
		}
	} finally {
		await large?.close()
		await small.close()
	}
}
