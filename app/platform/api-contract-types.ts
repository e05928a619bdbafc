// The route contract's types and tags (app/platform/api-contract.ts lists the operations).
import type { z } from 'zod'

type Json = z.ZodType
export interface ApiResponse {
	description: string
	/** A JSON body shaped by this schema. */
	json?: Json
	/** The JSON body is RFC 9457 problem details (application/problem+json), the REST API's errors. */
	problem?: true
	/** A non-JSON body: its media type (binary, Markdown, SVG, YAML). */
	media?: string
	headers?: Record<string, string>
}

/** The REST API's tags (decision 0071). */
const API_V1_TAGS = [
	{
		name: 'users',
		description:
			'A site’s people (REST API, `Authorization: Bearer <API key>` of this site): list, read, create, change role, deactivate and reactivate.',
	},
	{ name: 'enrollments', description: 'Enrollments in a site’s courses, with each learner’s progress and result.' },
	{
		name: 'results',
		description: 'Learners’ quiz attempts and assignment submissions with their grades.',
	},
	{ name: 'certificates', description: 'Issued certificates with their signed Open Badges 3.0 credentials.' },
	{ name: 'courses', description: 'The site’s courses as its administration sees them.' },
	{
		name: 'tenants',
		description:
			'The platform’s tenants (`Authorization: Bearer <platform key>`, made by a super admin at /admin/tenants/api; on the platform’s own host): list, read, create with a first admin, suspend, archive and reactivate.',
	},
] as const

/** The document's tags, each declared once with what its operations have in common. */
export const API_TAGS = [
	{ name: 'health', description: 'Readiness and liveness probes for load balancers and orchestrators.' },
	{ name: 'images', description: 'The host’s favicon and the signed-in user’s picture.' },
	{
		name: 'assets',
		description:
			'Same-origin proxies of the content service’s files: asset paths in content payloads are rewritten to them, and the server adds the content-service API key upstream.',
	},
	{
		name: 'markdown',
		description:
			'Markdown projections of published public pages, also reached through the `.md` rewrites of discovery URLs.',
	},
	{
		name: 'files',
		description: 'Files learners hand in with assignments, downloaded by their learner and the course’s staff.',
	},
	{ name: 'webhooks', description: 'Inbound webhooks: content invalidation sent by the content service.' },
	{
		name: 'impersonation',
		description: 'A super_admin signs in as a user of a tenant and back; both steps are audited.',
	},
	{ name: 'contract', description: 'This OpenAPI document.' },
	...API_V1_TAGS,
] as const
type ApiTag = (typeof API_TAGS)[number]['name']

export interface ApiOperation {
	method: 'get' | 'post'
	/** OpenAPI form: /api/cms/site/assets/{assetId} */
	path: string
	/** camelCase, unique across the contract. */
	operationId: string
	tags: [ApiTag, ...ApiTag[]]
	summary: string
	description: string
	/**
	 * Who may call it (spec, Authentication 13 and 14): anyone, the holder of a session cookie, or
	 * the content service with CMS_WEBHOOK_SECRET, or (the REST API) a site's API key as Bearer.
	 */
	security: 'public' | 'session' | 'webhook' | 'apiKey'
	/**
	 * A POST-only route whose loader is `postOnly` (app/platform/errors.ts): GET answers 405 with
	 * `Allow: POST`. Said in the operation's description rather than as a GET operation of its own.
	 */
	refusesGet?: true
	params?: z.ZodObject
	query?: z.ZodObject
	body?: { media: 'application/json' | 'application/x-www-form-urlencoded'; schema: Json }
	responses: Record<number, ApiResponse>
	/** A request that succeeds against the seeded demo data (contract test). */
	example?: {
		host?: string
		params?: Record<string, string>
		body?: unknown
		signedInAs?: string
		/** Sent with a read-and-write API key of Acme (the REST API, decision 0071). */
		apiKey?: true
		/** Sent with a read-and-write platform key (its host the platform's, decision 0087). */
		platformKey?: true
		expect: number
	}
}
