import { z } from 'zod'
import { DISPLAY_TEXT } from '../../platform/validation.ts'

/*
 * SCIM 2.0 as this service speaks it (RFC 7643, RFC 7644; decision 0070): the media type, the error
 * shape, the resource URNs, filters and paging. No I/O here.
 */

const SCIM_MEDIA_TYPE = 'application/scim+json'
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'
/** The enterprise extension Entra ID sends with users (employeeNumber, department…): accepted, not stored. */
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'

/** A request body above this is refused unread (413); the server entry's own limit is larger. */
export const MAX_SCIM_BODY_BYTES = 64 * 1024
/** The most resources a list answers at once (`count` above it is lowered to it, RFC 7644 3.4.2.4). */
export const MAX_PAGE = 100
/** The most members one request may add, remove or set, and the most operations one PATCH may carry. */
export const MAX_MEMBERS = 1000
export const MAX_OPERATIONS = 100

export type ScimType =
	| 'invalidFilter'
	| 'tooMany'
	| 'uniqueness'
	| 'mutability'
	| 'invalidSyntax'
	| 'invalidPath'
	| 'noTarget'
	| 'invalidValue'

/** An error in SCIM's shape (RFC 7644 3.12), with the SCIM media type and no caching. */
export function scimError(status: number, detail: string, scimType?: ScimType, headers: Record<string, string> = {}) {
	return scimJson(
		{ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail },
		{ status, headers },
	)
}

/** Thrown by the operations, answered by the handler with `scimError`. */
export class ScimProblem extends Error {
	constructor(
		readonly status: number,
		detail: string,
		readonly scimType?: ScimType,
	) {
		super(detail)
	}
}

export const badRequest = (detail: string, scimType: ScimType = 'invalidValue') =>
	new ScimProblem(400, detail, scimType)
export const notFound = () => new ScimProblem(404, 'No such resource')

export function scimJson(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
	return new Response(JSON.stringify(body), {
		status: init.status ?? 200,
		headers: { 'content-type': SCIM_MEDIA_TYPE, 'cache-control': 'no-store', ...init.headers },
	})
}

export function listResponse(resources: unknown[], total: number, startIndex: number) {
	return {
		schemas: [LIST_SCHEMA],
		totalResults: total,
		startIndex,
		itemsPerPage: resources.length,
		Resources: resources,
	}
}

/** `startIndex` (1-based) and `count` of a list request; anything but plain integers is 400. */
export function readPaging(params: URLSearchParams) {
	const integer = (name: string, fallback: number) => {
		const values = params.getAll(name)
		if (values.length === 0) return fallback
		if (values.length > 1 || !/^-?\d{1,9}$/.test(values[0]!)) throw badRequest(`${name} must be an integer`)
		return Number(values[0])
	}
	// RFC 7644 3.4.2.4: startIndex below 1 is read as 1, a negative count as 0.
	const startIndex = Math.max(1, integer('startIndex', 1))
	const count = Math.min(MAX_PAGE, Math.max(0, integer('count', MAX_PAGE)))
	return { startIndex, count, offset: startIndex - 1 }
}

/**
 * The one filter form identity providers send to find a resource: `<attribute> eq "<value>"`,
 * attribute names case-insensitive (RFC 7643 2.1). Any other filter is 400 invalidFilter.
 */
export function readFilter<A extends string>(
	raw: string | null,
	attributes: readonly A[],
): { attribute: A; value: string } | null {
	if (raw === null) return null
	if (raw.length > 512) throw badRequest('The filter is too long', 'invalidFilter')
	const match = /^\s*([A-Za-z][\w.:]*)\s+eq\s+"((?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*)"\s*$/i.exec(raw)
	const attribute = match && attributes.find((a) => a.toLowerCase() === match[1]!.toLowerCase())
	if (!match || !attribute)
		throw badRequest(`Supported filters: ${attributes.map((a) => `${a} eq "…"`).join(', ')}`, 'invalidFilter')
	return { attribute, value: JSON.parse(`"${match[2]}"`) as string }
}

/** Reads the request's JSON body within the limit; a body that is not a JSON object is 400. */
export async function readScimBody(request: Request): Promise<Record<string, unknown>> {
	const length = Number(request.headers.get('content-length') ?? 0)
	if (length > MAX_SCIM_BODY_BYTES) throw new ScimProblem(413, 'The request body is too large')
	const text = await request.text()
	if (Buffer.byteLength(text) > MAX_SCIM_BODY_BYTES) throw new ScimProblem(413, 'The request body is too large')
	let body: unknown
	try {
		body = JSON.parse(text)
	} catch {
		throw badRequest('The body is not JSON', 'invalidSyntax')
	}
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw badRequest('The body is not a JSON object', 'invalidSyntax')
	return body as Record<string, unknown>
}

/** `schemas` must be present and name only URNs this resource knows (RFC 7643 3). */
export function requireSchemas(body: Record<string, unknown>, required: string, allowed: readonly string[]) {
	const schemas = body.schemas
	if (!Array.isArray(schemas) || schemas.length > 10 || !schemas.every((s) => typeof s === 'string'))
		throw badRequest('schemas must be a list of URNs', 'invalidSyntax')
	if (!schemas.includes(required)) throw badRequest(`schemas must include ${required}`, 'invalidSyntax')
	const unknown = schemas.filter((s) => !allowed.includes(s))
	if (unknown.length) throw badRequest(`Unknown schema: ${unknown[0]!.slice(0, 100)}`, 'invalidSyntax')
}

/** SCIM booleans as identity providers send them: Entra ID sends "True" and "False" as strings. */
const scimBoolean = z.union([
	z.boolean(),
	z
		.string()
		.regex(/^(true|false)$/i)
		.transform((s) => s.toLowerCase() === 'true'),
])

/** Text kept and shown to people: no control characters or bidirectional overrides (DISPLAY_TEXT). */
const text = (max: number) => z.string().trim().max(max).regex(DISPLAY_TEXT, 'control characters')

/** The User attributes this service keeps (others are accepted and ignored, RFC 7644 3.3). */
export const userInput = z.object({
	userName: text(254).pipe(z.email()),
	externalId: text(255).min(1).nullish(),
	displayName: text(200).nullish(),
	name: z
		.object({
			formatted: text(200).nullish(),
			givenName: text(100).nullish(),
			familyName: text(100).nullish(),
		})
		.nullish(),
	active: scimBoolean.nullish(),
})
export type UserInput = z.infer<typeof userInput>

/** A display name from a User: displayName, else name.formatted, else the given and family names. */
export function displayNameOf(input: UserInput) {
	const parts = [input.name?.givenName, input.name?.familyName].filter(Boolean).join(' ')
	return (input.displayName || input.name?.formatted || parts || '').slice(0, 200)
}

/** A group member as sent (`value` is the user's id); at most MAX_MEMBERS. */
const memberList = z
	.array(z.object({ value: z.string().min(1).max(64) }).loose())
	.max(MAX_MEMBERS, `At most ${MAX_MEMBERS} members at once`)

export const groupInput = z.object({
	displayName: text(200).min(1),
	externalId: text(255).min(1).nullish(),
	members: memberList.nullish(),
})

/** Zod's first issue as SCIM's detail. */
export function zodDetail(error: z.ZodError) {
	const issue = error.issues[0]
	return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid value'
}
