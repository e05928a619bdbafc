import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'

/**
 * `npm start` and `npm run start:prod` both run server.js: started with no
 * NODE_ENV at all, as a host may, React and React Router must still load
 * their production code (they choose it by NODE_ENV when first loaded).
 */
describe.each(DIALECTS)('a process started without NODE_ENV on %s', (dialect) => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	let app: AppProcess
	beforeAll(async () => {
		db = await createTestDatabase(dialect, { migrate: false })
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		app = await startAppProcess(
			{ NODE_ENV: undefined, DATABASE_URL: db.url, CMS_API_URL: cms.url, SMTP_HOST: '127.0.0.1', SMTP_PORT: '2525' },
			{ script: 'start-prod' },
		)
	}, 90_000)
	afterAll(async () => {
		app?.child.kill('SIGTERM')
		await app?.exited
		await cms?.close()
		await db?.drop()
	})

	it('runs in production mode', () => {
		const listening = app.output
			.join('')
			.split('\n')
			.find((line) => line.includes('server/listening'))
		expect(listening).toBeDefined()
		expect(JSON.parse(listening!)).toMatchObject({ mode: 'production' })
	})
})
