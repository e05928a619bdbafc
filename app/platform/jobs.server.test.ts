import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/support/databases.ts'
import type { Email } from './mailer.server.ts'
import { jobRunner, type JobDeps } from './jobs.server.ts'

// The runner knows no kind of job (each room declares its own, app/jobs.server.ts joins them): these
// pin what it does with any, the `job/done` line an operator reads included. Its mails are recorded
// once per job (decision 0058): a database to record them in.

type Payloads = { 'mail.two': { to: string[] }; 'quiet.one': Record<string, never> }

const accepted = (email: Email) => email.to !== 'refused@example.test'
let db: TestDatabase
let run: ReturnType<typeof jobRunner<JobDeps, Payloads>>
beforeAll(async () => {
	db = await createTestDatabase('sqlite')
	const deps = {
		db,
		cms: null,
		mailer: { send: async (email: Email) => accepted(email) },
	} as unknown as JobDeps
	run = jobRunner<JobDeps, Payloads>(
		{
			async 'mail.two'(d, job) {
				for (const to of job.to) await d.mailer.send({ kind: 'verification', to, subject: 's', text: 't', html: 'h' })
				return 'sent what it could'
			},
			async 'quiet.one'() {},
		},
		deps,
	)
})
afterAll(() => db?.drop())

function logLines() {
	const lines: Record<string, unknown>[] = []
	vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(JSON.parse(String(line))))
	return lines
}

afterEach(() => vi.restoreAllMocks())

describe('jobRunner', () => {
	it('logs job/done with the mails a transport accepted and the handler note', async () => {
		const lines = logLines()
		await run({ id: 'j1', name: 'mail.two', attempt: 1, payload: { to: ['a@example.test', 'refused@example.test'] } })
		expect(lines).toEqual([
			expect.objectContaining({ event: 'job/done', job: 'mail.two', id: 'j1', mails: 1, note: 'sent what it could' }),
		])
	})

	it('logs no note when the handler answers none', async () => {
		const lines = logLines()
		await run({ id: 'j2', name: 'quiet.one', attempt: 2, payload: {} })
		expect(lines).toHaveLength(1)
		expect(lines[0]).toMatchObject({ event: 'job/done', job: 'quiet.one', id: 'j2', mails: 0 })
		expect(lines[0]).not.toHaveProperty('note')
	})

	it.each(['mail.unknown', 'toString', 'constructor', '__proto__', 'MAIL.TWO', 'mail.two '])(
		'fails the attempt of a kind it has no handler for (%j), logging nothing',
		async (name) => {
			const lines = logLines()
			await expect(run({ id: 'j3', name, attempt: 1, payload: {} })).rejects.toThrow(`no handler for job ${name}`)
			expect(lines).toEqual([])
		},
	)
})
