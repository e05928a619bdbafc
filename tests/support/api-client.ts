import createClient from 'openapi-fetch'
import type { paths } from '../../openapi/openapi.d.ts'
import { request } from './http.ts'
import type { Stack } from './stack.ts'

/**
 * The client generated from the committed OpenAPI document (openapi-typescript's types, openapi-fetch's
 * calls) with an API key, talking to the stack as `host` (fetch cannot send a Host header, so each
 * request goes out through node:http).
 */
export function apiClient(stack: Stack, secret: string, host = 'acme.localhost') {
	return createClient<paths>({
		baseUrl: `http://${host}`,
		headers: { authorization: `Bearer ${secret}` },
		fetch: async (input: Request) => {
			const url = new URL(input.url)
			const body = input.method === 'GET' ? undefined : await input.text()
			const res = await request(stack.port, host, url.pathname + url.search, {
				method: input.method,
				headers: Object.fromEntries(input.headers),
				body,
			})
			const headers = new Headers()
			for (const [name, value] of Object.entries(res.headers))
				if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
			return new Response(res.status === 304 ? null : new Uint8Array(res.body), { status: res.status, headers })
		},
	})
}
