/**
 * The mixed load of issue 46 (tests/faults/quiz-load.ts) at 40 clients, twice the load that got 503s
 * with no fault at all, on PostgreSQL with two processes: no answer 5xx and every acknowledged quiz
 * attempt stored. `npm run bench:load` runs it longer and records its figures in docs/measurements.md.
 */
import { describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { describeLoad, runQuizLoad } from './quiz-load.ts'
import { reportFault } from './support.ts'

describe.each(DIALECTS.filter((d) => d === 'pg'))('40 clients of quiz submissions and page reads (%s)', () => {
	it('answers no 5xx and stores every acknowledged attempt', async () => {
		const f = await runQuizLoad({ clients: 40, seconds: 12 })
		console.log(describeLoad(f))
		reportFault(
			'ordinary load',
			'pg',
			{
				requests: f.requests,
				statuses: f.statuses,
				'quiz submissions': f.quizSubmissions,
				'writes acknowledged': f.acknowledged,
				found: f.found,
				'stored but answered as failed': f.storedButFailed,
				'p99 answer': `${f.p99} ms`,
				'slowest answer': `${f.slowest} ms`,
			},
			{
				requests: f.requests,
				acknowledged: f.acknowledged,
				found: f.found,
				failedButStored: f.storedButFailed,
				slowestMs: f.slowest,
			},
		)
		expect(f.failures).toEqual([])
		expect(f.fiveHundreds).toBe(0)
		expect(f.acknowledged).toBeGreaterThan(0)
		expect(f.found).toBe(f.acknowledged)
	}, 90_000)
})
