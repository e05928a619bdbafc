// The single list of error codes; JSON error bodies and the OpenAPI document both use it.
export const ERROR_CODES = [
	'BAD_REQUEST',
	'VALIDATION_FAILED',
	'UNAUTHORIZED',
	'FORBIDDEN',
	'NOT_FOUND',
	'METHOD_NOT_ALLOWED',
	'CONFLICT',
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
export function jsonError(
	status: number,
	code: ErrorCode,
	error: string,
	init: { issues?: ErrorBody['issues']; headers?: HeadersInit } = {},
) {
	const body: ErrorBody = { error, code, ...(init.issues ? { issues: init.issues } : {}) }
	const headers = new Headers(init.headers)
	headers.set('cache-control', 'no-store')
	return Response.json(body, { status, headers })
}

const CODE_OF_STATUS: Record<number, ErrorCode> = {
	400: 'BAD_REQUEST',
	401: 'UNAUTHORIZED',
	403: 'FORBIDDEN',
	404: 'NOT_FOUND',
	405: 'METHOD_NOT_ALLOWED',
	409: 'CONFLICT',
	410: 'GONE',
	413: 'PAYLOAD_TOO_LARGE',
	429: 'RATE_LIMITED',
	501: 'NOT_IMPLEMENTED',
	503: 'SERVICE_UNAVAILABLE',
}

/** The error code an HTTP status stands for; other statuses map to BAD_REQUEST or INTERNAL_ERROR. */
export function errorCodeFor(status: number): ErrorCode {
	return CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST')
}

/** Under /api/ every answer is JSON, errors in the envelope above (the JSON API, decision 0010). */
export function isApiPath(path: string) {
	return path === '/api' || path.startsWith('/api/')
}

/** The answer of a POST-only route handler to GET. */
export const postOnly = () => jsonError(405, 'METHOD_NOT_ALLOWED', 'Use POST', { headers: { allow: 'POST' } })

/** Thrown by a loader or action: the error boundary shows the page for the status (under /api/, the envelope). */
const statusOnly = (status: 400 | 404 | 410) => () => new Response(null, { status })
/** The one 404: no such page, record or course here (also what a course_admin gets on other /admin pages). */
export const notFound = statusOnly(404)
export const gone = statusOnly(410)
export const badRequest = statusOnly(400)
/** Thrown by a guard: the page for 403, its sentence from the catalogue. */
export const forbidden = () => new Response('common.errors.forbidden', { status: 403 })
/** Thrown when a form post's body is not a form (wrong content type, a field where a file was due). */
export const notAForm = () => new Response('common.errors.notAForm', { status: 400 })
