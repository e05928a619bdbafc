import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { openDatabase, type Database, type Dialect } from '#db/client.ts'
import { migrateDatabase } from '#db/migrations.ts'

/**
 * The dialects every data-layer and integration test runs on: SQLite always,
 * PostgreSQL whenever TEST_DATABASE_URL is set (CI sets it; an unreachable
 * server then fails the run instead of skipping it).
 */
export const DIALECTS: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'pg'] : ['sqlite']

export interface TestDatabase extends Database {
	drop(): Promise<void>
}

/** A new, empty, migrated database of the dialect, private to the caller. */
/** A new, empty database of the dialect, private to the caller; migrated unless `migrate: false`. */
export async function createTestDatabase(dialect: Dialect, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
	const migrate = options.migrate ?? true
	if (dialect === 'sqlite') {
		const dir = mkdtempSync(join(tmpdir(), 'lms-test-'))
		const db = openDatabase(`file:${join(dir, 'test.sqlite')}`)
		if (migrate) await migrateDatabase(db)
		return {
			...db,
			async drop() {
				await db.close()
				rmSync(dir, { recursive: true, force: true })
			},
		}
	}
	const adminUrl = process.env.TEST_DATABASE_URL
	if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set')
	const name = `lms_test_${randomBytes(6).toString('hex')}`
	const template = migrate ? await migratedTemplate(adminUrl) : null
	const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
	try {
		await admin.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
	} finally {
		await admin.end()
	}
	const db = openDatabase(databaseUrl(adminUrl, name))
	return {
		...db,
		async drop() {
			await db.close()
			const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
			try {
				await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
			} finally {
				await admin.end()
			}
		},
	}
}

function databaseUrl(adminUrl: string, name: string) {
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return url.toString()
}

let template: Promise<string> | null = null

/**
 * The migrated PostgreSQL database that test databases are copied from (CREATE DATABASE … TEMPLATE
 * copies files: a tenth of the time of running the migrations and installing the job queue in each).
 * Its name hashes the migrations and pg-boss's version, so a changed schema gets a new one; the first
 * test process to ask builds it under a temporary name and renames it when complete, while the
 * others wait on an advisory lock.
 */
function migratedTemplate(adminUrl: string) {
	template ??= (async () => {
		const hash = createHash('sha256').update(createRequire(import.meta.url)('pg-boss/package.json').version)
		const walk = (dir: string): string[] =>
			readdirSync(dir, { withFileTypes: true })
				.sort((a, b) => a.name.localeCompare(b.name))
				.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
		for (const file of walk(resolve('drizzle/pg'))) hash.update(file).update(readFileSync(file))
		const name = `lms_template_${hash.digest('hex').slice(0, 16)}`
		const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
		try {
			await admin`select pg_advisory_lock(727002)`
			const [exists] = await admin`select 1 from pg_database where datname = ${name}`
			if (!exists) {
				const building = `${name}_${randomBytes(3).toString('hex')}`
				await admin.unsafe(`CREATE DATABASE ${building}`)
				const db = openDatabase(databaseUrl(adminUrl, building))
				await migrateDatabase(db)
				await db.close()
				await admin.unsafe(`ALTER DATABASE ${building} RENAME TO ${name}`)
			}
		} finally {
			await admin.end()
		}
		return name
	})()
	return template
}

/** Runs one raw SQL statement (fault injection: triggers that make writes fail). */
export async function execRaw(db: Database, statement: string) {
	if (db.dialect === 'pg') await db.orm.execute(sql.raw(statement))
	else (db.orm as unknown as { run(q: unknown): unknown }).run(sql.raw(statement))
}

/** SQL for a FROM item of rows n = 1 … count: generate_series on PostgreSQL, a recursive CTE on SQLite (bulk inserts as INSERT … SELECT). */
export function seriesSql(db: Database, count: number) {
	return db.dialect === 'pg'
		? `generate_series(1, ${count}) AS s(n)`
		: `(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${count}) SELECT n FROM s) AS s`
}
