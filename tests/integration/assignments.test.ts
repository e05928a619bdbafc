import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { connect } from 'node:net'
import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAND_IN_LIMITS, HAND_IN_MAX_BODY_BYTES } from '#app/learning/hand-in-limits.ts'
import { createFileRow, listSubmissions, recordSubmissionSteps } from '#db/submissions.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { newId } from '#db/ids.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { DIALECTS, execRaw } from '#tests/support/databases.ts'
import { multipartBody, type Browser, type UploadFile } from '#tests/support/client.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser, gradeSubmission } from '#tests/support/repository.ts'

// Assignment hand-ins from outside (decision 0027): what a learner's browser sends, what comes
// back, and what a hostile file or a flood of hand-ins can do.

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'
const ASSIGNMENT = `${COURSE}/entry/build-a-form`
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
)
const PAGE =
	'<!doctype html><title>Sign up</title><form method="post"><label>Email <input name="email"></label></form>\n'

/** Polls `probe` until it answers something other than null (10 s at most). */
async function eventually<T>(probe: () => Promise<T | null>): Promise<T> {
	for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
		const value = await probe()
		if (value !== null) return value
	}
	throw new Error('the condition did not come true within 10 s')
}

describe.each(DIALECTS)('assignment hand-ins on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	let counter = 0
	/** A new Acme learner, enrolled, with the entries before the assignment complete. */
	async function learnerAtAssignment() {
		const user = await createUser(stack.db, {
			tenant_id: acme.id,
			email: `hand-in-${++counter}@acme.test`,
			name: `Hand In ${counter}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		const b = stack.browser(ACME)
		expect((await b.post('/learn/sign-in', { email: user.email, password: DEMO_PASSWORD })).status).toBe(302)
		expect((await b.post(`${COURSE}/enroll`, {})).status).toBe(302)
		expect((await b.post(`${COURSE}/entry/progressive-enhancement`, { intent: 'complete' })).status).toBe(302)
		return { b, user, scope: { tenantId: acme.id, userId: user.id } }
	}
	async function signedIn(email: string, host = ACME) {
		const b = stack.browser(host)
		expect((await b.post('/learn/sign-in', { email, password: DEMO_PASSWORD })).status).toBe(302)
		return b
	}
	const submissionKey = async (b: Awaited<ReturnType<typeof signedIn>>) =>
		load((await b.get(ASSIGNMENT)).text)('input[name="submission"]').attr('value')!
	/** A POST whose headers promise `length` bytes of which only `head` is sent, on a socket left open. */
	async function openPost(b: Browser, path: string, contentType: string, length: number, head: Buffer) {
		const socket = connect(stack.port, '127.0.0.1')
		await once(socket, 'connect')
		socket.write(
			`POST ${path} HTTP/1.1\r\nHost: ${ACME}:${stack.port}\r\nContent-Type: ${contentType}\r\n` +
				`Content-Length: ${length}\r\nCookie: ${b.cookieHeader()}\r\nOrigin: ${b.origin}\r\n\r\n`,
		)
		socket.write(head)
		return socket
	}
	const chunksOf = async (fileId: string) =>
		(await stack.db.orm.select().from(stack.db.t.file_chunks).where(eq(stack.db.t.file_chunks.file_id, fileId))).length
	const filesOf = (userId: string) =>
		stack.db.orm
			.select()
			.from(stack.db.t.submission_files)
			.where(and(eq(stack.db.t.submission_files.tenant_id, acme.id), eq(stack.db.t.submission_files.user_id, userId)))

	it('takes text, a link and a file from a multipart form, shows them, and serves the file to its learner only', async () => {
		const { b, user, scope } = await learnerAtAssignment()
		const page = load((await b.get(ASSIGNMENT)).text)
		const form = page('form[enctype="multipart/form-data"]')
		expect(form.attr('method')).toBe('post')
		expect(form.find('input[type="file"][name="files"]').attr('accept')).toBe('.txt,.md,.zip,.pdf,.png,.jpg')
		expect(page('main').text()).toContain('Graded out of 10. Pass mark: 6.')
		// No self-report on an assignment any more.
		expect(page('main').text()).not.toContain('I have finished')

		const res = await b.postMultipart(
			ASSIGNMENT,
			{
				intent: 'hand-in',
				text: 'Labels on both fields.\nTested with JavaScript off.',
				link: 'https://example.com/form',
			},
			[{ name: 'sign-up.txt', type: 'text/html', body: PAGE }],
		)
		expect(res.status).toBe(302)
		expect(res.headers.location).toBe(`${ASSIGNMENT}?notice=handed_in`)
		const [stored] = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(stored).toMatchObject({
			submission_number: 1,
			status: 'submitted',
			text_answer: 'Labels on both fields.\nTested with JavaScript off.',
			link_url: 'https://example.com/form',
		})
		expect(stored.files).toHaveLength(1)
		const file = stored.files[0]
		// The type is the server's, from the bytes and the extension, never the browser's `text/html`.
		expect(file).toMatchObject({ file_name: 'sign-up.txt', content_type: 'text/plain; charset=utf-8' })
		expect(file.size_bytes).toBe(Buffer.byteLength(PAGE))

		const after = load((await b.get(`${ASSIGNMENT}?notice=handed_in`)).text)
		expect(after('main').text()).toContain('Handed in.')
		expect(after('.submission').first().text()).toContain('Awaiting grading')
		expect(after(`a[href="/api/files/${file.id}"]`).text()).toBe('sign-up.txt')
		// A graded assignment is not complete on hand-in.
		expect(after('main').text()).not.toContain('You have completed this assignment.')

		const download = await b.get(`/api/files/${file.id}`)
		expect(download.status).toBe(200)
		expect(download.text).toBe(PAGE)
		expect(download.headers['content-type']).toBe('text/plain; charset=utf-8')
		expect(download.headers['content-disposition']).toBe(
			`attachment; filename="sign-up.txt"; filename*=UTF-8''sign-up.txt`,
		)
		expect(download.headers['x-content-type-options']).toBe('nosniff')
		expect(download.headers['content-security-policy']).toContain('sandbox')
		expect(download.headers['cache-control']).toBe('private, no-store')

		// The course's staff may download it (its course admin, a tenant admin, a super admin entered into the
		// tenant); another learner, a course admin of other courses, a visitor and another tenant may not, alike.
		expect((await (await signedIn('author@acme.test')).get(`/api/files/${file.id}`)).status).toBe(200)
		expect((await (await signedIn('admin@acme.test')).get(`/api/files/${file.id}`)).status).toBe(200)
		const root = await stack.enter(await signedIn('root@platform.test', 'localhost'), acme)
		expect((await root.get(`/api/files/${file.id}`)).body.toString()).toBe(PAGE)
		const unassigned = await createUser(stack.db, {
			tenant_id: acme.id,
			email: 'unassigned-author@acme.test',
			name: 'Unassigned Author',
			role: 'course_admin',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		expect((await (await signedIn(unassigned.email)).get(`/api/files/${file.id}`)).status).toBe(404)
		const other = await (await signedIn('learner@acme.test')).get(`/api/files/${file.id}`)
		const unknown = await (await signedIn('learner@acme.test')).get(`/api/files/${newId()}`)
		expect(other.status).toBe(404)
		expect(other.text).toBe(unknown.text)
		expect((await stack.request(ACME, `/api/files/${file.id}`)).status).toBe(401)
		expect((await (await signedIn('admin@globex.test', 'globex.localhost')).get(`/api/files/${file.id}`)).status).toBe(
			404,
		)
		expect(user.id).toBe(scope.userId)
	})

	it('limits downloads to 120 a minute per user: the 121st answers 429 in the JSON envelope, others still download', async () => {
		const { b, scope } = await learnerAtAssignment()
		expect((await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [{ name: 'a.txt', body: 'a' }])).status).toBe(302)
		const [file] = await filesOf(scope.userId)
		for (let i = 0; i < 120; i++) expect((await b.get(`/api/files/${file.id}`)).status).toBe(200)
		const limited = await b.get(`/api/files/${file.id}`)
		expect(limited.status).toBe(429)
		expect(limited.json()).toEqual({ error: 'Too many downloads', code: 'RATE_LIMITED' })
		expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
		// Per user: the course's staff are not held up by the learner's downloads.
		expect((await (await signedIn('admin@acme.test')).get(`/api/files/${file.id}`)).status).toBe(200)
	})

	it('answers one byte range from the chunks that hold it (206), an unsatisfiable one 416, and anything else the whole file', async () => {
		const { b, scope } = await learnerAtAssignment()
		// Two files of about three chunks each, of different bytes: no answer may carry the other's.
		const textOf = (seed: number) =>
			Buffer.from(Array.from({ length: 700_000 }, (_, i) => 97 + ((i * seed + (i >> 10)) % 26)))
		const a = textOf(7)
		const other = textOf(11)
		const handedIn = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [
			{ name: 'a.txt', body: a },
			{ name: 'b.txt', body: other },
		])
		expect(handedIn.status).toBe(302)
		const file = (await filesOf(scope.userId)).find((f) => f.file_name === 'a.txt')!
		const c = stack.db.t.file_chunks
		const lengths = (
			await stack.db.orm.select({ data: c.data, seq: c.seq }).from(c).where(eq(c.file_id, file.id)).orderBy(c.seq)
		).map((row) => row.data.byteLength)
		expect(lengths.length).toBeGreaterThanOrEqual(2)
		const [first, second] = lengths as [number, number]
		const size = a.length
		const path = `/api/files/${file.id}`
		const etag = `"${file.sha256}"`

		const whole = await b.get(path)
		expect(whole.status).toBe(200)
		expect(whole.body.equals(a)).toBe(true)
		expect(whole.headers['accept-ranges']).toBe('bytes')

		const ranged = async (range: string, start: number, end: number) => {
			const res = await b.get(path, { range })
			expect(res.status, range).toBe(206)
			expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`)
			expect(Number(res.headers['content-length']), range).toBe(end - start + 1)
			expect(res.body.equals(a.subarray(start, end + 1)), range).toBe(true)
			return res
		}
		// Exactly the first chunk, the first byte of the second, the two bytes either side of the boundary,
		// one range over three chunks, a suffix, an open end, and ends past the end.
		const part = await ranged(`bytes=0-${first - 1}`, 0, first - 1)
		await ranged(`bytes=${first}-${first}`, first, first)
		await ranged(`bytes=${first - 1}-${first}`, first - 1, first)
		await ranged(`bytes=${first - 10}-${first + second + 10}`, first - 10, first + second + 10)
		await ranged('bytes=-100', size - 100, size - 1)
		await ranged(`bytes=${size - 5}-`, size - 5, size - 1)
		await ranged(`bytes=-${size + 10}`, 0, size - 1)
		await ranged('bytes=0-99999999999999999999999999', 0, size - 1)
		await ranged(`BYTES= 3-4`, 3, 4)
		// A part is as inert as the whole.
		expect(part.headers['content-disposition']).toBe(`attachment; filename="a.txt"; filename*=UTF-8''a.txt`)
		expect(part.headers['x-content-type-options']).toBe('nosniff')
		expect(part.headers['content-security-policy']).toContain('sandbox')
		expect(part.headers['cache-control']).toBe('private, no-store')
		expect(part.headers['etag']).toBe(etag)

		// Nothing of the file there: 416 with its size, in the JSON envelope.
		for (const range of [`bytes=${size}-`, `bytes=${size}-${size + 5}`, 'bytes=-0', 'bytes=99999999999999999999-']) {
			const res = await b.get(path, { range })
			expect(res.status, range).toBe(416)
			expect(res.headers['content-range'], range).toBe(`bytes */${size}`)
			expect(res.json(), range).toMatchObject({ code: 'BAD_REQUEST' })
		}
		// Not one byte range as this server reads them (reversed, not numbers, several, another unit),
		// or If-Range other than the file's strong ETag: the whole file.
		const wholeFor = async (headers: Record<string, string>) => {
			const res = await b.get(path, headers)
			expect(res.status, JSON.stringify(headers)).toBe(200)
			expect(res.body.equals(a), JSON.stringify(headers)).toBe(true)
		}
		for (const range of [
			'bytes=5-1',
			'bytes=abc',
			'bytes=',
			'bytes=0-1,0-1',
			'bytes=0-1, 5-6',
			'items=0-1',
			'bytes=--1',
			'bytes=1-2-3',
			'bytes=0x10-',
		])
			await wholeFor({ range })
		await ranged(`bytes=0-9`, 0, 9).then(() => wholeFor({ range: 'bytes=0-9', 'if-range': `"${'0'.repeat(64)}"` }))
		await wholeFor({ range: 'bytes=0-9', 'if-range': `W/${etag}` })
		await wholeFor({ range: 'bytes=0-9', 'if-range': new Date().toUTCString() })
		expect((await b.get(path, { range: 'bytes=0-9', 'if-range': etag })).body.equals(a.subarray(0, 10))).toBe(true)

		// A range asks nothing of who may download: another learner's still gets the unknown file's 404.
		const stranger = await (await signedIn('learner@acme.test')).get(path, { range: 'bytes=0-9' })
		const unknown = await (await signedIn('learner@acme.test')).get(`/api/files/${newId()}`, { range: 'bytes=0-9' })
		expect(stranger.status).toBe(404)
		expect(stranger.text).toBe(unknown.text)
	})

	it('numbers hand-ins 1..n, keeps each, and treats the same form sent twice as one', async () => {
		const { b, scope } = await learnerAtAssignment()
		const key = await submissionKey(b)
		const first = { intent: 'hand-in', text: 'First try', submission: key }
		expect((await b.postMultipart(ASSIGNMENT, first, [{ name: 'a.txt', body: 'one' }])).status).toBe(302)
		// A retry of the same form (the learner was told it failed, or pressed twice): still one submission.
		expect((await b.postMultipart(ASSIGNMENT, first, [{ name: 'a.txt', body: 'one' }])).status).toBe(302)
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'Second try' })).status).toBe(302)
		const rows = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(rows.map((r) => [r.submission_number, r.text_answer, r.files.length])).toEqual([
			[1, 'First try', 1],
			[2, 'Second try', 0],
		])
		// The replay's file was not kept beside the first one.
		expect(await filesOf(scope.userId)).toHaveLength(1)
	})

	it('refuses hostile and unwanted files with the reason beside the field, keeping the text and no bytes', async () => {
		const { b, scope } = await learnerAtAssignment()
		const cases: Array<[string, { name: string; body: Buffer | string; type?: string }[], string]> = [
			['HTML behind a .pdf name', [{ name: 'report.pdf', body: PAGE, type: 'application/pdf' }], 'do not match'],
			['a PNG behind a .txt name', [{ name: 'notes.txt', body: PNG }], 'do not match'],
			['an HTML file', [{ name: 'page.html', body: PAGE }], 'not accepted'],
			['an SVG', [{ name: 'x.svg', body: '<svg onload="alert(1)"/>', type: 'image/svg+xml' }], 'not accepted'],
			['docx, which this assignment does not take', [{ name: 'a.docx', body: 'PK' }], 'not accepted'],
			['zero bytes', [{ name: 'empty.txt', body: '' }], 'is empty'],
			['text with NUL bytes', [{ name: 'bin.txt', body: Buffer.from([0x61, 0, 0x62]) }], 'do not match'],
			[
				'one file of four',
				['1.txt', '2.txt', '3.txt', '4.txt'].map((name) => ({ name, body: 'x' })),
				`at most ${HAND_IN_LIMITS.maxFiles} files`,
			],
		]
		for (const [what, files, reason] of cases) {
			const res = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: `Kept: ${what}` }, files)
			expect(res.status, what).toBe(400)
			const $ = load(res.text)
			expect($('#hand-in-files-error').text(), what).toContain(reason)
			expect($('input[type="file"]').attr('aria-describedby'), what).toContain('hand-in-files-error')
			expect($('textarea[name="text"]').text(), what).toBe(`Kept: ${what}`)
		}
		expect(await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')).toEqual([])
		expect(await filesOf(scope.userId)).toEqual([])
	})

	it('refuses a file over the limit while streaming but takes one of exactly the limit, and refuses a body over the hand-in limit before reading it', async () => {
		const { b, scope } = await learnerAtAssignment()
		const big = Buffer.alloc(HAND_IN_LIMITS.maxFileBytes + 1, 0x61)
		const res = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [{ name: 'big.txt', body: big }])
		expect(res.status).toBe(400)
		expect(load(res.text)('#hand-in-files-error').text()).toContain('larger than 10 MB')
		expect(await filesOf(scope.userId)).toEqual([])
		// A file of exactly the limit is within it.
		const exact = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [
			{ name: 'exact.txt', body: big.subarray(1) },
		])
		expect(exact.status).toBe(302)
		expect((await filesOf(scope.userId)).map((f) => f.size_bytes)).toEqual([HAND_IN_LIMITS.maxFileBytes])
		// The declared length alone is refused: nothing is read.
		const declared = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: 'x' }, [], {
			'content-length': String(HAND_IN_MAX_BODY_BYTES + 1),
		})
		expect(declared.status).toBe(413)
	})

	it('refuses a 1 MB file whose bytes do not match its name, at once or in pieces, and stores one that arrives slowly', async () => {
		const { b, scope } = await learnerAtAssignment()
		// PNG bytes behind a .pdf name, far larger than the head that decides: the rest must still be read.
		const png = Buffer.concat([PNG, randomBytes(1_000_000)])
		const mismatch = { intent: 'hand-in', text: 'A scan' }
		const refused = await b.postMultipart(ASSIGNMENT, mismatch, [{ name: 'scan.pdf', body: png }])
		expect(refused.status).toBe(400)
		expect(load(refused.text)('#hand-in-files-error').text()).toContain('do not match')
		const slowly = async (files: UploadFile[]) => {
			const { body, contentType } = await multipartBody(mismatch, files)
			return stack.request(ACME, ASSIGNMENT, {
				method: 'POST',
				body,
				headers: { 'content-type': contentType, cookie: b.cookieHeader(), origin: b.origin },
				pieces: { bytes: 64 * 1024, pauseMs: 5 },
			})
		}
		const refusedSlowly = await slowly([{ name: 'scan.pdf', body: png }])
		expect(refusedSlowly.status).toBe(400)
		expect(load(refusedSlowly.text)('#hand-in-files-error').text()).toContain('do not match')
		expect(await filesOf(scope.userId)).toEqual([])
		// A real 1 MB PDF over the same slow link is stored whole.
		const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1_000_000)])
		expect((await slowly([{ name: 'scan.pdf', body: pdf }])).status).toBe(302)
		const [stored] = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(stored.files.map((f) => [f.file_name, f.size_bytes])).toEqual([['scan.pdf', pdf.length]])
		expect((await b.get(`/api/files/${stored.files[0].id}`)).body.equals(pdf)).toBe(true)
	})

	it('forgets a hand-in cut off mid-body: no file row or chunk is left, and the server answers the next request', async () => {
		const { b, scope } = await learnerAtAssignment()
		const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2_000_000)])
		const { body, contentType } = await multipartBody({ intent: 'hand-in', text: 'Cut off' }, [
			{ name: 'cut.pdf', body: pdf },
		])
		const socket = await openPost(b, ASSIGNMENT, contentType, body.length, body.subarray(0, body.length / 2))
		// Cut once the server is storing the file: its row exists and chunks are being written.
		const [file] = await eventually(async () => {
			const rows = await filesOf(scope.userId)
			return rows.length > 0 && (await chunksOf(rows[0].id)) > 0 ? rows : null
		})
		socket.destroy()
		await eventually(async () => ((await filesOf(scope.userId)).length === 0 ? true : null))
		expect(await chunksOf(file.id)).toBe(0)
		expect(await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')).toEqual([])
		expect((await b.get(ASSIGNMENT)).status).toBe(200)
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'After the cut' })).status).toBe(302)
	})

	it('removes files left unclaimed for an hour once someone hands in, and keeps those still streaming in', async () => {
		const { b, scope } = await learnerAtAssignment()
		const abandoned = newId()
		const streaming = newId()
		for (const id of [abandoned, streaming]) {
			await createFileRow(stack.db, scope, { id, fileName: `${id}.txt`, contentType: 'text/plain' })
			await stack.db.orm.insert(stack.db.t.file_chunks).values({ file_id: id, seq: 0, data: Buffer.from('left') })
		}
		const f = stack.db.t.submission_files
		await stack.db.orm
			.update(f)
			.set({ created_at: new Date(Date.now() - 61 * 60_000) })
			.where(eq(f.id, abandoned))
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'Housekeeping' })).status).toBe(302)
		await stack.settled()
		const left = await filesOf(scope.userId)
		expect(left.map((x) => x.id)).not.toContain(abandoned)
		expect(await chunksOf(abandoned)).toBe(0)
		expect(left.find((x) => x.id === streaming)).toMatchObject({ submission_id: null })
		expect(await chunksOf(streaming)).toBe(1)
	})

	it('refuses a multipart body to a lesson or a quiz before reading it (415), in words', async () => {
		const { b, scope } = await learnerAtAssignment()
		for (const lesson of ['what-is-http', 'html-forms'])
			expect((await b.post(`${COURSE}/entry/${lesson}`, { intent: 'complete' })).status).toBe(302)
		const file = { name: 'a.txt', body: Buffer.alloc(HAND_IN_LIMITS.maxFileBytes, 'a') }
		for (const [entry, intent] of [
			['what-is-http', 'complete'],
			['basics-quiz', 'submit-quiz'],
		]) {
			const { body, contentType } = await multipartBody({ intent }, [file])
			// Only the first 64 KiB of 10 MB are sent: the answer comes without the rest.
			const socket = await openPost(b, `${COURSE}/entry/${entry}`, contentType, body.length, body.subarray(0, 65_536))
			let answer = ''
			socket.on('data', (chunk) => (answer += String(chunk)))
			await eventually(async () => (answer.includes('\r\n\r\n') ? true : null))
			socket.destroy()
			expect(answer, entry).toMatch(/^HTTP\/1\.1 415 /)
		}
		// A whole one, as a browser would send it: the page says why.
		const res = await b.postMultipart(`${COURSE}/entry/basics-quiz`, { intent: 'submit-quiz' }, [file])
		expect(res.status).toBe(415)
		expect(load(res.text)('main').text()).toContain('This page does not take files.')
		expect(await filesOf(scope.userId)).toEqual([])
	})

	it('keeps a file name without its path or control characters, and serves it as an attachment', async () => {
		const { b, scope } = await learnerAtAssignment()
		const res = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [
			{ name: '../../etc/\u202Epasswd"; x=.txt', body: 'root' },
		])
		expect(res.status).toBe(302)
		const [file] = await filesOf(scope.userId)
		// The browser sent `"` as %22 (the HTML standard's multipart encoding); `%` and `;` become `_`.
		expect(file.file_name).toBe('passwd_22_ x=.txt')
		const download = await b.get(`/api/files/${file.id}`)
		expect(download.status).toBe(200)
		expect(download.headers['content-disposition']).toBe(
			`attachment; filename="passwd_22_ x=.txt"; filename*=UTF-8''passwd_22_%20x%3D.txt`,
		)
		// A name in another script stays readable, with an ASCII fallback.
		expect((await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [{ name: '报告.txt', body: 'zh' }])).status).toBe(
			302,
		)
		const named = (await filesOf(scope.userId)).find((f) => f.file_name === '报告.txt')!
		expect((await b.get(`/api/files/${named.id}`)).headers['content-disposition']).toBe(
			`attachment; filename="__.txt"; filename*=UTF-8''${encodeURIComponent('报告.txt')}`,
		)
	})

	it('renders hostile text inert and refuses a link that is not http(s)', async () => {
		const { b } = await learnerAtAssignment()
		const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>'
		const refused = await b.post(ASSIGNMENT, { intent: 'hand-in', text: hostile, link: 'javascript:alert(3)' })
		expect(refused.status).toBe(400)
		const $ = load(refused.text)
		expect($('#hand-in-link-error').text()).toContain('http:// or https://')
		expect($('input[name="link"]').attr('aria-describedby')).toContain('hand-in-link-error')
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: hostile })).status).toBe(302)
		const page = await b.get(ASSIGNMENT)
		expect(page.text).not.toContain('<script>alert(1)')
		expect(load(page.text)('.submission-text').first().text()).toBe(hostile)
		// Nothing at all is a clear answer, not a stored empty hand-in.
		const empty = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: '  ' })
		expect(empty.status).toBe(400)
		expect(load(empty.text)('main').text()).toContain('Write an answer, give a link or choose a file')
	})

	it('refuses a NUL in the text or the link beside its field, on both databases (PostgreSQL cannot store it)', async () => {
		const { b, scope } = await learnerAtAssignment()
		const cases: Array<[string, Record<string, string>]> = [
			['text', { intent: 'hand-in', text: 'before\u0000after' }],
			['link', { intent: 'hand-in', text: 'See the link', link: 'https://example.com/a\u0000b' }],
		]
		for (const [field, form] of cases) {
			for (const res of [await b.post(ASSIGNMENT, form), await b.postMultipart(ASSIGNMENT, form)]) {
				expect(res.status, field).toBe(400)
				expect(load(res.text)(`#hand-in-${field}-error`).text(), field).not.toBe('')
			}
		}
		expect(await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')).toEqual([])
	})

	it('ends hand-ins once graded, and refuses the self-report on an assignment', async () => {
		const { b, scope } = await learnerAtAssignment()
		const selfReport = await b.post(ASSIGNMENT, { intent: 'complete' })
		expect(selfReport.status).toBe(400)
		expect(load(selfReport.text)('main').text()).toContain('An assignment is completed by handing in work.')
		// And the hand-in form is an assignment's only.
		expect((await b.post(`${COURSE}/entry/progressive-enhancement`, { intent: 'hand-in', text: 'x' })).status).toBe(400)
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'Done' })).status).toBe(302)
		const [row] = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		const grader = stack.seeded.users['acme:author@acme.test'].id
		const graded = await gradeSubmission(stack.db, acme.id, row.id, {
			status: 'graded',
			score: 8,
			maxScore: 10,
			passed: true,
			feedback: 'Good <b>work</b>',
			gradedBy: grader,
		})
		expect(graded?.status).toBe('graded')
		// A second grading of the same submission finds nothing awaiting.
		expect(
			await gradeSubmission(stack.db, acme.id, row.id, {
				status: 'graded',
				score: 2,
				maxScore: 10,
				passed: false,
				feedback: '',
				gradedBy: grader,
			}),
		).toBeNull()
		const again = await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'One more' })
		expect(again.status).toBe(409)
		const $ = load((await b.get(ASSIGNMENT)).text)
		expect($('form[enctype="multipart/form-data"]')).toHaveLength(0)
		expect($('.submission').first().text()).toContain('Score: 8 of 10')
		expect($('.submission-feedback').text()).toContain('Good <b>work</b>')
	})

	it('lets the learner hand in again after a grade that did not pass, and says so; a passing grade completes it and is final', async () => {
		const { b, scope } = await learnerAtAssignment()
		const grader = await signedIn('author@acme.test')
		const grade = async (score: string) => {
			const [newest] = (await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')).reverse()
			const res = await grader.post(`/admin/courses/intro-to-web/submissions/${newest.id}`, {
				intent: 'grade',
				score,
				feedback: `Scored ${score}`,
			})
			expect(res.status).toBe(302)
		}
		const before = load((await b.get(ASSIGNMENT)).text)
		expect(before('.hand-in .hint').first().text()).toBe(
			'Graded out of 10. Pass mark: 6. Work that does not pass may be handed in again; a passing grade is final.',
		)
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'First version' })).status).toBe(302)
		await grade('4')
		const failed = load((await b.get(ASSIGNMENT)).text)
		expect(failed('main').text()).toContain(
			'Your work did not pass. Read the feedback, then hand in a new version: it will be graded again.',
		)
		expect(failed('.submission').first().text()).toContain('Not passed')
		expect(failed('form[enctype="multipart/form-data"] button[type="submit"]').text()).toBe('Hand in a new version')
		expect(failed('main').text()).not.toContain('You have completed this assignment.')

		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'Second version' })).status).toBe(302)
		const rows = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(rows.map((r) => [r.submission_number, r.status, r.passed])).toEqual([
			[1, 'graded', false],
			[2, 'submitted', null],
		])
		await grade('7')
		const passed = load((await b.get(ASSIGNMENT)).text)
		expect(passed('main').text()).toContain('You have completed this assignment.')
		expect(passed('main').text()).toContain('This work has been graded; it can no longer be handed in again.')
		expect(passed('form[enctype="multipart/form-data"]')).toHaveLength(0)
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'Third version' })).status).toBe(409)
		expect(await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')).toHaveLength(2)
	})

	it('answers a broken multipart body with a plain 400: no stack, SQL or path, and no bytes kept', async () => {
		const { b, scope } = await learnerAtAssignment()
		const cookie = b.cookieHeader()
		const broken = [
			// A boundary the body never uses, a body cut inside a file part, and a part header with no end.
			[
				'multipart/form-data; boundary=nope',
				'--other\r\nContent-Disposition: form-data; name="intent"\r\n\r\nhand-in\r\n',
			],
			[
				'multipart/form-data; boundary=x',
				'--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nhand-in\r\n--x\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhalf a fi',
			],
			['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="${'a'.repeat(100_000)}`],
			['multipart/form-data', 'no boundary at all'],
		]
		for (const [type, body] of broken) {
			const res = await stack.request(ACME, ASSIGNMENT, {
				method: 'POST',
				body,
				headers: { 'content-type': type, cookie, origin: b.origin },
			})
			expect(res.status, type).toBe(400)
			expect(res.text).not.toMatch(/at \w+ \(|node_modules|busboy|SELECT|INSERT|\/work\//)
		}
		expect(await filesOf(scope.userId)).toEqual([])
		expect(await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')).toEqual([])
	})

	it('lets staff preview the hand-in form but stores nothing', async () => {
		const author = await signedIn('author@acme.test')
		const authorId = stack.seeded.users['acme:author@acme.test'].id
		const page = load((await author.get(`${ASSIGNMENT}?preview=1`)).text)
		expect(page('form[enctype="multipart/form-data"] button[type="submit"]').attr('disabled')).toBeDefined()
		const res = await author.postMultipart(`${ASSIGNMENT}?preview=1`, { intent: 'hand-in', text: 'x' }, [
			{ name: 'a.txt', body: 'a' },
		])
		expect(res.status).toBe(403)
		expect(await filesOf(authorId)).toEqual([])
	})

	it('never stores a hand-in after a final grade when the two race, whichever starts first (data layer)', async () => {
		const grader = stack.seeded.users['acme:author@acme.test'].id
		const pass = { status: 'graded', score: 8, maxScore: 10, passed: true, feedback: '', gradedBy: grader } as const
		const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
		/** A learner with submission 1 awaiting grading; its hand-in and its grade then race, `first` starting 100 ms ahead. */
		async function race(first: 'hand-in' | 'grade', slowed: 'INSERT' | 'UPDATE') {
			const { scope } = await learnerAtAssignment()
			const one = await inTransaction(stack.db, (tx) =>
				recordSubmissionSteps(tx, scope, 'intro-to-web', 'build-a-form', { text: 'one', link: null, fileIds: [] }),
			)
			if (one.kind !== 'recorded') throw new Error('not recorded')
			// On PostgreSQL the first one's write waits 400 ms inside its transaction, after its checks: without a
			// lock over both, the second one checks and commits meanwhile. SQLite runs one write transaction at a time.
			if (dialect === 'pg')
				await execRaw(
					stack.db,
					`CREATE TRIGGER slow_race BEFORE ${slowed} ON assignment_submissions FOR EACH ROW EXECUTE FUNCTION slow_race()`,
				)
			try {
				const handIn = () =>
					inTransaction(stack.db, (tx) =>
						recordSubmissionSteps(tx, scope, 'intro-to-web', 'build-a-form', { text: 'two', link: null, fileIds: [] }),
					)
				const grade = () => gradeSubmission(stack.db, acme.id, one.submission.id, pass)
				const [handedIn, graded] =
					first === 'hand-in'
						? await Promise.all([handIn(), pause(100).then(grade)])
						: await Promise.all([pause(100).then(handIn), grade()]).then(([h, g]) => [h, g] as const)
				const rows = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
				return {
					handedIn: handedIn.kind,
					graded: graded !== null,
					rows: rows.map((r) => [r.submission_number, r.status]),
				}
			} finally {
				if (dialect === 'pg') await execRaw(stack.db, 'DROP TRIGGER slow_race ON assignment_submissions')
			}
		}
		if (dialect === 'pg')
			await execRaw(
				stack.db,
				`CREATE FUNCTION slow_race() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(0.4); RETURN NEW; END $$ LANGUAGE plpgsql`,
			)
		// The hand-in first: the grade finds a newer submission and grades nothing.
		expect(await race('hand-in', 'INSERT')).toEqual({
			handedIn: 'recorded',
			graded: false,
			rows: [
				[1, 'submitted'],
				[2, 'submitted'],
			],
		})
		// The grade first: the hand-in finds the final grade and stores nothing.
		expect(await race('grade', 'UPDATE')).toEqual({ handedIn: 'final', graded: true, rows: [[1, 'graded']] })
	})

	it('keeps submission numbers 1..50 and every file under 50 concurrent hand-ins (data layer)', async () => {
		const { scope } = await learnerAtAssignment()
		const results = await Promise.all(
			Array.from({ length: 50 }, async (_, i) => {
				const id = newId()
				await createFileRow(stack.db, scope, { id, fileName: `f${i}.txt`, contentType: 'text/plain' })
				return inTransaction(stack.db, (tx) =>
					recordSubmissionSteps(tx, scope, 'intro-to-web', 'build-a-form', {
						text: `hand-in ${i}`,
						link: null,
						fileIds: [id],
					}),
				)
			}),
		)
		expect(results.every((r) => r.kind === 'recorded')).toBe(true)
		const rows = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(rows.map((r) => r.submission_number)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
		expect(rows.every((r) => r.files.length === 1 && r.files[0].file_name === `f${r.text_answer!.slice(8)}.txt`)).toBe(
			true,
		)
		console.log(`hand-in race (data layer) on ${dialect}: 50 hand-ins, ${rows.length} stored, numbers 1..50`)
	})

	it('keeps numbers sequential and no file lost under 50 concurrent multipart hand-ins by one learner', async () => {
		const { b, scope } = await learnerAtAssignment()
		const answers = await Promise.all(
			Array.from({ length: 50 }, (_, i) =>
				b.postMultipart(ASSIGNMENT, { intent: 'hand-in', text: `race ${i}` }, [{ name: `r${i}.txt`, body: `r${i}` }]),
			),
		)
		const count = (status: number) => answers.filter((r) => r.status === status).length
		// 503: more than the process's hand-in slots and their short queue at once (decision 0034).
		console.log(
			`hand-in race (HTTP) on ${dialect}: 50 posts, ${count(302)} stored, ${count(429)} rate-limited, ${count(503)} busy`,
		)
		expect(answers.every((r) => [302, 429, 503].includes(r.status))).toBe(true)
		expect(count(302)).toBeGreaterThan(0)
		const rows = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(rows).toHaveLength(count(302))
		expect(rows.map((r) => r.submission_number)).toEqual(rows.map((_, i) => i + 1))
		for (const r of rows) expect(r.files.map((f) => f.file_name)).toEqual([`r${r.text_answer!.slice(5)}.txt`])
		// Refused posts left no bytes behind.
		expect(await filesOf(scope.userId)).toHaveLength(rows.length)
	})
})
