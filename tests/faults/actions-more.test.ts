/**
 * Fault: multi-write actions that do not fit tests/faults/actions.test.ts's shape (an error answer,
 * nothing stored, the same request again does it all), with a write made to fail half way (issue 46).
 *
 * - A certificate issued at a pass: the pass is the learner's and stands (302), the certificate is
 *   issued after its commit. A write of the certificate refused: nothing of the certificate is stored
 *   (no row, no mail job), and the job the pass left issues it once the fault is gone, mailed once.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { liveCertificate } from '#db/certificates.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { createUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { passAssignment } from '#tests/support/results.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { describeWrite, differences, failWrites, showsInternals, snapshot, type Write } from './failing-writes.ts'
import { reportFault, sleep } from './support.ts'

const ACME = 'acme.localhost'
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
