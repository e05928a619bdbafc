import { defineConfig } from 'drizzle-kit'

// One schema and one migrations folder per dialect; `npm run db:generate` runs both.
export default process.env.DRIZZLE_DIALECT === 'sqlite'
	? defineConfig({ dialect: 'sqlite', schema: './db/schema/sqlite.ts', out: './drizzle/sqlite' })
	: defineConfig({ dialect: 'postgresql', schema: './db/schema/pg.ts', out: './drizzle/pg' })
