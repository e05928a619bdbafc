import { createHash } from 'node:crypto'
import type { RouterContextProvider } from 'react-router'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { apiCaller, keyInUrl, recordUse, type ApiCaller } from './api-keys.server.ts'
import { idempotent, type ApiAnswer } from './idempotency.server.ts'
import { ApiProblem, problem, problemOf } from './problems.server.ts'

export type { ApiAnswer }

/*
 * The REST API's one door (/api/v1/, issue 49, decision 0071): every route module of it hands its
 * handlers to `apiRoute`, which answers in this order: a key in the URL (400), the key (401), the
 * key's rate limit (429), a read-only key writing (403), the body and Idempotency-Key (POST), then
 * the handler; a read's answer carries an ETag and answers If-None-Match with 304. Every error is
 * RFC 9457 problem+json that also carries the project's `{error, code, issues?}`, never a stack.
 */

/** The caller of a site's API: a key of the host's tenant. */
export type SiteCaller = ApiCaller & { tenant: NonNullable<ApiCaller['tenant']> }
/** The caller of the platform's API (/api/v1/tenants): a platform key on the platform's host. */
export type PlatformCaller = ApiCaller & { tenant: null }

export interface ApiCall<C extends ApiCaller = SiteCaller> {
	caller: C
	ctx: RequestContext
	params: Partial<Record<string, string>>
	url: URL
	/** The parsed JSON body of a POST ({} when empty). */
	body: unknown
}

export type ApiHandler<C extends ApiCaller = SiteCaller> = (call: ApiCall<C>) => Promise<ApiAnswer>

const MAX_BODY = 64 * 1024

/** The query's parameters, a repeated one refused (never "the first wins"). */
export function queryOf(url: URL) {
	const query: Record<string, string> = {}
	for (const [name, value] of url.searchParams) {
		if (name in query) throw new ApiProblem(400, 'VALIDATION_FAILED', `The parameter ${name} is repeated.`)
		query[name] = value
	}
	return query
}

async function readJson(request: Request) {
	const text = await request.text()
	if (text.length > MAX_BODY) throw new ApiProblem(413, 'PAYLOAD_TOO_LARGE', 'The body is larger than 64 KiB.')
	if (!text.trim()) return { text, json: {} }
	const type = request.headers.get('content-type') ?? ''
	if (!/^application\/(.+\+)?json\b/i.test(type))
		throw new ApiProblem(400, 'BAD_REQUEST', 'Send the body as application/json.')
	try {
		return { text, json: JSON.parse(text) as unknown }
	} catch {
		throw new ApiProblem(400, 'BAD_REQUEST', 'The body is not JSON.')
	}
}

/** Which API a key may call: a site's key its site's, a platform key the tenants' (decision 0087). */
const isSiteCaller = (caller: ApiCaller): caller is SiteCaller => caller.tenant !== null
const isPlatformCaller = (caller: ApiCaller): caller is PlatformCaller => caller.tenant === null
const WRONG_KIND = {
	site: 'A platform key manages tenants (/api/v1/tenants): a site’s people and courses need a key of that site.',
	platform: 'Tenants are managed with a platform key, made by a super admin at /admin/tenants/api.',
}

/** The caller of the request, after the checks every call passes; else the problem answer. */
async function admit<C extends ApiCaller>(
	ctx: RequestContext,
	request: Request,
	url: URL,
	write: boolean,
	kind: { name: keyof typeof WRONG_KIND; accepts: (caller: ApiCaller) => caller is C },
) {
	if (keyInUrl(url))
		return problem(400, 'BAD_REQUEST', 'API keys go in the Authorization header (Bearer), never in the URL.')
	const caller = await apiCaller(ctx, request)
	if (caller === 'missing' || caller === 'invalid')
		return problem(
			401,
			'UNAUTHORIZED',
			caller === 'missing'
				? 'Send an API key as `Authorization: Bearer <key>`.'
				: 'The API key is not valid on this site.',
			{
				headers: { 'www-authenticate': 'Bearer' },
			},
		)
	const { allowed, retryAfter } = await ctx.rateLimit.consume('apiKey', `key|${caller.key.id}`)
	if (!allowed)
		return problem(429, 'RATE_LIMITED', 'Too many requests with this key.', {
			headers: { 'retry-after': String(retryAfter) },
		})
	await recordUse(ctx, caller.key)
	if (!kind.accepts(caller)) return problem(403, 'FORBIDDEN', WRONG_KIND[kind.name])
	if (write && caller.key.scope !== 'read_write') return problem(403, 'FORBIDDEN', 'This API key may only read.')
	return caller
}

function etagOf(text: string) {
	return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`
}

/** A read's answer: JSON with its ETag, or 304 when the client has it. */
function readAnswer(request: Request, answer: ApiAnswer) {
	const text = JSON.stringify(answer.body)
	const etag = etagOf(text)
	const headers = { etag, 'cache-control': 'private, no-cache', vary: 'Authorization' }
	const match = request.headers.get('if-none-match')
	if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))
		return new Response(null, { status: 304, headers })
	return new Response(text, { status: answer.status, headers: { ...headers, 'content-type': 'application/json' } })
}

interface Args {
	request: Request
	context: Readonly<RouterContextProvider>
	params: Partial<Record<string, string>>
}

/** A site's route module's loader (GET) and action (POST) from its handlers. */
export function apiRoute(handlers: { get?: ApiHandler; post?: ApiHandler }) {
	return door(handlers, { name: 'site', accepts: isSiteCaller })
}

/** The platform's route module's loader and action (/api/v1/tenants: platform keys only). */
export function platformApiRoute(handlers: { get?: ApiHandler<PlatformCaller>; post?: ApiHandler<PlatformCaller> }) {
	return door(handlers, { name: 'platform', accepts: isPlatformCaller })
}

function door<C extends ApiCaller>(
	handlers: { get?: ApiHandler<C>; post?: ApiHandler<C> },
	kind: { name: keyof typeof WRONG_KIND; accepts: (caller: ApiCaller) => caller is C },
) {
	const run = async ({ request, context, params }: Args, write: boolean) => {
		const ctx = getRequestContext(context)
		const url = new URL(request.url)
		const handler = write ? handlers.post : handlers.get
		if (!handler || (request.method !== 'POST' && write))
			return problem(405, 'METHOD_NOT_ALLOWED', `Use ${handlers.get ? 'GET' : 'POST'}.`, {
				headers: { allow: [handlers.get && 'GET', handlers.post && 'POST'].filter(Boolean).join(', ') },
			})
		try {
			const caller = await admit(ctx, request, url, write, kind)
			if (caller instanceof Response) return caller
			if (!write) return readAnswer(request, await handler({ caller, ctx, params, url, body: {} }))
			const { text, json } = await readJson(request)
			return await idempotent(ctx, caller, request, `${url.pathname}\n${text}`, () =>
				handler({ caller, ctx, params, url, body: json }),
			)
		} catch (error) {
			return problemOf(error)
		}
	}
	return {
		loader: (args: Args) => run(args, false),
		action: (args: Args) => run(args, true),
	}
}

// --- Pages -----------------------------------------------------------------------------------------

/** The opaque cursor of a page that ends with this id. */
const encodeCursor = (id: string) => Buffer.from(`v1:${id}`).toString('base64url')

/** The id a cursor names; '' for none; a 400 for anything that is not one of ours. */
export function decodeCursor(cursor: string | undefined) {
	if (cursor === undefined) return ''
	const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
	const match = /^v1:([A-Za-z0-9-]{1,64})$/.exec(text)
	if (!match) throw new ApiProblem(400, 'BAD_REQUEST', 'The cursor is not one this API gave.')
	return match[1]
}

/** A page's answer from the rows read (one more than `limit` when another page follows). */
export function pageOf<R extends { id: string }, T>(rows: R[], limit: number, shape: (row: R) => T) {
	const more = rows.length > limit
	const shown = rows.slice(0, limit)
	return { data: shown.map(shape), nextCursor: more ? encodeCursor(shown[shown.length - 1].id) : null }
}

export const DEFAULT_LIMIT = 50
export const iso = (date: Date | null) => (date ? date.toISOString() : null)
