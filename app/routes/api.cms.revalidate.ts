import { timingSafeEqual } from 'node:crypto'
import { getRequestContext } from '#app/context.ts'
import { APEX_SITE } from '#app/content/cms.server.ts'
import { revalidationBody, revalidationResponse } from '#app/platform/api-schemas.ts'
import { jsonError, postOnly } from '#app/platform/errors.ts'
import { addressKey, limitJson } from '#app/platform/rate-limit.server.ts'
import { normalizeHost, resolveHost, siteOfHost } from '#app/platform/tenant.server.ts'
import type { Route } from './+types/api.cms.revalidate.ts'

const MAX_BODY_BYTES = 64 * 1024

function secretMatches(given: string | null, expected: string) {
	if (!given) return false
	const a = Buffer.from(given)
	const b = Buffer.from(expected)
	return a.length === b.length && timingSafeEqual(a, b)
}

export const loader = postOnly

/** The content service's invalidation webhook. */
export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	if (request.method !== 'POST') return postOnly()
	const limited = await limitJson(
		ctx.rateLimit,
		'revalidation',
		`ip|${addressKey(ctx.clientIp)}`,
		'Too many revalidation requests',
	)
	if (limited) return limited

	const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
	const secret = bearer ?? request.headers.get('x-cms-webhook-secret')
	if (!secretMatches(secret, ctx.env.CMS_WEBHOOK_SECRET))
		return jsonError(401, 'UNAUTHORIZED', 'Missing or wrong webhook secret')

	const text = await request.text()
	if (Buffer.byteLength(text) > MAX_BODY_BYTES) return jsonError(413, 'PAYLOAD_TOO_LARGE', 'Body too large')
	if (!text.trim()) return jsonError(422, 'VALIDATION_FAILED', 'The body is empty')
	let json: unknown
	try {
		json = JSON.parse(text)
	} catch {
		return jsonError(422, 'VALIDATION_FAILED', 'The body is not valid JSON')
	}
	const parsed = revalidationBody.safeParse(json)
	if (!parsed.success) {
		return jsonError(
			422,
			'VALIDATION_FAILED',
			'Send {"tag": "..."} or {"tags": ["..."]} with supported, distinct tags',
			{
				issues: parsed.error.issues.map((i) => ({
					path: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
					message: i.message,
				})),
			},
		)
	}
	const tags = 'tag' in parsed.data ? [parsed.data.tag] : parsed.data.tags

	// `site:<host>`: content (the site document, and every page built from it) is cached under the
	// site's key, not a host, so the host's site is invalidated too. A subdomain or the apex names its
	// site itself; only a custom domain needs the tenants table (decision 0035): a database that is
	// down or stalled must not stop the others (the sender retries a 5xx).
	const internal: string[] = []
	for (const tag of tags) {
		if (!tag.startsWith('site:')) continue
		const host = normalizeHost(tag.slice(5))
		const site = host ? siteOfHost(host, ctx.env.APP_BASE_DOMAIN) : null
		if (site) {
			internal.push(`site:${site.kind === 'apex' ? APEX_SITE : site.slug}`)
			continue
		}
		const resolution = host ? await resolveHost(ctx.db, host, ctx.env.APP_BASE_DOMAIN) : null
		if (resolution?.kind === 'tenant') internal.push(`site:${resolution.tenant.slug}`)
	}
	ctx.tags.revalidate([...new Set([...tags, ...internal])])
	return Response.json(revalidationResponse.parse({ revalidated: tags }), { headers: { 'cache-control': 'no-store' } })
}
