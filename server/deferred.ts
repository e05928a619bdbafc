import { describeError, log } from '#app/platform/log.server.ts'

/**
 * Best-effort work a request leaves for after its answer is sent
 * (RequestContext.afterResponse: a session's renewal), so that it never delays
 * the answer. Nothing durable: what must happen (mail, housekeeping) is a job
 * of the queue (server/queue.ts). Failures are logged; shutdown waits for what
 * is under way.
 */
export function createDeferredWork() {
	const running = new Set<Promise<unknown>>()
	return {
		run(tasks: Array<() => Promise<unknown>>) {
			for (const task of tasks) {
				// On the next turn of the event loop, not in a microtask: Node flushes the answer's bytes
				// from a nextTick that runs after the current microtasks, and a synchronous SQLite write
				// here would hold them back by the time it takes (a measurable account oracle).
				const done = new Promise((resolve) => setImmediate(resolve))
					.then(task)
					.catch((error) => log.error('request/deferred-failed', { error: describeError(error) }))
					.finally(() => running.delete(done))
				running.add(done)
			}
		},
		/**
		 * Work under way that shutdown must wait for though it is no deferred task (RequestContext.holdDrain):
		 * a hand-in being received, whose files are removed when the drain cuts it (before the pool is
		 * closed, or the removal fails and leaves them behind). Its failure is its own to report.
		 */
		hold(work: Promise<unknown>) {
			const done: Promise<unknown> = work.then(
				() => {},
				() => {},
			)
			running.add(done)
			void done.then(() => running.delete(done))
		},
		async settled() {
			await Promise.allSettled([...running])
		},
	}
}
