// `npm run dev` as a newcomer meets it: a clone with no build, the app served from source through
// Vite, and an edit to a route showing on the next request without a restart.
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { openDatabase } from '#db/client.ts'
import { migrateDatabase } from '#db/migrations.ts'
import { seedDemoData } from '#db/seed.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { freePort, request } from '#tests/support/http.ts'

// What a clone has: every tracked top-level entry (so no build/, no .env, no node_modules).
const SOURCES = [
	...new Set(
		execFileSync('git', ['ls-files'], { encoding: 'utf8' })
			.split('\n')
			.filter(Boolean)
			.map((path) => path.split('/')[0]),
	),
]

describe('npm run dev on a clone without a build', () => {
	const dir = mkdtempSync(join(tmpdir(), 'lms-dev-'))
	const output: string[] = []
	let port = 0
	let stop = async () => {}

	beforeAll(async () => {
		for (const entry of SOURCES) cpSync(resolve(entry), join(dir, entry), { recursive: true })
		symlinkSync(resolve('node_modules'), join(dir, 'node_modules'))
		const file = join(dir, 'dev.sqlite')
		const db = openDatabase(`file:${file}`)
		await migrateDatabase(db)
		await seedDemoData(db, DEMO_PASSWORD)
		await db.close()
		const cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		port = await freePort()
		const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
			cwd: dir,
			env: {
				PATH: process.env.PATH,
				NODE_ENV: 'development',
				PORT: String(port),
				AUTH_URL: `http://localhost:${port}`,
				DATABASE_URL: `file:${file}`,
				CMS_API_URL: cms.url,
				EMAIL_FROM: 'noreply@lms.test',
				APP_BASE_DOMAIN: 'localhost',
				RATE_LIMIT_DRIVER: 'memory',
				SEED_DEMO_PASSWORD: DEMO_PASSWORD,
				...TEST_SECRETS,
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		child.stdout.on('data', (d) => output.push(String(d)))
		child.stderr.on('data', (d) => output.push(String(d)))
		const exited = new Promise((r) => child.on('exit', r))
		stop = async () => {
			child.kill('SIGTERM')
			await exited
			await cms.close()
		}
		const deadline = Date.now() + 90_000
		while (!output.join('').includes('dev server on')) {
			if (Date.now() > deadline || child.exitCode !== null) throw new Error(`dev did not start:\n${output.join('')}`)
			await new Promise((r) => setTimeout(r, 200))
		}
	}, 120_000)

	afterAll(async () => {
		await stop()
		rmSync(dir, { recursive: true, force: true })
	})

	it('serves pages and public files from source, and shows an edited route on the next request', async () => {
		const page = await request(port, 'acme.localhost', '/learn')
		expect(page.status, output.join('')).toBe(200)
		expect(page.text).toContain('<title>Courses · Acme Academy')
		// public/, with no build/client beside it.
		expect((await request(port, 'acme.localhost', '/favicon.ico')).status).toBe(200)

		const route = join(dir, 'app/routes/learn.tsx')
		const source = readFileSync(route, 'utf8')
		const heading = 'A heading edited while the server runs'
		writeFileSync(route, source.replace('<h1>', `<h1 data-edited="${heading}">`))
		const deadline = Date.now() + 20_000
		let edited = ''
		while (!edited.includes(heading) && Date.now() < deadline) {
			edited = (await request(port, 'acme.localhost', '/learn')).text
			if (!edited.includes(heading)) await new Promise((r) => setTimeout(r, 250))
		}
		expect(edited).toContain(heading)
	}, 90_000)
})
