// Two builds of the app side by side on the signed-in learner pages (issue 47): the current build
// against another one (an earlier commit's), each in its own process over one seeded SQLite database
// and one content service, the same learner and cookie, asked in alternation (A/B/A/B/A/B). A machine
// shared with other work moves both alike, so the ratio is the figure; absolute rates are not.
//
//   git worktree add /tmp/base <commit> && (cd /tmp/base && ln -s "$PWD/node_modules" . && npm run build)
//   npm run build && BENCH_BASE=/tmp/base npx tsx bench/builds.ts
//
// Settings: BENCH_BASE the other checkout (its build/ and server.js), BENCH_DURATION seconds per run
// (5), BENCH_ROUNDS (3), BENCH_PAGES the pages by name, comma-separated (all), BENCH_PROFILE=1 also writes a --cpu-prof of each build under the load of
// each page to .tmp/bench/builds-prof/<build>-<page>/.
process.env.NODE_ENV = 'production'
const { cpSync, mkdirSync, rmSync } = await import('node:fs')
const { join } = await import('node:path')
const { eq } = await import('drizzle-orm')
const { startCms } = await import('#cms/server.ts')
const { seedDemoData } = await import('#db/seed.ts')
const { createTestDatabase } = await import('#tests/support/databases.ts')
const { DEMO_PASSWORD, TEST_SECRETS } = await import('#tests/support/env.ts')
const { APP_DIR, appEnv, appVariables, load, sessionCookie, sideBySide, snapshotBuild, spawnApp } =
	await import('./support.ts')

const BASE = process.env.BENCH_BASE
if (!BASE) throw new Error('BENCH_BASE: the checkout of the other build')
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PAGES = (
	[
		['entry view', '/learn/course/intro-to-web/entry/what-is-http'],
		['course home', '/learn/course/intro-to-web'],
		['dashboard', '/learn/dashboard'],
	] satisfies Array<[string, string]>
).filter(([name]) => !process.env.BENCH_PAGES || process.env.BENCH_PAGES.split(',').includes(name))
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en' }
const CONNECTIONS = 16
const BASE_DIR = '.tmp/bench/base-app'

await snapshotBuild()
rmSync(BASE_DIR, { recursive: true, force: true })
cpSync(join(BASE, 'build'), `${BASE_DIR}/build`, { recursive: true })
cpSync(join(BASE, 'server.js'), `${BASE_DIR}/server.js`)

const cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
const db = await createTestDatabase('sqlite')
await seedDemoData(db, DEMO_PASSWORD)
const variables = appVariables({ DATABASE_URL: db.url, CMS_API_URL: cms.url })
const [learner] = await db.orm.select().from(db.t.users).where(eq(db.t.users.email, 'learner@acme.test'))
const builds = { current: APP_DIR, base: BASE_DIR }
try {
	const apps = { current: await spawnApp(variables), base: await spawnApp(variables, { appDir: BASE_DIR }) }
	const cookie = await sessionCookie(appEnv({ DATABASE_URL: db.url, CMS_API_URL: cms.url }), db, 0, learner)
	const headers = { ...BROWSER, cookie }
	try {
		for (const [name, path] of PAGES) {
			const r = await sideBySide(
				{ port: apps.current.port, path, headers, connections: CONNECTIONS },
				{ port: apps.base.port, path, headers, connections: CONNECTIONS },
				DURATION,
				ROUNDS,
			)
			console.log(
				`${name} (${path}): current ${r.subject.rps} req/s ${JSON.stringify(r.subject.runs)} p50 ${r.subject.p50} ms, ` +
					`base ${r.baseline.rps} req/s ${JSON.stringify(r.baseline.runs)} p50 ${r.baseline.p50} ms: ratio ${r.ratio.toFixed(2)}` +
					`${r.subject.errors + r.baseline.errors ? ` (errors ${r.subject.errors}/${r.baseline.errors})` : ''}`,
			)
		}
	} finally {
		await apps.current.stop()
		await apps.base.stop()
	}
	if (process.env.BENCH_PROFILE === '1') {
		for (const [build, appDir] of Object.entries(builds))
			for (const [name, path] of PAGES) {
				const dir = `.tmp/bench/builds-prof/${build}-${name.replace(/ /g, '-')}`
				rmSync(dir, { recursive: true, force: true })
				mkdirSync(dir, { recursive: true })
				const app = await spawnApp(variables, { appDir, cpuProfDir: dir })
				try {
					await load({ port: app.port, path, headers, connections: CONNECTIONS, duration: 1 })
					await load({ port: app.port, path, headers, connections: CONNECTIONS, duration: 4 })
				} finally {
					await app.stop()
				}
			}
		console.log('profiles in .tmp/bench/builds-prof/')
	}
} finally {
	await cms.close()
	await db.drop()
}

export {}
