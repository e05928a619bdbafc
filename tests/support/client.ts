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
		/** A multipart form post (multipartBody), as a browser sends a form with files. */
		async postMultipart(
			path: string,
			fields: Record<string, string>,
			files: UploadFile[] = [],
			headers: Record<string, string> = {},
		) {
			const { body, contentType } = await multipartBody(fields, files)
			return remember(
				await request(port, host, path, {
					method: 'POST',
					body,
					headers: {
						'content-type': contentType,
						origin,
						cookie: cookieHeader(),
						...headers,
					},
				}),
			)
		},
	}
}

export type Browser = ReturnType<typeof browser>

export interface UploadFile {
	name: string
	type?: string
	body: Buffer | string
	field?: string
}

/**
 * A multipart body as a browser encodes a form with `enctype="multipart/form-data"`: the fields,
 * then each file under `files` (or the name given) with its name, type and bytes.
 */
export async function multipartBody(fields: Record<string, string>, files: UploadFile[] = []) {
	const form = new FormData()
	for (const [k, v] of Object.entries(fields)) form.append(k, v)
	for (const f of files)
		form.append(
			f.field ?? 'files',
			new Blob([typeof f.body === 'string' ? f.body : new Uint8Array(f.body)], {
				type: f.type ?? 'application/octet-stream',
			}),
			f.name,
		)
	const encoded = new Request('http://localhost/', { method: 'POST', body: form })
	return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! }
}
