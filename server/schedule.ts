/**
 * The scheduled jobs of every app process (docs/decisions/0047-reminders.md): each period, each
 * process asks for the period's reminder sweep; the queue keeps one per period (db/jobs.ts,
 * enqueueScheduledJob), which whichever worker polls first runs. pg-boss's own cron is not used:
 * it runs on pg-boss's `work()`, whose unawaited queries decision 0033 keeps out of the process.
 */
import { describeError, log } from '#app/platform/log.server.ts'
import type { Database } from '#db/client.ts'
import { enqueueScheduledJob } from '#db/jobs.ts'

/** The start of the period `now` falls in: the same for every process, whatever its clock's phase. */
function periodSlot(now: number, periodMs: number) {
	return new Date(Math.floor(now / periodMs) * periodMs)
}

export function startSchedule(db: Database, everySeconds: number) {
	if (everySeconds <= 0) return { stop: async () => {} }
	const periodMs = everySeconds * 1000
	let running: Promise<void> | null = null
	const tick = () => {
		running ??= enqueueScheduledJob(db, 'reminders.sweep', periodSlot(Date.now(), periodMs))
			.then(() => {})
			// The database out of reach: the next tick asks again (a period's sweep may be skipped, the next one catches up).
			.catch((error: unknown) =>
				log.warn('job/schedule-failed', { job: 'reminders.sweep', error: describeError(error) }),
			)
			.finally(() => (running = null))
	}
	// A few times per period, so a process that starts late in one still asks for it.
	const timer = setInterval(tick, Math.min(60_000, Math.max(500, periodMs / 4)))
	timer.unref()
	tick()
	return {
		async stop() {
			clearInterval(timer)
			await running
		},
	}
}
