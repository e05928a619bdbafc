import { request, type TestResponse } from './http.ts'

/**
 * A browser-like client for one host: keeps cookies, sends the Origin header
 * a browser sends with a form post, and never follows redirects (tests read them).
 */
export function browser(port: number, host: string) {
	const jar = new Map<string, string>()
	const origin = `http://${host}:${port}`
	function remember(res: TestResponse) {
		const setCookie = res.headers['set-cookie'] ?? []
		for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
			const [pair, ...attrs] = line.split(';')
			const [name, ...rest] = pair.split('=')
			const value = rest.join('=')
			const expired = attrs.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a))
			if (expired || value === '') jar.delete(name.trim())
			else jar.set(name.trim(), value)
		}
		return res
	}
	const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
	return {
		jar,
		origin,
		cookieHeader,
		async get(path: string, headers: Record<string, string> = {}) {
			return remember(await request(port, host, path, { headers: { cookie: cookieHeader(), ...headers } }))
		},
		async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
			return remember(
				await request(port, host, path, {
					method: 'POST',
					body: new URLSearchParams(form).toString(),
					headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: cookieHeader(), ...headers },
				}),
			)
		},
	}
}

export type Browser = ReturnType<typeof browser>
