/**
 * Fault: the process is told to stop (SIGTERM) while it serves (issue 26,
 * case 5). A request under way on a keep-alive connection finishes, with
 * `Connection: close`, and the connection is closed after it, so the client
 * sends its next request elsewhere; idle connections close at once; the
 * process exits 0; a request still running at DRAIN_TIMEOUT_SECONDS is cut.
 */
import { Agent, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { startCms } from '#cms/server.ts'
import { enqueue } from '#app/jobs.server.ts'
import { openDatabase } from '#db/client.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startAppProcess } from '#tests/support/process.ts'
import { reportFault, sleep } from './support.ts'

const ACME = 'acme.localhost'

/** A GET over `agent`, with the socket it went over. */
function get(port: number, path: string, agent: Agent) {
	return new Promise<{
		status: number
		connection?: string
		socketClosed: Promise<number>
		error?: string
		ms: number
	}>((resolve) => {
		const started = Date.now()
		const req = httpRequest({ host: '127.0.0.1', port, path, agent, headers: { host: `${ACME}:${port}` } }, (res) => {
			const socket = res.socket
			const socketClosed = new Promise<number>((r) => socket.once('close', () => r(Date.now())))
			res.resume()
			res.on('end', () =>
				resolve({
					status: res.statusCode ?? 0,
					connection: res.headers.connection,
					socketClosed,
					ms: Date.now() - started,
				}),
			)
		})
		req.on('error', (error) =>
			resolve({ status: 0, error: String(error), socketClosed: Promise.resolve(Date.now()), ms: Date.now() - started }),
		)
		req.end()
	})
}

describe.each(DIALECTS.filter((d) => d === 'sqlite'))('draining on SIGTERM (%s)', () => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	beforeAll(async () => {
		db = await createTestDatabase('sqlite')
		await seedDemoData(db, DEMO_PASSWORD)
		await db.close()
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
	})
	afterAll(async () => {
		cms.faults.delayMs = 0
		await cms?.close()
		await db?.drop()
	})

	it('finishes what is under way with Connection: close, closes every connection, exits 0', async () => {
		const app = await startAppProcess({ DATABASE_URL: db.url, CMS_API_URL: cms.url })
		// A keep-alive connection that served one request and now idles, and another whose request is slow.
		const [idleAgent, agent] = [new Agent({ keepAlive: true }), new Agent({ keepAlive: true })]
		const idle = await get(app.port, '/api/health/live', idleAgent)
		expect(idle.connection).toBe('keep-alive')
		cms.faults.delayMs = 1_500
		const slow = get(app.port, '/blog/welcome', agent)
		await sleep(300)
		const signalled = Date.now()
		app.child.kill('SIGTERM')
		const answer = await slow
		const closedAt = await answer.socketClosed
		const idleClosedAt = await idle.socketClosed
		const code = await app.exited
		const exitedAt = Date.now()
		cms.faults.delayMs = 0
		agent.destroy()
		idleAgent.destroy()
		reportFault('drain after SIGTERM', 'sqlite', {
			'request under way': `${answer.status} with Connection: ${answer.connection}`,
			'its connection closed after the answer': `${closedAt - signalled} ms after the signal`,
			'idle connection closed': `${idleClosedAt - signalled} ms after the signal`,
			exit: `${code} after ${exitedAt - signalled} ms`,
		})
		expect(answer.status).toBe(200)
		expect(answer.connection).toBe('close')
		expect(idleClosedAt - signalled).toBeLessThan(500)
		expect(code).toBe(0)
		expect(exitedAt - signalled).toBeLessThan(5_000)
	}, 60_000)

	it('starts no job once told to stop: one queued while it drains waits for the next process', async () => {
		const app = await startAppProcess({ DATABASE_URL: db.url, CMS_API_URL: cms.url })
		const agent = new Agent({ keepAlive: true })
		cms.faults.delayMs = 2_000
		const slow = get(app.port, '/learn/course/intro-to-web', agent)
		await sleep(300)
		app.child.kill('SIGTERM')
		await sleep(200)
		// Queued while the process drains (a request under way for 1.5 s more): three polls of 0.5 s would take it.
		const queue = openDatabase(db.url)
		await enqueue(queue, 'files.removeAbandoned', {})
		const answer = await slow
		const code = await app.exited
		cms.faults.delayMs = 0
		agent.destroy()
		const sqlite = queue.orm as unknown as { all(q: unknown): Array<{ attempts: number }>; run(q: unknown): void }
		const [left] = sqlite.all(sql.raw(`select attempts from jobs where name = 'files.removeAbandoned'`))
		sqlite.run(sql.raw('delete from jobs'))
		await queue.close()
		const afterStop = app.output.join('').split('server/stopping')[1] ?? ''
		reportFault('no job after SIGTERM', 'sqlite', {
			'request under way': `${answer.status}`,
			'job queued while draining': left ? `waiting, ${left.attempts} attempts` : 'gone',
		})
		expect(answer.status).toBe(200)
		expect(code).toBe(0)
		expect(left?.attempts).toBe(0)
		expect(afterStop).not.toContain('job/started')
	}, 60_000)

	it('cuts what is still running after DRAIN_TIMEOUT_SECONDS', async () => {
		const app = await startAppProcess({ DATABASE_URL: db.url, CMS_API_URL: cms.url, DRAIN_TIMEOUT_SECONDS: '1' })
		const agent = new Agent({ keepAlive: true })
		cms.faults.delayMs = 6_000
		const slow = get(app.port, '/learn/course/advanced-css', agent)
		await sleep(300)
		const signalled = Date.now()
		app.child.kill('SIGTERM')
		const answer = await slow
		const code = await app.exited
		const cutAfter = Date.now() - signalled
		cms.faults.delayMs = 0
		agent.destroy()
		reportFault('drain limit', 'sqlite', {
			'request longer than the limit': answer.error ? 'cut' : `answered ${answer.status}`,
			exit: `${code} after ${cutAfter} ms`,
		})
		expect(answer.status).toBe(0)
		expect(code).toBe(0)
		expect(cutAfter).toBeLessThan(3_000)
	}, 60_000)
})
