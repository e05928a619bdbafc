import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi'
import { stringify } from 'yaml'
import { API_OPERATIONS, API_TAGS, type ApiOperation, type ApiResponse } from './api-contract.ts'
import { ERROR_CODES } from './errors.ts'

const HEADER = '# Generated from app/platform/api-contract.ts by `npm run openapi`. Do not edit by hand.\n'

function content(response: ApiResponse) {
	if (response.json && response.problem) return { 'application/problem+json': { schema: response.json } }
	if (response.json) return { 'application/json': { schema: response.json } }
	if (response.media)
		return {
			[response.media]: {
				schema: {
					type: 'string' as const,
					format:
						response.media === 'application/octet-stream' || response.media.startsWith('image/') ? 'binary' : undefined,
				},
			},
		}
	return undefined
}

/** Security requirements: alternatives in a list; an empty list means no credentials at all. */
const SECURITY: Record<ApiOperation['security'], Array<Record<string, string[]>>> = {
	public: [],
	session: [{ session: [] }],
	// Either header carries CMS_WEBHOOK_SECRET (spec, Authentication 13).
	webhook: [{ webhookBearer: [] }, { webhookHeader: [] }],
	apiKey: [{ apiKey: [] }],
}

/** The project's licence (LICENSE, package.json). */
const LICENSE = { name: 'MIT', url: 'https://opensource.org/license/mit' }

/** The OpenAPI 3.0 document of API_OPERATIONS, as YAML. */
export function generateOpenApiYaml() {
	const registry = new OpenAPIRegistry()
	registry.registerComponent('securitySchemes', 'session', {
		type: 'apiKey',
		in: 'cookie',
		name: 'lms_session',
		description: 'The signed session cookie (`__Host-lms_session` over https).',
	})
	registry.registerComponent('securitySchemes', 'webhookBearer', {
		type: 'http',
		scheme: 'bearer',
		description: 'CMS_WEBHOOK_SECRET.',
	})
	registry.registerComponent('securitySchemes', 'apiKey', {
		type: 'http',
		scheme: 'bearer',
		description:
			'An API key of the site (`lmsk_…`, made at /admin/settings/api), valid on that site’s host only (decision 0071).',
	})
	registry.registerComponent('securitySchemes', 'webhookHeader', {
		type: 'apiKey',
		in: 'header',
		name: 'x-cms-webhook-secret',
		description: 'CMS_WEBHOOK_SECRET.',
	})
	for (const op of API_OPERATIONS) {
		registry.registerPath({
			method: op.method,
			path: op.path,
			operationId: op.operationId,
			tags: op.tags,
			summary: op.summary,
			description: op.refusesGet
				? `${op.description} GET answers 405 (METHOD_NOT_ALLOWED) with \`Allow: POST\`.`
				: op.description,
			security: SECURITY[op.security],
			request: {
				params: op.params,
				query: op.query,
				body: op.body ? { required: true, content: { [op.body.media]: { schema: op.body.schema } } } : undefined,
			},
			responses: Object.fromEntries(
				Object.entries(op.responses).map(([status, r]) => [
					status,
					{ description: r.description, content: content(r) },
				]),
			),
		})
	}
	const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
		openapi: '3.0.3',
		info: {
			title: 'Open LMS route contract',
			version: '1.0.0',
			// Each tenant's site names its own security contact; the document is served on every host.
			contact: {
				name: 'The operator of the site serving this document (Contact line of its security.txt)',
				url: '/.well-known/security.txt',
			},
			license: LICENSE,
			description: `Route handlers of the service. JSON errors use the Error envelope; its code is one of: ${ERROR_CODES.join(', ')}. Outside this contract: the authentication transport under /api/auth/ and the test-only identity provider under /api/test-idp/.`,
		},
		servers: [{ url: '/', description: 'The host serving this document: each tenant’s own host, or the apex.' }],
		tags: API_TAGS.map((tag) => ({ ...tag })),
	})
	return HEADER + stringify(document, { lineWidth: 0, aliasDuplicateObjects: false })
}
