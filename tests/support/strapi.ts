import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { dirname } from 'node:path'

/**
 * Strapi as an author drives it: its admin API (what the admin panel calls), signed in as a
 * demo account of cms/strapi/scripts/seed.js. STRAPI_URL is its origin (scripts/test-authoring.sh).
 */
export const STRAPI_URL = process.env.STRAPI_URL ?? 'http://127.0.0.1:1337'
export const CMS_DEMO_PASSWORD = process.env.CMS_DEMO_PASSWORD || 'Authoring-demo-2026'

export interface StrapiAnswer {
	status: number
	ms: number
	body: any
}

// Strapi allows 5 sign-ins per address in 5 minutes: the tests' files share each account's token.
const TOKENS = '.tmp/authoring/strapi-tokens.json'
const readTokens = (): Record<string, string> => (existsSync(TOKENS) ? JSON.parse(readFileSync(TOKENS, 'utf8')) : {})

async function signIn(email: string, password: string) {
	const key = `${STRAPI_URL} ${email}`
	const known = readTokens()[key]
	if (known && (await fetch(`${STRAPI_URL}/admin/users/me`, { headers: { authorization: `Bearer ${known}` } })).ok)
		return known
	const login = await fetch(`${STRAPI_URL}/admin/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email, password }),
	})
	if (login.status !== 200) throw new Error(`${email} could not sign in to Strapi: ${login.status}`)
	const token = ((await login.json()) as any).data.token as string
	mkdirSync(dirname(TOKENS), { recursive: true })
	writeFileSync(TOKENS, JSON.stringify({ ...readTokens(), [key]: token }))
	return token
}

export async function strapiAdmin(email: string, password = CMS_DEMO_PASSWORD) {
	const token = await signIn(email, password)
	async function call(method: string, path: string, body?: unknown): Promise<StrapiAnswer> {
		const started = performance.now()
		const res = await fetch(`${STRAPI_URL}${path}`, {
			method,
			headers: {
				authorization: `Bearer ${token}`,
				...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
		})
		const text = await res.text()
		return { status: res.status, ms: performance.now() - started, body: text ? JSON.parse(text) : null }
	}
	const cm = (uid: string) => `/content-manager/collection-types/${uid}`
	// The content manager reads the locale of a write from its body (as the admin panel sends it),
	// of a read or a delete from the query; `*` deletes every locale.
	const withLocale = (data: unknown, locale: string) => ({ ...(data as object), locale })
	return {
		call,
		list: (uid: string, locale = 'en') => call('GET', `${cm(uid)}?locale=${locale}&pageSize=100`),
		get: (uid: string, id: string, locale = 'en') => call('GET', `${cm(uid)}/${id}?locale=${locale}`),
		create: (uid: string, data: unknown, locale = 'en') => call('POST', cm(uid), withLocale(data, locale)),
		update: (uid: string, id: string, data: unknown, locale = 'en') =>
			call('PUT', `${cm(uid)}/${id}`, withLocale(data, locale)),
		/** Publishes the locale's draft (saving `data` into it first, as the panel's Publish button does). */
		publish: (uid: string, id: string, locale = 'en', data: unknown = {}) =>
			call('POST', `${cm(uid)}/${id}/actions/publish`, withLocale(data, locale)),
		unpublish: (uid: string, id: string, locale = 'en') =>
			call('POST', `${cm(uid)}/${id}/actions/unpublish`, withLocale({}, locale)),
		remove: (uid: string, id: string, locale = '*') => call('DELETE', `${cm(uid)}/${id}?locale=${locale}`),
		/** The media-library folder `name` under `parent` (a site's folder, or a course's under it), made if missing. */
		async folder(name: string, parent: number | null) {
			const all = await call('GET', '/upload/folders?pageSize=100')
			const found = (all.body.data as any[]).find((f) => f.name === name && (f.parent?.id ?? null) === parent)
			if (found) return found.id as number
			const made = await call('POST', '/upload/folders', { name, parent })
			if (made.status !== 201 && made.status !== 200) throw new Error(`folder ${name}: ${made.status}`)
			return made.body.data.id as number
		},
		async upload(name: string, bytes: Buffer, type: string, folder: number) {
			const form = new FormData()
			form.append('files', new Blob([new Uint8Array(bytes)], { type }), name)
			form.append('fileInfo', JSON.stringify({ name, folder }))
			return call('POST', '/upload', form)
		},
	}
}

export type StrapiAdmin = Awaited<ReturnType<typeof strapiAdmin>>

export interface Delivery {
	at: number
	headers: IncomingHttpHeaders
	body: any
	status: number
}

/**
 * A stand-in app for the CMS's webhooks on a fixed port (one of LMS_APP_URLS): records every
 * delivery and answers as told (200, 503 to the next `failNext` with `failTag`, or after `delayMs`).
 */
export async function startWebhookRecorder(port: number) {
	const deliveries: Delivery[] = []
	// failNext: how many of the next deliveries carrying failTag (any, when empty) answer 503.
	const state = { failNext: 0, failTag: '', delayMs: 0 }
	const server = createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (c) => chunks.push(c))
		req.on('end', () => {
			let body: unknown = null
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
			} catch {
				body = Buffer.concat(chunks).toString('utf8')
			}
			const targeted = !state.failTag || ((body as any)?.tags ?? []).includes(state.failTag)
			const status = state.failNext > 0 && targeted ? (state.failNext--, 503) : 200
			deliveries.push({ at: Date.now(), headers: req.headers, body, status })
			setTimeout(() => {
				res.writeHead(status, { 'content-type': 'application/json' })
				res.end(JSON.stringify(status === 200 ? { revalidated: (body as any)?.tags ?? [] } : { error: 'down' }))
			}, state.delayMs)
		})
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	return {
		deliveries,
		state,
		/** Deliveries since `from` (an index) whose tags include all of `tags`, waiting up to `ms`. */
		async waitFor(tags: string[], from = 0, ms = 5000) {
			const deadline = Date.now() + ms
			for (;;) {
				const hit = deliveries.slice(from).find((d) => d.status === 200 && tags.every((t) => d.body?.tags?.includes(t)))
				if (hit) return hit
				if (Date.now() > deadline)
					throw new Error(
						`no delivery with ${tags.join(', ')} in ${ms} ms: ${JSON.stringify(deliveries.slice(from).map((d) => d.body))}`,
					)
				await new Promise((r) => setTimeout(r, 20))
			}
		},
		/** Waits until nothing has arrived for `ms` (deliveries still being retried from earlier tests). */
		async quiet(ms = 1500, max = 20_000) {
			const deadline = Date.now() + max
			while (Date.now() < deadline) {
				const last = deliveries.at(-1)?.at ?? 0
				if (Date.now() - last >= ms) return
				await new Promise((r) => setTimeout(r, 100))
			}
			throw new Error(`the recorder did not go quiet in ${max} ms`)
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

/** Polls `probe` every 25 ms until it returns true; the milliseconds it took, or throws after `ms`. */
export async function within(ms: number, probe: () => Promise<boolean>, what: string) {
	const started = performance.now()
	for (;;) {
		if (await probe()) return performance.now() - started
		if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`)
		await new Promise((r) => setTimeout(r, 25))
	}
}
