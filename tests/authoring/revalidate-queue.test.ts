import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { startWebhookRecorder, strapiAdmin, within } from '#tests/support/strapi.ts'

// Nothing between authoring and learners is lost (issue 45): the revalidation queue of
// cms/strapi/src/utils/revalidate.ts is a table of Strapi's database, and a webhook is asked again
// until its app answers. First the module itself on Strapi's knex and SQLite, across a "restart"
// (a new queue and a new connection on the same file); then the running Strapi of
// scripts/test-authoring.sh with the apps of LMS_APP_URLS down while an author saves.
const strapiRequire = createRequire(new URL('../../cms/strapi/package.json', import.meta.url))
const knexOf = (filename: string) =>
	strapiRequire('knex')({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true })
// As Strapi compiled it to dist/ (scripts/test-authoring.sh).
const { createRevalidator, TABLE } = strapiRequire('./dist/src/utils/revalidate.js')

const freePort = () =>
	new Promise<number>((resolve) => {
		const s = createServer().listen(0, '127.0.0.1', () => {
			const { port } = s.address() as { port: number }
			s.close(() => resolve(port))
		})
	})
const quietLog = { warn: () => {}, error: () => {} }

describe('the stored revalidation queue (Strapi knex on SQLite)', () => {
	const dir = mkdtempSync(join(tmpdir(), 'lms-revalidate-'))
	afterAll(() => rmSync(dir, { recursive: true, force: true }))

	it('keeps retrying an app that is down, past any count, and delivers after a restart once it is up', async () => {
		const file = join(dir, 'queue.db')
		const port = await freePort()
		const url = `http://127.0.0.1:${port}`
		const queue = (knex: unknown) =>
			createRevalidator({
				urls: [url],
				secret: 'queue-secret',
				log: quietLog,
				db: { connection: knex },
				delaysMs: [10, 20, 40],
			})

		const before = knexOf(file)
		const first = queue(before)
		await first.start()
		await first.record(['course:a', 'entry:a:x'])
		first.kick()
		// More attempts than the old in-memory queue made before dropping (10), the app still down.
		await within(5000, async () => ((await before(TABLE).first())?.attempts ?? 0) >= 12, 'twelve attempts')
		first.stop()
		await before.destroy()

		const recorder = await startWebhookRecorder(port)
		const after = knexOf(file)
		try {
			expect(await after(TABLE).count('* as n')).toEqual([{ n: 1 }])
			await queue(after).start()
			const delivered = await recorder.waitFor(['course:a'], 0, 3000)
			expect(delivered.body.tags).toEqual(['course:a', 'entry:a:x'])
			expect(delivered.headers['x-cms-webhook-secret']).toBe('queue-secret')
			await within(2000, async () => Number((await after(TABLE).count('* as n'))[0].n) === 0, 'the row deleted')
			expect(recorder.deliveries).toHaveLength(1)
		} finally {
			await after.destroy()
			await recorder.close()
		}
	})

	it('sends changes close together in one request, at most 100 tags each', async () => {
		const port = await freePort()
		const recorder = await startWebhookRecorder(port)
		const knex = knexOf(join(dir, 'batch.db'))
		const q = createRevalidator({
			urls: [`http://127.0.0.1:${port}`],
			secret: 's',
			log: quietLog,
			db: { connection: knex },
		})
		try {
			await q.start()
			await q.record(['course:b'])
			await q.record(['course:c', 'course:b'])
			q.kick()
			expect((await recorder.waitFor(['course:b', 'course:c'])).body.tags).toEqual(['course:b', 'course:c'])
			const many = Array.from({ length: 150 }, (_, i) => `entry:d:e${i}`)
			const from = recorder.deliveries.length
			await q.record(many)
			q.kick()
			await recorder.waitFor(['entry:d:e149'], from)
			await recorder.quiet(200)
			expect(recorder.deliveries.slice(from).map((d) => d.body.tags.length)).toEqual([100, 50])
		} finally {
			q.stop()
			await knex.destroy()
			await recorder.close()
		}
	})
})

describe('the running Strapi stores a change whose apps are down and sends it once they are up', () => {
	// LMS_APP_URLS of scripts/test-authoring.sh: the app's port and the recorder's.
	const urls = (process.env.LMS_APP_URLS ?? '').split(',').sort()

	it('keeps the row in its database until the app answers', async () => {
		const db = new Database(process.env.CMS_DATABASE_FILE!, { readonly: true, timeout: 5000 })
		const author = await strapiAdmin('author@acme.test')
		const slug = `queued-${Date.now()}`
		const stored = () =>
			db.prepare(`SELECT url, attempts FROM ${TABLE} WHERE tags LIKE ? ORDER BY url`).all(`%"course:${slug}"%`) as {
				url: string
				attempts: number
			}[]
		try {
			const created = await author.create('api::course.course', { slug, title: 'Queued', listed: true })
			expect(created.status).toBe(201)
			// One row per app, asked twice already (250 and 500 ms apart), nobody listening.
			await within(5000, async () => stored().length === 2 && stored().every((r) => r.attempts >= 2), 'two attempts')
			expect(stored().map((r) => r.url)).toEqual(urls)

			const recorders = await Promise.all(urls.map((u) => startWebhookRecorder(Number(new URL(u).port))))
			try {
				for (const r of recorders) {
					const hit = await r.waitFor([`course:${slug}`], 0, 8000)
					expect(hit.headers['x-cms-webhook-secret']).toBe(TEST_SECRETS.CMS_WEBHOOK_SECRET)
				}
				await within(2000, async () => stored().length === 0, 'the rows deleted')
				// Cleaned up while the apps listen, so nothing of this test waits for the next file's.
				const from = recorders.map((r) => r.deliveries.length)
				expect((await author.remove('api::course.course', created.body.data.documentId)).status).toBe(200)
				await Promise.all(recorders.map((r, i) => r.waitFor([`course:${slug}`], from[i])))
			} finally {
				await Promise.all(recorders.map((r) => r.close()))
			}
		} finally {
			db.close()
		}
	})
})
