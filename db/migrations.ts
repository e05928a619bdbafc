// Migrating a database: the committed migrations of its dialect, and on PostgreSQL the job queue's
// schema. Apart from client.ts so that opening a database (every route module's import) never
// reaches pg-boss, and no module imports back the one that imports it.
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/postgres-js'
import { migrate as migratePg } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import type { Database } from './client.ts'
import { installPgQueue } from './jobs.ts'

const migrationsRoot = fileURLToPath(new URL('../drizzle/', import.meta.url))

export async function migrateDatabase(db: Database) {
	if (db.dialect === 'pg') {
		// A session-level advisory lock on a dedicated connection lets only one
		// of several processes starting together run the migrations.
		// No answer deadline: waiting for the lock while another process migrates is the point. A
		// connection that cannot be made fails within 5 s, and db/migrate.ts tries again.
		const client = postgres(db.url, { max: 1, onnotice: () => {}, connect_timeout: 5 })
		const orm = drizzlePg(client)
		try {
			await orm.execute(sql`select pg_advisory_lock(727001)`)
			await migratePg(orm, { migrationsFolder: resolve(migrationsRoot, 'pg') })
			// The job queue's tables (pg-boss's own schema) are part of a migrated database, so a change
			// and its mail job are written together from the first request on (decision 0033).
			await installPgQueue(db.url)
			await orm.execute(sql`select pg_advisory_unlock(727001)`)
		} finally {
			await client.end({ timeout: 5 })
		}
	} else {
		migrateSqlite(db.orm as never, { migrationsFolder: resolve(migrationsRoot, 'sqlite') })
	}
}
