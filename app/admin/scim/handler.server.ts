import type { RequestContext } from '#app/context.ts'
import { describeError, log } from '../../platform/log.server.ts'
import { resourceTypes, schemas, serviceProviderConfig } from './discovery.ts'
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from './groups.server.ts'
import { listResponse, readScimBody, ScimProblem, scimError, scimJson, notFound } from './protocol.ts'
import { authenticateScim, type ScimActor } from './tokens.server.ts'
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './users.server.ts'

// /scim/v2/… (decision 0070): on a tenant's host only, a bearer token of that tenant, its rate
// limit, then the resource. Every answer is SCIM's JSON, errors in its shape.

/** Query parameters that would carry a credential in a URL (logs, proxies, Referer): refused whatever else the request has. */
const CREDENTIAL_PARAMS = ['access_token', 'token', 'bearer', 'api_key']
/** Bodies go as JSON; Okta adds a charset. */
const JSON_TYPE = /^application\/(scim\+)?json\s*(;.*)?$/i

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Handler = (actor: ScimActor, request: Request, url: URL) => Promise<Response>

const ok = (body: unknown, status = 200) => scimJson(body, { status })
const body = (request: Request) => readScimBody(request)

/** The methods of each path form: a collection, one of its resources, a discovery document. */
function handlersFor(segments: string[]): Partial<Record<Method, Handler>> | null {
	const [resource, id, ...rest] = segments
	if (rest.length) return null
	const origin = (a: ScimActor) => a.ctx.origin
	if (resource === 'ServiceProviderConfig' && !id) return { GET: async (a) => ok(serviceProviderConfig(origin(a))) }
	if (resource === 'ResourceTypes' || resource === 'Schemas') {
		const all = (a: ScimActor) => (resource === 'Schemas' ? schemas(origin(a)) : resourceTypes(origin(a)))
		if (!id) return { GET: async (a) => ok(listResponse(all(a), all(a).length, 1)) }
		return {
			GET: async (a) => {
				const found = all(a).find((r) => r.id === id)
				if (!found) throw notFound()
				return ok(found)
			},
		}
	}
	if (resource === 'Users' && !id)
		return {
			GET: async (a, _r, url) => ok(await listUsers(a, url.searchParams)),
			POST: async (a, r) => ok(await createUser(a, await body(r)), 201),
		}
	if (resource === 'Users' && id)
		return {
			GET: async (a) => ok(await getUser(a, id)),
			PUT: async (a, r) => ok(await replaceUser(a, id, await body(r))),
			PATCH: async (a, r) => ok(await patchUser(a, id, await body(r))),
			DELETE: async (a) => (await deleteUser(a, id), new Response(null, { status: 204 })),
		}
	if (resource === 'Groups' && !id)
		return {
			GET: async (a, _r, url) => ok(await listGroups(a, url.searchParams)),
			POST: async (a, r) => ok(await createGroup(a, await body(r)), 201),
		}
	if (resource === 'Groups' && id)
		return {
			GET: async (a, _r, url) => ok(await getGroup(a, id, url.searchParams)),
			PUT: async (a, r) => ok(await replaceGroup(a, id, await body(r))),
			PATCH: async (a, r) => ok(await patchGroup(a, id, await body(r))),
			DELETE: async (a) => (await deleteGroup(a, id), new Response(null, { status: 204 })),
		}
	return null
}

/** Who is asking, or the refusal: no tenant (404), a credential in the URL, no live token of this tenant (401), the limit (429). */
async function admit(ctx: RequestContext, request: Request, url: URL): Promise<ScimActor | Response> {
	const tenant = ctx.tenant
	if (!tenant) return scimError(404, 'SCIM is served on a school’s own host')
	if (CREDENTIAL_PARAMS.some((p) => url.searchParams.has(p)))
		return scimError(401, 'Send the token in the Authorization header, never in the URL', undefined, {
			'www-authenticate': 'Bearer',
		})
	const actor = await authenticateScim(ctx, tenant, request.headers.get('authorization'))
	if (!actor)
		return scimError(401, 'A valid bearer token of this school is required', undefined, {
			'www-authenticate': 'Bearer',
		})
	const { allowed, retryAfter } = await ctx.rateLimit.consume('scim', `token|${actor.token.id}`)
	if (!allowed)
		return scimError(429, 'Too many requests for this token', undefined, { 'retry-after': String(retryAfter) })
	return actor
}

/** The answer to one SCIM request; `path` is what follows /scim/v2/. */
export async function handleScim(ctx: RequestContext, request: Request, path: string) {
	try {
		return await answer(ctx, request, path)
	} catch (error) {
		if (error instanceof ScimProblem) return scimError(error.status, error.message, error.scimType)
		log.error('scim/failed', { path, method: request.method, error: describeError(error) })
		return scimError(500, 'The request could not be completed')
	}
}

async function answer(ctx: RequestContext, request: Request, path: string) {
	const url = new URL(request.url)
	const admitted = await admit(ctx, request, url)
	if (admitted instanceof Response) return admitted
	const handlers = handlersFor(path.split('/').filter(Boolean))
	if (!handlers) return scimError(404, 'No such endpoint')
	const method = request.method === 'HEAD' ? 'GET' : (request.method as Method)
	const handler = handlers[method]
	if (!handler)
		return scimError(405, `${request.method} is not allowed here`, undefined, {
			allow: Object.keys(handlers).join(', '),
		})
	const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
	if (hasBody && !JSON_TYPE.test(request.headers.get('content-type') ?? ''))
		return scimError(400, 'Send the body as application/scim+json', 'invalidSyntax')
	return handler(admitted, request, url)
}
