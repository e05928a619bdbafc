/**
 * Fault: a write that fails half way (issue 26, case 3). A learner's last
 * quiz attempt earns the entry's completion; the completion's write is made
 * to fail (PostgreSQL: a lock held on entry_progress, and the waiting
 * statement's connection terminated; SQLite: a trigger refusing the row).
 * The attempt must not be stored without its completion, the learner must be
 * told it failed, and the same submission sent again must then count once
 * and let the learner finish the course.
 */
import { and, eq } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markEntryCompleteRow } from '#db/learning.ts'
import { listSubmissions } from '#db/submissions.ts'
import { findUserByEmail } from '#db/users.ts'
import { DIALECTS, execRaw } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { reportFault, sleep } from './support.ts'
import { recordAttempt } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const QUIZ = `/learn/course/${COURSE}/entry/basics-quiz`

describe.each(DIALECTS)('a write failing half way on %s', (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(() => stack?.close())

	it('stores a quiz attempt with the completion it earns, or neither', async () => {
		const acme = stack.seeded.tenants.acme.id
		const learner = (await findUserByEmail(stack.db, acme, 'learner@acme.test'))!
		const scope = { tenantId: acme, userId: learner.id }
		// Two failed attempts already: the third is the last, and completes the entry whatever its score.
		await markEntryCompleteRow(stack.db, scope, COURSE, 'html-forms')
		for (let i = 0; i < 2; i++)
			await recordAttempt(stack.db, scope, COURSE, 'basics-quiz', 3, {
				score: 0,
				passed: false,
				answers: {},
				feedback: [],
			})
		const b = stack.browser(ACME)
		expect((await b.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })).status).toBe(302)
		const attempts = () =>
			stack.db.orm
				.select()
				.from(stack.db.t.quiz_attempts)
				.where(
					and(eq(stack.db.t.quiz_attempts.user_id, learner.id), eq(stack.db.t.quiz_attempts.entry_slug, 'basics-quiz')),
				)
		const quizDone = async () =>
			(
				await stack.db.orm
					.select()
					.from(stack.db.t.entry_progress)
					.where(
						and(
							eq(stack.db.t.entry_progress.user_id, learner.id),
							eq(stack.db.t.entry_progress.entry_slug, 'basics-quiz'),
						),
					)
			)[0]?.completed_at != null
		const form = {
			intent: 'submit-quiz',
			submission: 'last-attempt-submission-key',
			'q:q-method': 'get',
			'q:q-nojs': 'false',
			'q:q-element': 'div',
		}

		let failed
		if (dialect === 'pg') {
			// Writes to entry_progress wait on a lock held elsewhere; the waiting connection is then terminated.
			const other = postgres(stack.db.url, { max: 2, onnotice: () => {} })
			const holder = await other.reserve()
			await holder`begin`
			await holder`lock table entry_progress in exclusive mode`
			const pending = b.post(QUIZ, form)
			await sleep(500)
			const waiting =
				await other`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`
			for (const { pid } of waiting) await other`select pg_terminate_backend(${pid})`
			failed = await pending
			await holder`rollback`
			holder.release()
			await other.end()
			expect(waiting.length, 'a statement waited on the lock').toBeGreaterThan(0)
		} else {
			await execRaw(
				stack.db,
				"CREATE TRIGGER refuse_progress BEFORE INSERT ON entry_progress BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
			)
			try {
				failed = await b.post(QUIZ, form)
			} finally {
				await execRaw(stack.db, 'DROP TRIGGER refuse_progress')
			}
		}
		const storedAfterFailure = (await attempts()).length
		const completedAfterFailure = await quizDone()

		// The learner sends the same form again: one attempt, the completion with it.
		const retried = await b.post(QUIZ, form)
		const again = await b.post(QUIZ, form)
		const rows = await attempts()
		await b.post(`/learn/course/${COURSE}/entry/progressive-enhancement`, { intent: 'complete' })
		// The graded assignment completes the course once a passing grade is given (decision 0027).
		await b.post(`/learn/course/${COURSE}/entry/build-a-form`, { intent: 'hand-in', text: 'Done' })
		const [handedIn] = await listSubmissions(stack.db, scope, COURSE, 'build-a-form')
		const author = stack.browser(ACME)
		await author.post('/learn/sign-in', { email: 'author@acme.test', password: DEMO_PASSWORD })
		await author.post(`/admin/courses/${COURSE}/submissions/${handedIn.id}`, {
			intent: 'grade',
			score: '9',
			feedback: '',
		})
		const [enrollment] = await stack.db.orm
			.select()
			.from(stack.db.t.enrollments)
			.where(and(eq(stack.db.t.enrollments.user_id, learner.id), eq(stack.db.t.enrollments.course_slug, COURSE)))

		reportFault('quiz attempt with its completion', dialect, {
			'failed answer': failed.status,
			'attempts stored by the failed submission': storedAfterFailure - 2,
			'completion stored by it': completedAfterFailure ? 'yes' : 'no',
			'retry answers': `${retried.status} then ${again.status}`,
			'attempts after retries': rows.length,
			enrollment: enrollment.status,
		})
		expect(failed.status).toBeGreaterThanOrEqual(500)
		if (dialect === 'pg') expect(failed.text).toContain('We could not reach our database')
		expect(failed.text).not.toMatch(/injected failure|entry_progress|SqliteError|PostgresError/)
		expect(storedAfterFailure, 'an attempt stored without its completion').toBe(2)
		expect(completedAfterFailure).toBe(false)
		expect(retried.status).toBe(302)
		expect(retried.headers.location).toBe(`${QUIZ}?attempt=3`)
		// The same submission again is the same attempt, not a fourth.
		expect(again.headers.location).toBe(`${QUIZ}?attempt=3`)
		expect(rows.map((r) => r.attempt_number).sort()).toEqual([1, 2, 3])
		expect(await quizDone()).toBe(true)
		expect(enrollment.status).toBe('completed')
	}, 60_000)
})
