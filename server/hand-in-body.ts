/**
 * What bounds a hand-in's body in the server entry (docs/decisions/0034-bounded-hand-ins.md): how
 * many are received at once per process, and a body read only as fast as the file store takes it,
 * within a deadline.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createHeaders } from '@remix-run/node-fetch-server'

/**
 * At most `limit` hand-in bodies are received at once; a further one waits up to `waitMs` for a
 * slot (its bytes wait in the socket, not in memory), else it is told to come back (null). Slots
 * are handed over in arrival order.
 */
export function createHandInGate(limit: number, waitMs: number) {
	let active = 0
	const waiting: Array<() => void> = []
	const release = () => {
		const next = waiting.shift()
		if (next) next()
		else active--
	}
	/** A function that gives the slot back (once, however often it is called), or null when none came in time. */
	async function acquire(): Promise<(() => void) | null> {
		const slot = () => {
			let given = false
			return () => {
				if (given) return
				given = true
				release()
			}
		}
		if (active < limit) {
			active++
			return slot()
		}
		// A queue as long again as the slots: beyond it, waiting would only make the answer late.
		if (waiting.length >= limit) return null
		return new Promise((resolve) => {
			const grant = () => {
				clearTimeout(timer)
				resolve(slot())
			}
			const timer = setTimeout(() => {
				waiting.splice(waiting.indexOf(grant), 1)
				resolve(null)
			}, waitMs)
			waiting.push(grant)
		})
	}
	return {
		acquire,
		get active() {
			return active
		},
	}
}

/** The body did not arrive whole: the client went away, or it was slower than the deadline. */
class BodyNotReceived extends Error {}

/**
 * A request's body as a web stream that reads from the socket only when its reader asks (no queue:
 * the stock adapter's body takes every chunk as it arrives, so a slow file store left the rest of a
 * hand-in in memory). It errors when the request closes before its end or the deadline passes; then
 * the connection is closed after the answer. Cancelled, or answered while unread, the rest is read
 * off the socket and dropped, within the same deadline.
 */
function pulledBody(req: IncomingMessage, res: ServerResponse, deadlineMs: number) {
	let failed: BodyNotReceived | null = null
	let fail: (error: BodyNotReceived) => void = () => {}
	// IncomingMessage emits 'error' when the client resets; with a listener, it is ours to ignore (the stream says so).
	req.on('error', () => {})
	const drop = () => {
		req.removeAllListeners('readable')
		req.resume()
	}
	const timer = setTimeout(() => {
		if (req.complete) return
		failed = new BodyNotReceived('the hand-in did not arrive within its deadline')
		// A reader waiting for the next chunk is told now, and the next one when it asks.
		fail(failed)
		// Nothing more is taken from this client: its answer closes the connection, or, answered already, it goes now.
		res.shouldKeepAlive = false
		if (res.writableFinished) req.destroy()
	}, deadlineMs)
	timer.unref()
	req.once('close', () => clearTimeout(timer))
	// An answer sent before the body was read whole (a refusal, an error): the rest is dropped as it comes.
	res.once('finish', () => {
		if (req.complete) return
		if (failed) req.destroy()
		else drop()
	})

	// The listeners of the pull under way, removed when it settles or the stream is cancelled.
	let settle = () => {}
	const body = new ReadableStream<Uint8Array>(
		{
			pull(controller) {
				if (failed) return controller.error(failed)
				return new Promise<void>((resolve) => {
					settle = () => {
						req.off('readable', read)
						req.off('end', end)
						req.off('close', closed)
						fail = () => {}
						settle = () => {}
						resolve()
					}
					const read = () => {
						const chunk = req.read() as Buffer | null
						if (chunk === null) return
						settle()
						controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
					}
					const end = () => {
						settle()
						controller.close()
					}
					const closed = () => {
						if (req.readableEnded) return
						settle()
						controller.error(new BodyNotReceived('the client went away before the end of its hand-in'))
					}
					fail = (error) => {
						settle()
						controller.error(error)
					}
					if (req.readableEnded) return end()
					if (req.destroyed) return closed()
					req.on('readable', read)
					req.on('end', end)
					req.on('close', closed)
					read()
				})
			},
			cancel() {
				// A pull under way ends without touching the stream, which is closed now.
				settle()
				drop()
			},
		},
		// Nothing read ahead: a chunk is taken off the socket when the reader asks for one.
		{ highWaterMark: 0 },
	)
	return body
}

/**
 * The Request a hand-in's action is given: as the adapter's createRequest makes it (headers, a signal
 * aborted when the connection closes before the answer), with the pulled body instead of its queue.
 */
export function handInRequest(req: IncomingMessage, res: ServerResponse, url: string, deadlineMs: number) {
	const controller = new AbortController()
	let answered = false
	res.once('finish', () => (answered = true))
	res.once('close', () => {
		if (!answered) controller.abort()
	})
	return new Request(url, {
		method: req.method,
		headers: createHeaders(req),
		signal: controller.signal,
		body: pulledBody(req, res, deadlineMs),
		duplex: 'half',
	} as RequestInit)
}
