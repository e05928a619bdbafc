/**
 * The orphan sweep (docs/decisions/0034-bounded-hand-ins.md): every process removes unclaimed
 * hand-in files older than the grace at start (what a killed process left) and then periodically
 * (what a failed clean-up left). Several processes sweeping at once is harmless: each row is
 * deleted by one of them, and answered to that one only.
 */
import { removeAbandonedFiles } from '#app/learning/hand-in.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import type { Database } from '#db/client.ts'

export function startFileSweep(db: Database, graceMs: number) {
	// Often enough that an orphan outlives its grace by at most half of it, and never more than a minute.
	const everyMs = Math.min(60_000, Math.max(1_000, graceMs / 2))
	let running: Promise<void> | null = null
	const sweep = () => {
		running ??= removeAbandonedFiles({ db }, graceMs)
			.then((removed) => {
				if (removed > 0) log.info('files/orphans-removed', { files: removed })
			})
			.catch((error: unknown) => log.warn('files/sweep-failed', { error: describeError(error) }))
			.finally(() => (running = null))
	}
	sweep()
	const timer = setInterval(sweep, everyMs)
	timer.unref()
	return {
		async stop() {
			clearInterval(timer)
			await running
		},
	}
}
