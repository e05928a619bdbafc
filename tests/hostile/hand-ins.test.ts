/**
 * Hostile class: hand-in bodies (issue 36, item 7). Malformed multipart (truncated, another boundary,
 * duplicated fields, a huge part without a filename, many tiny parts, too many files), a
 * Content-Length lying either way, other methods and other spellings of the path, and more hand-ins
 * at once than the process takes. Asserted for each: no 5xx but the designed 503 (with Retry-After),
 * no unclaimed file left behind, and the process still up. The app runs in its own process (an
 * unhandled rejection would end it, as in production), with a short body deadline (3 s) and two
 * hand-in slots.
 */
import { isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCms } from '#cms/server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { request } from '#tests/support/http.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { streamHandIn, type StreamedAnswer, type StreamedFile } from '#tests/support/uploads.ts'
import { hostileClass } from './support.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const ASSIGNMENT = `/learn/course/${COURSE}/entry/build-a-form`
const LEARNERS = 8
const MB = 1_000_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe.each(DIALECTS)('hostile hand-in bodies on %s', (dialect) => {
	let db: TestDatabase
	let cms: Awaited<ReturnType<typeof startCms>>
	let app: AppProcess
	const cookies: string[] = []
	const hostile = hostileClass('hand-ins', dialect)
	let turn = 0
	// Each case signs in as the next learner: the hand-in limit (10 a minute) is per learner.
	const cookie = () => cookies[turn++ % cookies.length]

	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		const seeded = await seedDemoData(db, DEMO_PASSWORD)
		const tenantId = seeded.tenants.acme.id
		const hash = await hashPassword(DEMO_PASSWORD)
		cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
		app = await startAppProcess({
			DATABASE_URL: db.url,
			CMS_API_URL: cms.url,
			HAND_IN_CONCURRENCY: '2',
			HAND_IN_QUEUE_SECONDS: '0.2',
			HAND_IN_BODY_SECONDS: '3',
			HAND_IN_ORPHAN_GRACE_SECONDS: '600',
		})
		for (let i = 0; i < LEARNERS; i++) {
			const user = await createUser(db, {
				tenant_id: tenantId,
				email: `hostile-${i}@acme.test`,
				name: `Hostile ${i}`,
				role: 'student',
				password_hash: hash,
				email_verified_at: new Date(),
			})
			await putEnrollment(db, { tenantId, userId: user.id }, COURSE, 'active')
			await markEntryCompleteRow(db, { tenantId, userId: user.id }, COURSE, 'progressive-enhancement')
			const res = await request(app.port, ACME, '/learn/sign-in', {
				method: 'POST',
				body: new URLSearchParams({ email: user.email, password: DEMO_PASSWORD }).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${ACME}:${app.port}` },
			})
			expect(res.status).toBe(302)
			cookies.push(String(res.headers['set-cookie']).match(/lms_session=[^;]+/)![0])
		}
	}, 120_000)
	afterAll(async () => {
		hostile.report()
		app?.child.kill('SIGKILL')
		await cms?.close()
		await db?.drop()
	})

	const unclaimed = async () => {
		const f = db.t.submission_files
		return (await db.orm.select({ id: f.id }).from(f).where(isNull(f.submission_id))).length
	}
	/** Unclaimed files once the case's clean-up has run (a refused hand-in removes its files before or just after its answer). */
	async function leftOver() {
		for (let i = 0; i < 20 && (await unclaimed()) > 0; i++) await sleep(100)
		return unclaimed()
	}
	const LEAK = /SqliteError|PostgresError|Failed query|node_modules|\/work\/|\bat [\w.<>]+ \(/i

	/** One case: its answer is one of `allowed`, no 5xx but a 503 with Retry-After, nothing left, the process up. */
	async function check(label: string, answer: StreamedAnswer, allowed: number[]) {
		const s = answer.status
		hostile.check(`${label}: status`, allowed.includes(s), `answered ${s} (${answer.body.slice(0, 100)})`)
		hostile.check(`${label}: no 5xx`, s < 500 || (s === 503 && Boolean(answer.headers['retry-after'])), `answered ${s}`)
		hostile.check(`${label}: no leak`, !LEAK.test(answer.body), answer.body.slice(0, 200))
		const left = await leftOver()
		hostile.check(`${label}: nothing left behind`, left === 0, `${left} unclaimed files`)
		hostile.check(`${label}: process up`, app.child.exitCode === null, app.output.join('').slice(-500))
	}

	const fields = (): Array<[string, string]> => [
		['intent', 'hand-in'],
		['text', 'hostile'],
	]
	const file = (size = 3 * MB, name = 'work.txt'): StreamedFile => ({ name, size })
	const send = (init: Parameters<typeof streamHandIn>[3], path = ASSIGNMENT) =>
		streamHandIn(app.port, ACME, path, { cookie: cookie(), timeoutMs: 20_000, ...init })

	it('refuses malformed multipart with 400 and keeps nothing', async () => {
		// The body ends inside the second file, and the Content-Length says so: the form is incomplete.
		const truncated = await send({
			fields: fields(),
			files: [file(), file()],
			stopAfter: 4 * MB,
			contentLength: 4 * MB,
		})
		await check('truncated multipart', truncated, [400])
		// The Content-Type announces a boundary the body never uses.
		await check(
			'wrong boundary',
			await send({ fields: fields(), files: [file()], announcedBoundary: '----not-the-one' }),
			[400],
		)
		await check(
			'duplicate intent',
			await send({ fields: [...fields(), ['intent', 'hand-in']], files: [file(1 * MB)] }),
			[400],
		)
		await check(
			'duplicate text',
			await send({ fields: [...fields(), ['text', 'again']], files: [file(1 * MB)] }),
			[400],
		)
		// A part without a filename is a field: busboy keeps 64 KiB of it, so it is refused as too long.
		await check(
			'huge field part without filename',
			await send({
				fields: [['intent', 'hand-in']],
				files: [{ name: '', size: 5 * MB, field: 'text', noFilename: true }],
			}),
			[400],
		)
		// A file input left empty sends a part with an empty filename: no file, whatever its size.
		await check(
			'huge file part with an empty filename',
			await send({ fields: [['intent', 'hand-in']], files: [{ name: '', size: 5 * MB }] }),
			[400],
		)
		await check(
			'many tiny parts',
			await send({
				fields: [...fields(), ...Array.from({ length: 2_000 }, (_, i): [string, string] => [`f${i}`, 'x'])],
			}),
			[302, 400],
		)
		await check(
			'many tiny files',
			await send({ fields: fields(), files: Array.from({ length: 200 }, (_, i) => file(10, `t${i}.txt`)) }),
			[400],
		)
		await check(
			'four files (limit 3)',
			await send({ fields: fields(), files: [1, 2, 3, 4].map(() => file(MB)) }),
			[400],
		)
		await check('a file one byte over 10 MB', await send({ fields: fields(), files: [file(10 * MB + 1)] }), [400])
		await check('a file of a type not allowed', await send({ fields: fields(), files: [file(MB, 'work.exe')] }), [400])
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('answers a Content-Length that lies, either way, without a 5xx', async () => {
		const body = { fields: fields(), files: [file(2 * MB)] }
		// Shorter than the body: the form ends early (the rest is not this request).
		await check('Content-Length too small', await send({ ...body, contentLength: MB }), [400])
		// Longer than the body: the rest never comes; the body's deadline (3 s here) ends the wait.
		const long = await send({ ...body, contentLength: 3 * MB })
		await check('Content-Length too large', long, [400])
		hostile.check('Content-Length too large: within the deadline', long.ms < 10_000, `${long.ms} ms`)
		await check('Content-Length above the hand-in limit', await send({ ...body, contentLength: 40 * MB }), [413])
		// A body that stops arriving (the client stays connected).
		const stalled = await send({ ...body, stopAfter: MB })
		await check('body that stops arriving', stalled, [400])
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('answers other methods and other spellings of the path without a 5xx or a stored file', async () => {
		const get = await request(app.port, ACME, ASSIGNMENT, { headers: { cookie: cookie() } })
		await check(
			'GET instead of POST',
			{ status: get.status, body: get.text, headers: get.headers, ms: 0, sent: 0 },
			[200],
		)
		const body = { fields: fields(), files: [file(2 * MB)] }
		// React Router runs the action for these too: a hand-in like a POST, through the same slots.
		await check('PUT', await send({ ...body, method: 'PUT' }), [302, 405])
		await check('DELETE', await send({ ...body, method: 'DELETE' }), [302, 405])
		await check('PATCH', await send({ ...body, method: 'PATCH' }), [302, 405])
		for (const path of [
			`${ASSIGNMENT}/extra`,
			`${ASSIGNMENT}/`,
			`/learn/course/${COURSE}/entry/build%2Da%2Dform`,
			`/learn/course/${COURSE}/entry/build-a-form%2Fx`,
			`/learn/course/${COURSE}/./entry/build-a-form`,
			`/learn/course/${COURSE}/entry/../entry/build-a-form`,
			`/learn/course/${COURSE}//entry/build-a-form`,
			`/learn/course/${COURSE}/entry/build-a-form;x`,
			`/learn/course/${COURSE}/entry/what-is-http`,
			`/learn/course/${COURSE}/entry/build-a-form.data`,
			`/es/learn/course/${COURSE}/entry/build-a-form`,
		])
			await check(`POST ${path}`, await send(body, path), [200, 202, 204, 302, 303, 308, 400, 404, 405, 413, 415])
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('answers more hand-ins than the process takes at once with 503 and Retry-After, before reading them', async () => {
		// Two bodies that stop half way hold the two slots until their 3 s deadline.
		const holders = [0, 1].map(() => send({ fields: fields(), files: [file(3 * MB)], stopAfter: MB }))
		await sleep(500)
		const busy = await send({ fields: fields(), files: [file(3 * MB)] })
		hostile.check('busy: 503', busy.status === 503, `answered ${busy.status}`)
		hostile.check('busy: Retry-After', Boolean(busy.headers['retry-after']), JSON.stringify(busy.headers))
		hostile.check('busy: answered at once', busy.ms < 2_000, `${busy.ms} ms`)
		hostile.check('busy: no leak', !LEAK.test(busy.body), busy.body.slice(0, 200))
		// The held ones' files are theirs until their deadline; then nothing may be left.
		for (const held of await Promise.all(holders)) await check('a held slot, cut by its deadline', held, [400])
		// The slots are free again.
		await check('a hand-in after the slots came free', await send({ fields: fields(), files: [file(MB)] }), [302])
		const up = await request(app.port, ACME, '/api/health/live')
		hostile.check('still serving', up.status === 200, String(up.status))
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)
})
