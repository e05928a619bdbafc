import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import routes from '#app/routes.ts'
import { API_OPERATIONS } from '#app/platform/api-contract.ts'
import { ERROR_CODES, postOnly } from '#app/platform/errors.ts'
import { generateOpenApiYaml } from '#app/platform/openapi.ts'

/**
 * Route handlers outside the contract: under /api/, the authentication framework's transport and
 * the test-only identity provider (spec, Endpoints); and SCIM 2.0 provisioning at /scim/v2/
 * (decision 0070), a protocol with its own definition (RFC 7643 for its resources, RFC 7644 for
 * its requests, application/scim+json, SCIM's error shape rather than the envelope) that the
 * service also describes itself at /scim/v2/ServiceProviderConfig, /Schemas and /ResourceTypes,
 * which identity providers read. A second description here would be one more to drift.
 */
const EXCLUDED_FROM_CONTRACT = [/^\/api\/auth\//, /^\/api\/test-idp\//, /^\/scim\/v2\//]

const committed = readFileSync(resolve('openapi/openapi.yaml'), 'utf8')
interface Operation {
	operationId?: string
	tags?: string[]
	description?: string
	security?: Array<Record<string, string[]>>
	responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>
}
const document = parse(committed) as {
	paths: Record<string, Record<string, Operation>>
	tags?: Array<{ name: string; description?: string }>
	components: {
		schemas: Record<string, { properties: { code: { enum: string[] } } }>
		securitySchemes: Record<string, unknown>
	}
}
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
	Object.entries(methods).map(([method, op]) => ({ label: `${method.toUpperCase()} ${path}`, path, op })),
)

/**
 * Every resource route of the URL map under /api/ (and /openapi.yaml), with the methods its module
 * handles; a loader that is `postOnly` (GET answers 405) is listed apart, as a refusal.
 */
async function routeHandlers() {
	const handlers: Array<{ path: string; method: 'get' | 'post' }> = []
	const refusingGet: string[] = []
	for (const entry of routes) {
		const path = `/${entry.path ?? ''}`
		if (!path.startsWith('/api/') && !path.startsWith('/scim/') && path !== '/openapi.yaml') continue
		const module = await import(resolve('app', entry.file))
		const openApiPath = path.replace(/:(\w+)/g, '{$1}')
		if (module.loader === postOnly) refusingGet.push(openApiPath)
		else if (module.loader) handlers.push({ path: openApiPath, method: 'get' })
		if (module.action) handlers.push({ path: openApiPath, method: 'post' })
	}
	return { handlers, refusingGet }
}

describe('the route contract', () => {
	it('documents every route handler under /api/, except the listed exclusions', async () => {
		const { handlers } = await routeHandlers()
		expect(handlers.length).toBeGreaterThan(10)
		const undocumented = handlers.filter(
			(h) => !EXCLUDED_FROM_CONTRACT.some((re) => re.test(h.path)) && !document.paths[h.path]?.[h.method],
		)
		expect(undocumented).toEqual([])
		// Only the authentication transport, the test identity provider and SCIM (its own RFCs and
		// discovery endpoints, decision 0070) are excluded; SCIM is, and is not in the document.
		const excluded = handlers.filter((h) => EXCLUDED_FROM_CONTRACT.some((re) => re.test(h.path))).map((h) => h.path)
		expect(excluded.every((p) => /^\/(api\/(auth|test-idp)|scim\/v2)\//.test(p))).toBe(true)
		expect(excluded).toContain('/scim/v2/*')
		expect(Object.keys(document.paths).filter((p) => p.startsWith('/scim'))).toEqual([])
		// And nothing is documented that the URL map does not serve.
		for (const [path, methods] of Object.entries(document.paths)) {
			for (const method of Object.keys(methods)) expect(handlers, `${method} ${path}`).toContainEqual({ path, method })
		}
	})

	it('says of each POST-only route that GET answers 405, exactly where the loader is postOnly', async () => {
		const { refusingGet } = await routeHandlers()
		const documented = API_OPERATIONS.filter((op) => op.refusesGet).map((op) => op.path)
		expect(refusingGet.filter((p) => !EXCLUDED_FROM_CONTRACT.some((re) => re.test(p))).sort()).toEqual(
			[...documented].sort(),
		)
		for (const op of API_OPERATIONS.filter((o) => o.refusesGet)) {
			expect(op.method).toBe('post')
			expect(document.paths[op.path].post.description).toContain('GET answers 405')
		}
		const refusal = postOnly()
		expect(refusal.status).toBe(405)
		expect(refusal.headers.get('allow')).toBe('POST')
	})

	it('gives every operation a unique camelCase operationId', () => {
		const ids = operations.map(({ op }) => op.operationId)
		for (const [i, { label }] of operations.entries()) expect(ids[i], label).toMatch(/^[a-z][a-zA-Z0-9]*$/)
		expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([])
	})

	it('tags every operation with tags declared, with descriptions, at the top level', () => {
		const declared = new Map((document.tags ?? []).map((t) => [t.name, t.description]))
		for (const [name, description] of declared) expect(description?.trim(), `tag ${name}`).toBeTruthy()
		const used = new Set<string>()
		for (const { label, op } of operations) {
			expect(op.tags?.length, label).toBeGreaterThan(0)
			for (const tag of op.tags ?? []) {
				expect(declared.has(tag), `${label}: tag ${tag} is not declared`).toBe(true)
				used.add(tag)
			}
		}
		// And no tag is declared that no operation uses.
		expect([...declared.keys()].sort()).toEqual([...used].sort())
	})

	it('describes every operation', () => {
		for (const { label, op } of operations) expect(op.description?.trim(), label).toBeTruthy()
	})

	it('declares security on every operation: [] when public, else declared schemes only', () => {
		for (const { label, path, op } of operations) {
			expect(op, label).toHaveProperty('security')
			expect(Array.isArray(op.security), label).toBe(true)
			for (const requirement of op.security ?? [])
				for (const scheme of Object.keys(requirement))
					expect(document.components.securitySchemes, `${label}: ${scheme}`).toHaveProperty(scheme)
			// The spec's Authentication 13 and 14: the webhook takes the secret, avatar and impersonation
			// the session, the rest is public; handed-in files (decision 0027) take the session too.
			const expected =
				path === '/api/cms/revalidate'
					? [{ webhookBearer: [] }, { webhookHeader: [] }]
					: path === '/api/avatar' || path === '/api/files/{fileId}' || path.startsWith('/api/admin/impersonate/')
						? [{ session: [] }]
						: // The REST API (decision 0071): a site's API key as Bearer.
							path.startsWith('/api/v1/')
							? [{ apiKey: [] }]
							: []
			expect(op.security, label).toEqual(expected)
		}
	})

	it('is the committed file, regenerated byte for byte', () => {
		expect(generateOpenApiYaml()).toBe(committed)
	})

	it('uses single-segment path parameters only', () => {
		for (const path of Object.keys(document.paths)) {
			expect(path).not.toContain('*')
			for (const segment of path.split('/')) if (segment.includes('{')) expect(segment, path).toMatch(/^\{\w+\}$/)
		}
	})

	it('declares statuses for every operation, JSON errors in the envelope, with one ERROR_CODES list', () => {
		for (const op of API_OPERATIONS) {
			const responses = document.paths[op.path][op.method].responses
			expect(Object.keys(responses).length, `${op.method} ${op.path}`).toBeGreaterThan(0)
			for (const [status, response] of Object.entries(responses)) {
				if (Number(status) < 400) continue
				// Under /api/ every error is the envelope; elsewhere (/openapi.yaml) a refusal before
				// routing is the branded HTML page.
				// The REST API's errors are RFC 9457 problem details carrying the envelope (decision 0071).
				if (op.path.startsWith('/api/v1/'))
					expect(
						response.content?.['application/problem+json']?.schema?.$ref,
						`${op.method} ${op.path} ${status}`,
					).toBe('#/components/schemas/Problem')
				else if (op.path.startsWith('/api/'))
					expect(response.content?.['application/json']?.schema?.$ref, `${op.method} ${op.path} ${status}`).toBe(
						'#/components/schemas/Error',
					)
				else expect(Object.keys(response.content ?? {}), `${op.method} ${op.path} ${status}`).toEqual(['text/html'])
			}
		}
		expect(document.components.schemas.Error.properties.code.enum).toEqual([...ERROR_CODES])
		expect(document.components.schemas.Problem.properties.code.enum).toEqual([...ERROR_CODES])
	})
})
