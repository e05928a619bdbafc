// `npm run db:migrate`: applies the committed migrations of DATABASE_URL's dialect.
import { existsSync } from 'node:fs'
import { migrateDatabase, openDatabase } from './client.ts'

if (existsSync('.env')) process.loadEnvFile('.env')
const url = process.env.DATABASE_URL
if (!url) {
	console.error('Configuration error: DATABASE_URL is missing')
	process.exit(1)
}
const db = openDatabase(url, { max: 1 })
try {
	await migrateDatabase(db)
	console.log(`migrated (${db.dialect})`)
} finally {
	await db.close()
}
