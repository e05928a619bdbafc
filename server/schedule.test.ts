import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueueScheduledJob, unfinishedJobs } from '#db/jobs.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'

/*
 * The schedule's one job per period (decision 0047): however many processes ask at once, the queue
 * keeps one; the next period's is another.
 */
describe.each(DIALECTS)('enqueueScheduledJob on %s', (dialect) => {
	let db: TestDatabase
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
	}, 60_000)
	afterAll(async () => {
		await db?.drop()
	})

	it('writes one job per period, whoever asks and however often', async () => {
		const slot = new Date('2026-11-26T05:00:00Z')
		const asked = await Promise.all(Array.from({ length: 8 }, () => enqueueScheduledJob(db, 'reminders.sweep', slot)))
		expect(asked.filter(Boolean)).toHaveLength(1)
		expect(await unfinishedJobs(db)).toBe(1)
		// PostgreSQL: the next period's is a job of its own even while the first waits. SQLite (one process):
		// none while one is unfinished.
		const next = await enqueueScheduledJob(db, 'reminders.sweep', new Date(slot.getTime() + 900_000))
		expect(next).toBe(dialect === 'pg')
	})
})
