/**
 * Fault: multi-write actions that do not fit tests/faults/actions.test.ts's shape (an error answer,
 * nothing stored, the same request again does it all), with a write made to fail half way (issue 46).
 *
 * - A certificate issued at a pass: the pass is the learner's and stands (302), the certificate is
 *   issued after its commit. A write of the certificate refused: nothing of the certificate is stored
 *   (no row, no mail job), and the job the pass left issues it once the fault is gone, mailed once.
 * - A CSV of 10,000 invitations through the invite page (decision 0059: one transaction per chunk of
 *   500 rows, in order, the first chunk that fails ending the list): an invitation of row 5,301
 *   refused, the first 5,000 rows are stored whole with their mail jobs, nothing of the rest, the
 *   answer (503) names every row not stored; uploading those rows again invites each address once.
 */
import { and, eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { liveCertificate } from '#db/certificates.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { createUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { passAssignment } from '#tests/support/results.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { describeWrite, differences, failWrites, showsInternals, snapshot, type Write } from './failing-writes.ts'
import { reportFault, sleep } from './support.ts'

const COURSE = 'intro-to-web'
const BEFORE_QUIZ = ['what-is-http', 'html-forms', 'progressive-enhancement', 'build-a-form']
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }

describe.each(DIALECTS)('certificate issuance failing half way on %s', (dialect) => {
	let stack: Stack
	let passwordHash: string
	beforeAll(async () => {
		// A failed job is tried again within seconds, not the default 15 s.
		stack = await startStack(dialect, { JOB_RETRY_DELAY_SECONDS: '1' })
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	let n = 0
	/** A learner of Acme with every entry but the quiz done, signed in: the quiz's passing attempt passes the course. */
	async function readyForQuiz() {
		n++
		const tenantId = stack.seeded.tenants.acme.id
		const user = await createUser(stack.db, {
			tenant_id: tenantId,
			email: `fault-cert-${n}@acme.test`,
			name: `Certified ${n}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		const scope = { tenantId, userId: user.id }
		await putEnrollment(stack.db, scope, COURSE, 'active')
		for (const slug of BEFORE_QUIZ) await markEntryCompleteRow(stack.db, scope, COURSE, slug)
		await passAssignment(stack.db, scope, COURSE, 'build-a-form')
		return { user, b: await stack.signIn(user.email) }
	}
	const certificatesOf = async (userId: string) => {
		const c = stack.db.t.certificates
		return stack.db.orm
			.select()
			.from(c)
			.where(and(eq(c.user_id, userId), eq(c.course_slug, COURSE)))
	}

	it('stores the pass, nothing of a certificate it could not store, and its job issues it once', async () => {
		const WRITES: Write[] = [
			['certificates', 'INSERT'],
			['jobs', 'INSERT', 'mail.certificateIssued'],
		]
		const failures: string[] = []
		let slowest = 0
		for (const write of WRITES) {
			const label = `${describeWrite(write)} failing`
			const { user, b } = await readyForQuiz()
			await stack.settled()
			const before = await snapshot(stack.db, ['certificates', 'jobs'])
			const mailsBefore = stack.mail.count(user.email)
			const drop = await failWrites(stack.db, write)
			let answer
			let partial: string[]
			try {
				answer = await b.post(`/learn/course/${COURSE}/entry/basics-quiz`, RIGHT)
				// Read while the fault holds: the issuing job may be trying meanwhile, and fail too.
				partial = differences(before, await snapshot(stack.db, ['certificates', 'jobs']))
			} finally {
				await drop()
			}
			if (answer.status !== 302) failures.push(`${label}: the pass answered ${answer.status}`)
			if (showsInternals(answer.text)) failures.push(`${label}: internals in the answer`)
			// The pass's own job is its only write here: `jobs: 0 changed or removed, 1 added` with no certificate.
			if (partial.join('; ') !== 'jobs: 0 changed or removed, 1 added or changed')
				failures.push(`${label}: stored ${partial.join('; ') || 'no job for the certificate owed'}`)
			const started = Date.now()
			while (!(await liveCertificate(stack.db, user.tenant_id!, user.id, COURSE)) && Date.now() - started < 20_000)
				await sleep(100)
			slowest = Math.max(slowest, Date.now() - started)
			await stack.settled()
			await sleep(1_000)
			await stack.settled()
			const certificates = await certificatesOf(user.id)
			if (certificates.length !== 1) failures.push(`${label}: ${certificates.length} certificates after the retry`)
			const mails = stack.mail.messages.filter((m) => m.to === user.email).slice(mailsBefore)
			if (mails.length !== 1) failures.push(`${label}: ${mails.length} mails after the retry`)
		}
		reportFault('certificate issuance failing', dialect, {
			'writes failed': WRITES.length,
			'issued by the job within': `${slowest} ms`,
			'stored in part or not issued once': failures.length,
		})
		expect(failures).toEqual([])
	}, 120_000)
})

/** A CSV as a spreadsheet saves it: a header, then `email,name` for each of `rows` (0-based numbers). */
const csvOf = (rows: number[]) =>
	['email,name', ...rows.map((i) => `bulk-${i}@bulk.test,Bulk Person ${i}`)].join('\r\n') + '\r\n'
const ROWS = 10_000
/** The row whose invitation the database refuses: in the 11th chunk of 500 (rows 5,000 to 5,499). */
const REFUSED = 5_300

describe.each(DIALECTS)('10,000 invitations from a CSV with one refused on %s', (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		// The queue waits: the test counts the mail jobs the upload wrote, rather than 10,000 mails.
		stack = await startStack(dialect, { JOB_POLL_SECONDS: '60' })
	})
	afterAll(() => stack?.close())

	/** The bulk addresses' invitations, and the mail jobs written for them (queued, or sent to the sink). */
	async function stored() {
		const i = stack.db.t.invitations
		const rows = await stack.db.orm
			.select({ id: i.id, email: i.email })
			.from(i)
			.where(like(i.email, 'bulk-%@bulk.test'))
		const ids = new Set(rows.map((r) => r.id))
		const jobs =
			stack.db.dialect === 'pg'
				? ((await stack.db.orm.execute(
						sql.raw(
							`select data->'payload'->>'invitationId' as id from pgboss.job where data->>'name' = 'mail.invitation'`,
						),
					)) as unknown as Array<{ id: string }>)
				: (stack.db.orm as unknown as { all(q: unknown): Array<{ id: string }> }).all(
						sql.raw(`select json_extract(payload, '$.invitationId') as id from jobs where name = 'mail.invitation'`),
					)
		const mailed = jobs.filter((j) => ids.has(j.id)).length
		const sent = stack.mail.messages.filter((m) => /^bulk-\d+@bulk\.test$/.test(m.to))
		return { rows, emails: new Set(rows.map((r) => r.email)), mailJobs: mailed, sent }
	}

	/** The upload as a browser posts it, with the process's peak memory and the time it took. */
	async function upload(b: Awaited<ReturnType<Stack['signIn']>>, rows: number[]) {
		const before = process.memoryUsage()
		let peakRss = before.rss
		let peakHeap = before.heapUsed
		const sampler = setInterval(() => {
			const now = process.memoryUsage()
			peakRss = Math.max(peakRss, now.rss)
			peakHeap = Math.max(peakHeap, now.heapUsed)
		}, 25)
		const started = Date.now()
		const answer: TestResponse = await b.postMultipart('/admin/users/invite', { intent: 'csv' }, [
			{ name: 'people.csv', type: 'text/csv', body: csvOf(rows), field: 'file' },
		])
		const ms = Date.now() - started
		clearInterval(sampler)
		const mb = (n: number) => Math.round(n / 1024 / 1024)
		return {
			answer,
			ms,
			memory: `RSS ${mb(before.rss)} to ${mb(peakRss)} MB, heap ${mb(before.heapUsed)} to ${mb(peakHeap)} MB`,
		}
	}

	/** The rows the answer's report says were not stored (its data for the page, as a browser gets it). */
	const notStoredRows = (html: string) =>
		[...html.matchAll(/<tr data-outcome="notStored"><td>([\d,.\s\u202f]+)<\/td>/g)].map((m) =>
			Number(m[1].replace(/\D/g, '')),
		)

	it('stores whole chunks up to the refused row, nothing after it, and a retry of the rest invites each once', async () => {
		const b = await stack.signIn('admin@acme.test')
		const all = Array.from({ length: ROWS }, (_, i) => i)
		const drop = await failWrites(stack.db, ['invitations', 'INSERT'], ['email', `bulk-${REFUSED}@bulk.test`])
		let first
		try {
			first = await upload(b, all)
		} finally {
			await drop()
		}
		const afterFailure = await stored()
		// Line numbers: the header is line 1, row i is line i + 2; the refused row's chunk starts at row 5,000.
		const chunkStart = Math.floor(REFUSED / 500) * 500
		const notStored = notStoredRows(first.answer.text)
		const expectedStored = all.filter((i) => i < chunkStart).map((i) => `bulk-${i}@bulk.test`)

		const retry = await upload(
			b,
			notStored.map((line) => line - 2),
		)
		const afterRetry = await stored()
		const invitedOnRetry = (retry.answer.text.match(/data-outcome="invited"/g) ?? []).length
		reportFault('10,000 invitations from a CSV, one refused', dialect, {
			'first upload': `${first.answer.status} in ${first.ms} ms, ${first.memory}, answer ${Math.round(first.answer.text.length / 1024)} KB`,
			'stored after the failure': afterFailure.rows.length,
			'mail jobs after the failure': afterFailure.mailJobs + (dialect === 'sqlite' ? afterFailure.sent.length : 0),
			'rows reported not stored': notStored.length,
			retry: `${retry.answer.status} in ${retry.ms} ms, ${retry.memory}, ${invitedOnRetry} invited`,
			'stored after the retry': `${afterRetry.rows.length} (${afterRetry.emails.size} addresses)`,
		})
		expect(first.answer.status).toBe(503)
		expect(first.answer.text).not.toMatch(/injected failure|SqliteError|PostgresError/)
		expect([...afterFailure.emails].sort()).toEqual(expectedStored.sort())
		// A mail job for every stored invitation and none for the rest (sent ones are in the sink).
		expect(afterFailure.mailJobs + (dialect === 'sqlite' ? afterFailure.sent.length : 0)).toBe(chunkStart)
		expect(afterFailure.sent.every((m) => afterFailure.emails.has(m.to))).toBe(true)
		expect(notStored).toEqual(all.filter((i) => i >= chunkStart).map((i) => i + 2))
		expect(retry.answer.status).toBe(200)
		expect(invitedOnRetry).toBe(ROWS - chunkStart)
		expect(afterRetry.rows.length).toBe(ROWS)
		expect(afterRetry.emails.size).toBe(ROWS)
		expect(afterRetry.mailJobs + (dialect === 'sqlite' ? afterRetry.sent.length : 0)).toBe(ROWS)
	}, 300_000)
})
