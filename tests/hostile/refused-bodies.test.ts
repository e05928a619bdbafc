// A body the app refuses without reading it, from a client that goes on sending: the app in its own
// process, so an uncaught exception ends it as it would in production (in-process, vitest would only
// report it). The request adapter kept enqueueing into the cancelled body and threw from its 'data'
// listener (patches/@remix-run+node-fetch-server+0.13.3.patch).
import { once } from 'node:events'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { seedDemoData } from '#db/seed.ts'
import { multipartBody } from '#tests/support/client.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { request } from '#tests/support/http.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'

const ACME = 'acme.localhost'

describe.each(DIALECTS)('refused bodies from a client that goes on sending (%s)', (dialect) => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	let app: AppProcess
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		await seedDemoData(db, DEMO_PASSWORD)
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		app = await startAppProcess({ DATABASE_URL: db.url, CMS_API_URL: cms.url })
	}, 90_000)
	afterAll(async () => {
		app?.child.kill('SIGKILL')
		await cms?.close()
		await db?.drop()
	})

	it('answers a multipart post to a lesson with 415 and stays up while the rest of the body arrives', async () => {
		const signIn = await request(app.port, ACME, '/learn/sign-in', {
			method: 'POST',
			body: new URLSearchParams({ email: 'learner@acme.test', password: DEMO_PASSWORD }).toString(),
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${ACME}:${app.port}` },
		})
		const cookie = String(signIn.headers['set-cookie']).match(/lms_session=[^;]+/)![0]
		const file = { name: 'a.txt', body: Buffer.alloc(4 * 1024 * 1024, 'a') }
		const { body, contentType } = await multipartBody({ intent: 'complete' }, [file])

		const socket = connect(app.port, '127.0.0.1')
		await once(socket, 'connect')
		let answer = ''
		socket.on('data', (chunk) => (answer += String(chunk)))
		// A reset once the server closes its side is the client's concern, not the server's.
		socket.on('error', () => {})
		socket.write(
			`POST /learn/course/intro-to-web/entry/what-is-http HTTP/1.1\r\nHost: ${ACME}:${app.port}\r\n` +
				`Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\nCookie: ${cookie}\r\n` +
				`Origin: http://${ACME}:${app.port}\r\n\r\n`,
		)
		socket.write(body.subarray(0, 65_536))
		const deadline = Date.now() + 15_000
		while (!answer.includes('\r\n\r\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
		expect(answer).toMatch(/^HTTP\/1\.1 415 /)
		// The rest of the body, after the answer, in pieces as a slow link sends them.
		for (let at = 65_536; at < body.length && !socket.destroyed; at += 65_536) {
			socket.write(body.subarray(at, at + 65_536))
			await new Promise((r) => setTimeout(r, 5))
		}
		socket.destroy()
		await new Promise((r) => setTimeout(r, 300))

		expect(app.child.exitCode, app.output.join('')).toBeNull()
		expect((await request(app.port, ACME, '/api/health/live')).status).toBe(200)
		expect(app.output.join('')).not.toContain('Controller is already closed')
	}, 60_000)
})
