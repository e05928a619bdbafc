import { createHash } from 'node:crypto'
import { claimIdempotency, idempotencyRecord, releaseIdempotency, storeIdempotentAnswer } from '#db/api-keys.ts'
import type { RequestContext } from '#app/context.ts'
import type { ApiCaller } from './api-keys.server.ts'
import { ApiProblem, problem, problemOf } from './problems.server.ts'

/*
 * Idempotency-Key on the API's POSTs (decision 0071). The first request with a key claims a row
 * (unique per API key and Idempotency-Key, so of concurrent retries exactly one claims it), does the
 * work, and stores its answer; a retry with the same body gets that answer again, one with another
 * body a 409. A retry that arrives while the first is at work waits for its answer (a few seconds),
 * else gets a 409 saying so. A first request that fails on our side releases the claim: nothing was
 * done, and a retry does the work.
 */

/** A handler's answer: its status and JSON body. */
export interface ApiAnswer {
	status: number
	body: unknown
}

const KEY = /^[\x21-\x7e]{1,255}$/
const WAIT_MS = 10_000
const POLL_MS = 50

function answerResponse(status: number, body: string, replayed: boolean) {
	const headers: Record<string, string> = {
		'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
		'cache-control': 'no-store',
	}
	if (replayed) headers['idempotent-replayed'] = 'true'
	return new Response(body, { status, headers })
}

async function respond(work: () => Promise<ApiAnswer>): Promise<{ status: number; text: string }> {
	try {
		const answer = await work()
		return { status: answer.status, text: JSON.stringify(answer.body) }
	} catch (error) {
		// A refusal (4xx) is the request's answer, kept for its retries; a failure of ours is not.
		if (error instanceof ApiProblem || (error instanceof Response && error.status < 500)) {
			const response = problemOf(error)
			return { status: response.status, text: await response.text() }
		}
		throw error
	}
}

/** Runs a POST's work once per Idempotency-Key (when the request has one) and answers it. */
export async function idempotent(
	ctx: RequestContext,
	caller: ApiCaller,
	request: Request,
	fingerprint: string,
	work: () => Promise<ApiAnswer>,
): Promise<Response> {
	const idempotencyKey = request.headers.get('idempotency-key')
	if (idempotencyKey === null) {
		const done = await respond(work)
		return answerResponse(done.status, done.text, false)
	}
	if (!KEY.test(idempotencyKey))
		throw new ApiProblem(400, 'BAD_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters.')
	const requestHash = createHash('sha256').update(fingerprint).digest('hex')
	const claim = { tenantId: caller.tenant?.id ?? null, keyId: caller.key.id, idempotencyKey, requestHash }
	const deadline = Date.now() + WAIT_MS
	for (;;) {
		const { claimed, record } = await claimIdempotency(ctx.db, claim)
		if (claimed) {
			let done
			try {
				done = await respond(work)
			} catch (error) {
				await releaseIdempotency(ctx.db, record.id)
				throw error
			}
			await storeIdempotentAnswer(ctx.db, record.id, done.status, done.text)
			return answerResponse(done.status, done.text, false)
		}
		// Released between the claim and the read: claim again.
		if (!record) continue
		if (record.request_hash !== requestHash)
			return problem(409, 'CONFLICT', 'This Idempotency-Key was used with another request.')
		const stored = await waitForAnswer(ctx, record.id, record, deadline)
		if (stored === 'released') continue
		if (!stored)
			return problem(409, 'CONFLICT', 'A request with this Idempotency-Key is still at work: retry later.', {
				headers: { 'retry-after': '1' },
			})
		return answerResponse(stored.status, stored.body, true)
	}
}

type Row = NonNullable<Awaited<ReturnType<typeof idempotencyRecord>>>

/** The first request's stored answer, once it has one; 'released' when it failed; null past the deadline. */
async function waitForAnswer(ctx: RequestContext, id: string, first: Row, deadline: number) {
	let row: Row | null = first
	while (row && (row.status === null || row.response_body === null)) {
		if (Date.now() > deadline) return null
		await new Promise((resolve) => setTimeout(resolve, POLL_MS))
		row = await idempotencyRecord(ctx.db, id)
	}
	return row ? { status: row.status!, body: row.response_body! } : ('released' as const)
}
