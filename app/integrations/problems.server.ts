import { STATUS_CODES } from 'node:http'
import type { z } from 'zod'
import { errorCodeFor, type ErrorBody, type ErrorCode } from '../platform/errors.ts'
import { describeError, log } from '../platform/log.server.ts'

// The REST API's errors (decision 0071): RFC 9457 problem+json carrying the project's `{error, code, issues?}`.

/** Thrown by a handler (or anything it calls): the problem answer of that status. */
export class ApiProblem extends Error {
	constructor(
		readonly status: number,
		readonly code: ErrorCode,
		message: string,
		readonly issues?: ErrorBody['issues'],
	) {
		super(message)
	}
}

export function problem(
	status: number,
	code: ErrorCode,
	error: string,
	init: { issues?: ErrorBody['issues']; headers?: HeadersInit } = {},
) {
	const body = {
		type: 'about:blank',
		title: STATUS_CODES[status] ?? 'Error',
		status,
		detail: error,
		error,
		code,
		...(init.issues ? { issues: init.issues } : {}),
	}
	const headers = new Headers(init.headers)
	headers.set('content-type', 'application/problem+json')
	headers.set('cache-control', 'no-store')
	return new Response(JSON.stringify(body), { status, headers })
}

/** Zod's issues in the envelope's shape. */
function issuesOf(error: z.ZodError): ErrorBody['issues'] {
	return error.issues.map((i) => ({
		path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
		message: i.message,
	}))
}

/** The value a schema gives, or the 400 naming each wrong field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, what: 'query' | 'body'): z.infer<S> {
	const result = schema.safeParse(value)
	if (!result.success)
		throw new ApiProblem(400, 'VALIDATION_FAILED', `The ${what} is not valid.`, issuesOf(result.error))
	return result.data
}

/** A thrown Response (the admin room's guards: 404, 403) or ApiProblem as a problem answer; else a 500. */
export function problemOf(error: unknown) {
	if (error instanceof ApiProblem) return problem(error.status, error.code, error.message, { issues: error.issues })
	if (error instanceof Response && error.status < 500) {
		const sentence = error.status === 404 ? 'Not found.' : error.status === 403 ? 'Forbidden.' : 'Refused.'
		return problem(error.status, errorCodeFor(error.status), sentence)
	}
	log.error('api/failed', { error: describeError(error) })
	return problem(500, 'INTERNAL_ERROR', 'Something went wrong on our side.')
}
