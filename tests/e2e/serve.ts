// The stack the Playwright suite runs against: a fresh SQLite database,
// migrated and seeded, the local content service and the built app.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { startCms } from '#cms/server.ts'
import { openDatabase } from '#db/client.ts'
import { migrateDatabase } from '#db/migrations.ts'
import { seedDemoData } from '#db/seed.ts'
import { DEMO_PASSWORD, TEST_SECRETS, testEnv } from '#tests/support/env.ts'
import { loadBuiltServer } from '#tests/support/stack.ts'
import { startMailSink } from '#tests/support/mail.ts'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)

// Lighthouse's run (tests/lighthouse/run.ts) starts its own in another directory.
const dir = resolve(process.env.E2E_DIR ?? '.tmp/e2e')
const file = `${dir}/e2e.sqlite`
rmSync(dir, { recursive: true, force: true })
const db = openDatabase(`file:${file}`)
await migrateDatabase(db)
await seedDemoData(db, DEMO_PASSWORD)

// Delivered mail, one JSON line per message, for the browser tests to read links from.
mkdirSync(dir, { recursive: true })
const mail = await startMailSink((m) => appendFileSync(`${dir}/mail.jsonl`, `${JSON.stringify(m)}\n`))

const cms = await startCms({
	apiKey: TEST_SECRETS.CMS_API_UUID,
	projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
	port: E2E_PORT + 1,
})
const { listen } = await loadBuiltServer()
const env = testEnv({
	CMS_API_URL: cms.url,
	DATABASE_URL: `file:${file}`,
	AUTH_URL: `http://localhost:${E2E_PORT}`,
	SMTP_HOST: '127.0.0.1',
	SMTP_PORT: String(mail.port),
	// The integrations walk adds a webhook endpoint on a receiver of its own on loopback (decision 0072).
	WEBHOOK_ALLOW_LOOPBACK: 'true',
})
await listen({ env, db, port: E2E_PORT, host: '127.0.0.1' })
console.log(`e2e stack on http://localhost:${E2E_PORT}`)
