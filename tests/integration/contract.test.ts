import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_OPERATIONS, type ApiOperation } from '#app/platform/api-contract.ts'
import { errorEnvelope } from '#app/platform/api-schemas.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createApiKey, createPlatformKey } from '#tests/support/api-keys.ts'

const ACME = 'acme.localhost'
const RUNS = 20

/**
 * Calls every operation of the contract on the running app: its documented
 * example, then generated inputs (fast-check: arbitrary path parameters,
 * bodies, headers and sessions). Each answer must have a status the contract
 * declares for the operation, never a 5xx, and a JSON body that matches the
 * declared schema for that status.
 */
describe.each(DIALECTS)('the contract against the running app on %s', (dialect) => {
	let stack: Stack
	let sessionCookie = ''
	let apiKey = ''
	let platformKey = ''
	let requests = 0
	beforeAll(async () => {
		stack = await startStack(dialect)
		const b = stack.browser(ACME)
		await b.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })
		sessionCookie = b.cookieHeader()
		apiKey = await createApiKey(stack, { scope: 'read_write' })
		platformKey = await createPlatformKey(stack, { scope: 'read_write' })
	})
	afterAll(async () => {
		console.log(`contract (${dialect}): ${requests} requests`)
		await stack?.close()
	})

	function send(
		op: ApiOperation,
		input: {
			params: Record<string, string>
			body?: unknown
			rawBody?: string
			signedIn: boolean
			secret?: string
			host?: string
		},
	) {
		const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.params[name] ?? ''))
		const headers: Record<string, string> = {}
		if (input.signedIn) headers.cookie = sessionCookie
		if (input.secret !== undefined) headers.authorization = `Bearer ${input.secret}`
		let body: string | undefined
		if (op.method === 'post') {
			if (op.body?.media === 'application/x-www-form-urlencoded') {
				headers['content-type'] = 'application/x-www-form-urlencoded'
				body =
					input.rawBody ??
					new URLSearchParams(
						Object.entries((input.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
					).toString()
			} else {
				headers['content-type'] = 'application/json'
				body = input.rawBody ?? JSON.stringify(input.body ?? {})
			}
		}
		requests++
		return stack.request(input.host ?? ACME, path, { method: op.method.toUpperCase(), headers, body })
	}

	function conforms(op: ApiOperation, res: TestResponse) {
		const label = `${op.method.toUpperCase()} ${op.path} → ${res.status}`
		expect(res.status, label).toBeLessThan(500)
		const declared = op.responses[res.status]
		expect(declared, `${label} is not declared`).toBeDefined()
		const type = String(res.headers['content-type'] ?? '')
		if (declared.json) {
			// The REST API's errors are RFC 9457 problem details (decision 0071).
			expect(type, label).toMatch(declared.problem ? /^application\/problem\+json/ : /^application\/json/)
			const parsed = declared.json.safeParse(res.json())
			expect(parsed.success, `${label}: ${parsed.success ? '' : parsed.error.message}`).toBe(true)
		}
		if (/^application\/(problem\+)?json/.test(type) && res.status >= 400)
			expect(errorEnvelope.safeParse(res.json()).success, label).toBe(true)
	}

	it.each(API_OPERATIONS.filter((op) => op.example))(
		'answers the example of $method $path as documented',
		async (op) => {
			const example = op.example!
			const res = await send(op, {
				params: example.params ?? {},
				body: example.body,
				signedIn: Boolean(example.signedInAs),
				secret:
					op.security === 'webhook'
						? TEST_SECRETS.CMS_WEBHOOK_SECRET
						: example.apiKey
							? apiKey
							: example.platformKey
								? platformKey
								: undefined,
				host: example.host,
			})
			expect(res.status).toBe(example.expect)
			conforms(op, res)
		},
	)

	it.each(API_OPERATIONS.filter((op) => op.refusesGet))('answers GET on POST-only $path with 405', async (op) => {
		// Any value in a path parameter (an empty one would name another path).
		const params = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'x']))
		const res = await send({ ...op, method: 'get' }, { params, signedIn: true })
		expect(res.status).toBe(405)
		expect(res.headers.allow).toBe('POST')
		expect(res.json()).toEqual({ error: 'Use POST', code: 'METHOD_NOT_ALLOWED' })
	})

	it('answers every operation on a host that serves no site with its declared 404', async () => {
		for (const op of API_OPERATIONS) {
			const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => op.example?.params?.[name] ?? 'x')
			requests++
			const res = await stack.request('nope.localhost', path, { method: op.method.toUpperCase() })
			const label = `${op.method.toUpperCase()} ${op.path}`
			// Liveness asks nothing outside the process, not even which site a host is (decision 0035): it
			// declares no 404 and answers on any host.
			if (op.operationId === 'checkLiveness') {
				expect(op.responses[404], label).toBeUndefined()
				expect(res.status, label).toBe(200)
				continue
			}
			expect(res.status, label).toBe(404)
			const declared = op.responses[404]
			expect(declared, label).toBeDefined()
			if (declared.json) expect(errorEnvelope.safeParse(res.json()).success, label).toBe(true)
			else expect(String(res.headers['content-type']), label).toMatch(new RegExp(`^${declared.media}`))
		}
	})

	it.each(API_OPERATIONS)('answers generated inputs to $method $path within the contract', async (op) => {
		const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
		const params = fc.record(
			Object.fromEntries(
				names.map((n) => [
					n,
					fc.oneof(
						fc.string({ minLength: 1, maxLength: 40 }),
						fc.constantFrom('intro-to-web', 'draft-course', 'acme-icon', 'http-diagram', '..', '%', 'about'),
					),
				]),
			),
		)
		const body = fc.oneof(
			fc.jsonValue(),
			fc.record({ tag: fc.string() }),
			fc.record({ tags: fc.array(fc.string(), { maxLength: 5 }) }),
			fc.record({ userId: fc.string() }),
		)
		await fc.assert(
			fc.asyncProperty(
				params,
				body,
				fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
				fc.boolean(),
				fc.boolean(),
				async (p, b, raw, signedIn, rightSecret) => {
					const secret =
						op.security === 'webhook' ? (rightSecret ? TEST_SECRETS.CMS_WEBHOOK_SECRET : 'wrong') : undefined
					const res = await send(op, { params: p as Record<string, string>, body: b, rawBody: raw, signedIn, secret })
					// `.` and `..` are dot segments, not values (RFC 3986): the URL names another path, and the
					// server sends a GET to that path's normal form and refuses anything else.
					if (Object.values(p).some((v) => v === '.' || v === '..'))
						expect(res.status).toBe(op.method === 'get' ? 308 : 400)
					else conforms(op, res)
				},
			),
			{ numRuns: RUNS },
		)
	})
})
