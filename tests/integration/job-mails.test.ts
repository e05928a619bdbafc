import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId } from '#db/ids.ts'
import { sendMailOnce } from '#db/job-mails.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'

/*
 * A job's mail sent once across its attempts (decision 0058): the record in job_mails, on both
 * dialects; on PostgreSQL an attempt of the same job meanwhile waits on the one sending. The faults
 * suite shows it with processes (tests/faults/queue.test.ts, a process frozen past the job timeout).
 */
describe.each(DIALECTS)('a job’s mail once across its attempts on %s', (dialect) => {
	let db: TestDatabase
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
	})
	afterAll(async () => {
		await db?.drop()
	})
	const sender = (answer: boolean, waitMs = 0) => {
		const calls: number[] = []
		const send = async () => {
			calls.push(Date.now())
			await new Promise((r) => setTimeout(r, waitMs))
			return answer
		}
		return { calls, send }
	}

	it('sends it; a later attempt of the job finds it sent and sends nothing', async () => {
		const key = { jobId: newId(), seq: 0 }
		const first = sender(true)
		expect(await sendMailOnce(db, key, first.send)).toBe('sent')
		const again = sender(true)
		expect(await sendMailOnce(db, key, again.send)).toBe('already-sent')
		expect(again.calls).toHaveLength(0)
		// The job's next mail is another.
		expect(await sendMailOnce(db, { ...key, seq: 1 }, sender(true).send)).toBe('sent')
	})

	it('a mail every transport refused leaves no record: the next attempt sends it', async () => {
		const key = { jobId: newId(), seq: 0 }
		expect(await sendMailOnce(db, key, sender(false).send)).toBe('refused')
		const retry = sender(true)
		expect(await sendMailOnce(db, key, retry.send)).toBe('sent')
		expect(retry.calls).toHaveLength(1)
	})

	it.runIf(dialect === 'pg')(
		'an attempt meanwhile waits for the one sending: sent, it sends nothing; refused, it sends',
		async () => {
			for (const firstAnswer of [true, false]) {
				const key = { jobId: newId(), seq: 0 }
				const first = sender(firstAnswer, 600)
				const sending = sendMailOnce(db, key, first.send)
				await new Promise((r) => setTimeout(r, 150))
				const second = sender(true)
				const [a, b] = await Promise.all([sending, sendMailOnce(db, key, second.send)])
				expect(a).toBe(firstAnswer ? 'sent' : 'refused')
				expect(b).toBe(firstAnswer ? 'already-sent' : 'sent')
				expect(second.calls).toHaveLength(firstAnswer ? 0 : 1)
				// The second waited for the first's end, never sending beside it.
				if (!firstAnswer) expect(second.calls[0] - first.calls[0]).toBeGreaterThanOrEqual(550)
			}
		},
	)
})
