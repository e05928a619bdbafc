import { defineConfig } from 'drizzle-kit'

// One schema and one migrations folder per dialect; `npm run db:generate` runs both.
export default process.env.DRIZZLE_DIALECT === 'sqlite'
	? defineConfig({
			dialect: 'sqlite',
			// The job table is SQLite's alone (db/schema/sqlite-jobs.ts); PostgreSQL's queue is pg-boss's.
			schema: ['./db/schema/sqlite.ts', './db/schema/sqlite-jobs.ts'],
			out: './drizzle/sqlite',
		})
	: defineConfig({ dialect: 'postgresql', schema: './db/schema/pg.ts', out: './drizzle/pg' })
