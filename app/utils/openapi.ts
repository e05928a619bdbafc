import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi'
import { stringify } from 'yaml'
import { API_OPERATIONS, type ApiResponse } from './api-contract.ts'
import { ERROR_CODES } from './errors.ts'

const HEADER = '# Generated from app/utils/api-contract.ts by `npm run openapi`. Do not edit by hand.\n'

function content(response: ApiResponse) {
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
			summary: op.summary,
			description: op.description,
			security:
				op.security === 'session'
					? [{ session: [] }]
					: op.security === 'webhook'
						? [{ webhookBearer: [] }, { webhookHeader: [] }]
						: undefined,
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
			description: `Route handlers of the service. JSON errors use the Error envelope; its code is one of: ${ERROR_CODES.join(', ')}. Outside this contract: the authentication transport under /api/auth/ and the test-only identity provider under /api/test-idp/.`,
		},
		servers: [{ url: '/' }],
	})
	return HEADER + stringify(document, { lineWidth: 0, aliasDuplicateObjects: false })
}
