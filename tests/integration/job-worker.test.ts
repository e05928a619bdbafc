import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueueJobSteps } from '#db/jobs.ts'
import { inTransaction } from '#db/transaction.ts'
import { startJobWorker } from '#server/queue.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'

/*
 * The worker drains a backlog without waiting a poll interval after each full batch: an
 * announcement to a course of hundreds writes hundreds of mail jobs at once, and at ten jobs a poll
 * and one poll a second they would take minutes to go out. Both stores (pg-boss and the jobs table).
 */
describe.each(DIALECTS)('the job worker on %s', (dialect) => {
	let db: TestDatabase
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
	})
	afterAll(async () => {
		await db?.drop()
	})

	it('runs a backlog of 45 jobs back to back, then waits its poll interval', async () => {
		await inTransaction(db, function* (tx) {
			for (let i = 0; i < 45; i++) yield* enqueueJobSteps(tx, 'test.backlog', { i })
		})
		const ran: number[] = []
		const started = Date.now()
		// A poll interval far longer than the test: every poll after the first is a full batch's.
		const worker = startJobWorker(
			db,
			{ pollSeconds: 60, retryLimit: 0, retryDelaySeconds: 1, timeoutSeconds: 60 },
			async (job) => {
				ran.push(job.payload.i as number)
			},
		)
		try {
			await worker.idle(20_000)
			expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i))
			expect(Date.now() - started).toBeLessThan(20_000)
			// The last poll took five, fewer than a batch: the worker now sleeps, and a new job waits for it.
			await inTransaction(db, function* (tx) {
				yield* enqueueJobSteps(tx, 'test.backlog', { i: 45 })
			})
			await new Promise((r) => setTimeout(r, 1_500))
			expect(ran).not.toContain(45)
		} finally {
			await worker.stop(5_000)
		}
	})
})
