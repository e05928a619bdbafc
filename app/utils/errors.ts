// The single list of error codes; JSON error bodies and the OpenAPI document both use it.
export const ERROR_CODES = [
	'BAD_REQUEST',
	'VALIDATION_FAILED',
	'UNAUTHORIZED',
	'FORBIDDEN',
	'NOT_FOUND',
	'METHOD_NOT_ALLOWED',
	'GONE',
	'PAYLOAD_TOO_LARGE',
	'RATE_LIMITED',
	'NOT_IMPLEMENTED',
	'SERVICE_UNAVAILABLE',
	'INTERNAL_ERROR',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

export interface ErrorBody {
	error: string
	code: ErrorCode
	issues?: Array<{ path: Array<string | number>; message: string }>
}

/** A JSON error response in the spec's envelope `{ error, code, issues? }`. */
export function jsonError(status: number, code: ErrorCode, error: string, init: { issues?: ErrorBody['issues']; headers?: HeadersInit } = {}) {
	const body: ErrorBody = { error, code, ...(init.issues ? { issues: init.issues } : {}) }
	const headers = new Headers(init.headers)
	headers.set('cache-control', 'no-store')
	return Response.json(body, { status, headers })
}
