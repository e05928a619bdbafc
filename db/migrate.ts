// `npm run db:migrate`: applies the committed migrations of DATABASE_URL's dialect.
import { existsSync } from 'node:fs'
import { isDatabaseUnavailable, openDatabase } from './client.ts'
import { migrateDatabase } from './migrations.ts'

if (existsSync('.env')) process.loadEnvFile('.env')
const url = process.env.DATABASE_URL
if (!url) {
	console.error('Configuration error: DATABASE_URL is missing')
	process.exit(1)
}
// A database that is down, starting, or has no free connection for the migration lock is waited
// for (decision 0035): processes started together with it, or while it restarts, come up once it
// accepts, instead of exiting at once. Any other failure ends the start as before.
const waitMs = (Number(process.env.MIGRATE_WAIT_SECONDS) || 120) * 1000
const started = Date.now()
for (let attempt = 0; ; attempt++) {
	const db = openDatabase(url, { max: 1 })
	try {
		await migrateDatabase(db)
		console.log(`migrated (${db.dialect})`)
		break
	} catch (error) {
		const left = started + waitMs - Date.now()
		if (!isDatabaseUnavailable(error) || left <= 0) throw error
		const delay = Math.min(250 * 2 ** attempt, 5_000, left)
		const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code
		console.error(`database not available (${String(code ?? 'unknown')}); migrating again in ${delay} ms`)
		await new Promise((r) => setTimeout(r, delay))
	} finally {
		await db.close()
	}
}
