import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import type { CheckedTarget } from './webhook-address.server.ts'

/*
 * One POST of a webhook (decision 0072), to the address checked by webhook-address.server.ts and to
 * no other: the request's own name lookup is replaced by that address (TLS still verifies the
 * certificate for the URL's name), redirects are not followed (a 3xx is a failed attempt), and the
 * whole exchange, answer included, is cut at the timeout. Only the first bytes of an answer are read.
 */

export interface SendResult {
	statusCode: number | null
	durationMs: number
	error: string | null
	ok: boolean
}

/** What is read of an answer before it is dropped. */
const MAX_ANSWER_BYTES = 16 * 1024

export function sendWebhook(
	target: CheckedTarget,
	headers: Record<string, string>,
	body: string,
	timeoutMs: number,
): Promise<SendResult> {
	const started = performance.now()
	const elapsed = () => Math.round(performance.now() - started)
	const pinned: LookupFunction = (_host, options, callback) => {
		const cb = callback as (...args: unknown[]) => void
		if (options?.all) cb(null, [{ address: target.address, family: target.family }])
		else cb(null, target.address, target.family)
	}
	const request = target.url.protocol === 'https:' ? https.request : http.request
	return new Promise((resolve) => {
		let settled = false
		const finish = (result: Omit<SendResult, 'durationMs' | 'ok'>) => {
			if (settled) return
			settled = true
			clearTimeout(timer)
			const code = result.statusCode
			const ok = result.error === null && code !== null && code >= 200 && code < 300
			resolve({ ...result, durationMs: elapsed(), ok })
		}
		const req = request(target.url, {
			method: 'POST',
			headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
			lookup: pinned,
			agent: false,
		})
		const timer = setTimeout(() => {
			finish({ statusCode: null, error: `timed out after ${timeoutMs} ms` })
			req.destroy()
		}, timeoutMs)
		req.on('error', (error) => finish({ statusCode: null, error: error.message }))
		req.on('response', (res) => {
			const code = res.statusCode ?? null
			let read = 0
			res.on('data', (chunk: Buffer) => {
				read += chunk.length
				if (read > MAX_ANSWER_BYTES) res.destroy()
			})
			const done = () =>
				finish({
					statusCode: code,
					error: code !== null && code >= 300 && code < 400 ? 'redirect not followed' : null,
				})
			res.on('end', done)
			res.on('close', done)
			res.on('error', done)
		})
		req.end(body)
	})
}
