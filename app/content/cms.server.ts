import { z } from 'zod'
import * as shape from './content.ts'
import { log } from '../platform/log.server.ts'
import type { Locale } from '#db/schema/values.ts'

/** The content service could not give a usable answer (down, slow, or malformed). */
export class ContentUnavailableError extends Error {
	constructor(readonly detail: string) {
		super('The content service is unavailable')
	}
}

export interface CmsConfig {
	apiUrl: string
	projectUuid: string
	apiKey: string
	/** Per attempt. */
	timeoutMs?: number
	retries?: number
}

/** The content-service site of a host: the tenant's slug, or `_apex` for the public platform site. */
export type SiteKey = string
export const APEX_SITE: SiteKey = '_apex'

const MAX_PAGE_SIZE = 100

/** The CMS's answer to an author's invitation: a registration link for a new account, none for an existing one. */
const authorInvitation = z.object({
	email: z.string(),
	state: z.enum(['invited', 'added', 'already']),
	registrationUrl: z.url({ protocol: /^https?$/ }).nullable(),
})
export type AuthorInvitation = z.infer<typeof authorInvitation>

/**
 * One request to the content service: its API key, a timeout, and retries with backoff on 5xx
 * answers and network faults only (a 4xx is an answer, not a fault).
 */
async function fetchContent(config: CmsConfig, url: string, init: RequestInit = {}) {
	const timeoutMs = config.timeoutMs ?? 2500
	const retries = config.retries ?? 2
	let lastError = 'no attempt'
	for (let attempt = 0; attempt <= retries; attempt++) {
		if (attempt > 0) await new Promise((r) => setTimeout(r, 100 * 3 ** (attempt - 1)))
		try {
			const response = await fetch(url, {
				...init,
				headers: { ...init.headers, 'x-api-key': config.apiKey },
				signal: AbortSignal.timeout(timeoutMs),
			})
			if (response.status < 500) return response
			lastError = `status ${response.status}`
			await response.body?.cancel()
		} catch (error) {
			lastError = error instanceof Error ? error.name : 'fetch failed'
		}
	}
	throw new ContentUnavailableError(lastError)
}

/** Where the app serves the site's own assets (a course's: under the course, createCmsClient). */
const SITE_ASSETS = '/api/cms/site/assets/'

/** A document's JSON in the shape we expect; anything else is the content service failing. */
function parseDocument<T extends z.ZodType>(text: string, schema: T): z.infer<T> {
	let json: unknown
	try {
		json = JSON.parse(text)
	} catch {
		throw new ContentUnavailableError('malformed JSON')
	}
	const parsed = schema.safeParse(json)
	if (!parsed.success)
		throw new ContentUnavailableError(`unexpected shape at ${parsed.error.issues[0]?.path.join('.')}`)
	return parsed.data
}

/** The content API's reads and writes over one fetch (retried, bounded: fetchContent), for the client's methods. */
function contentApi(config: CmsConfig) {
	const siteBase = (site: SiteKey) =>
		`${config.apiUrl}/projects/${encodeURIComponent(config.projectUuid)}/sites/${encodeURIComponent(site)}`

	const fetchWithRetry = (url: string, init?: RequestInit) => fetchContent(config, url, init)

	/** GET a JSON document; null on 404. Asset URLs are rewritten to our same-origin proxies. */
	async function getJson<T extends z.ZodType>(
		site: SiteKey,
		path: string,
		params: Record<string, string | number>,
		schema: T,
		assetPrefix = SITE_ASSETS,
	): Promise<z.infer<T> | null> {
		const url = new URL(`${siteBase(site)}${path}`)
		for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v))
		const response = await fetchWithRetry(url.toString())
		if (response.status === 404) {
			await response.body?.cancel()
			return null
		}
		if (!response.ok) {
			await response.body?.cancel()
			throw new ContentUnavailableError(`status ${response.status}`)
		}
		return parseDocument((await response.text()).replaceAll(`${siteBase(site)}/assets/`, assetPrefix), schema)
	}

	async function getData<T extends z.ZodType>(
		site: SiteKey,
		path: string,
		locale: string,
		schema: T,
		assetPrefix?: string,
	) {
		const doc = await getJson(site, path, { locale }, z.object({ data: schema }), assetPrefix)
		return doc ? ((doc as { data: unknown }).data as z.infer<T>) : null
	}

	/** Every item of a paginated list, fetched page by page at the maximum page size. */
	async function getAll<T extends z.ZodType>(
		site: SiteKey,
		path: string,
		locale: string,
		item: T,
	): Promise<z.infer<T>[]> {
		const items: z.infer<T>[] = []
		for (let page = 1; ; page++) {
			const doc = await getJson(site, path, { locale, page, pageSize: MAX_PAGE_SIZE }, shape.paginated(item))
			if (!doc) return items
			items.push(...(doc.data as z.infer<T>[]))
			if (page >= doc.meta.totalPages) return items
		}
	}

	/** A write to the site's authoring endpoints (decision 0053): JSON both ways; a 5xx is retried, then fails. */
	async function sendJson(site: SiteKey, path: string, method: 'PUT' | 'POST', body: unknown) {
		const response = await fetchWithRetry(`${siteBase(site)}/authoring${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		})
		return { status: response.status, text: await response.text() }
	}

	return { siteBase, fetchWithRetry, getData, getAll, sendJson }
}

/** The content service's client: one method per read of the content API (cms/README.md). */
export function createCmsClient(config: CmsConfig) {
	const { siteBase, fetchWithRetry, getData, getAll, sendJson } = contentApi(config)
	const courseAssets = (slug: string) => `/api/cms/courses/${encodeURIComponent(slug)}/assets/`

	return {
		site: (site: SiteKey, locale: string) => getData(site, '/site', locale, shape.site),
		courses: async (site: SiteKey, locale: string) =>
			// A course's picture is served under its course's asset route (decision 0082), as in `course`.
			(await getAll(site, '/courses', locale, shape.courseSummary)).map((summary) =>
				summary.image?.startsWith(SITE_ASSETS)
					? { ...summary, image: courseAssets(summary.slug) + summary.image.slice(SITE_ASSETS.length) }
					: summary,
			),
		course: (site: SiteKey, slug: string, locale: string) =>
			getData(site, `/courses/${encodeURIComponent(slug)}`, locale, shape.course, courseAssets(slug)),
		entry: (site: SiteKey, courseSlug: string, entrySlug: string, locale: string) =>
			getData(
				site,
				`/courses/${encodeURIComponent(courseSlug)}/entries/${encodeURIComponent(entrySlug)}`,
				locale,
				shape.entry,
				courseAssets(courseSlug),
			),
		pages: (site: SiteKey, locale: string) => getAll(site, '/pages', locale, shape.pageSummary),
		page: (site: SiteKey, slug: string, locale: string) =>
			getData(site, `/pages/${encodeURIComponent(slug)}`, locale, shape.page),
		pageHierarchy: (site: SiteKey, locale: string) =>
			getData(site, '/page-hierarchy', locale, z.array(shape.pageHierarchyNode)),
		blogPosts: (site: SiteKey, locale: string) => getAll(site, '/blog-posts', locale, shape.blogPostSummary),
		blogPost: (site: SiteKey, slug: string, locale: string) =>
			getData(site, `/blog-posts/${encodeURIComponent(slug)}`, locale, shape.blogPost),
		/**
		 * The tenant's site, authors' role and media folder in the CMS as the tenant is (idempotent);
		 * the local content service, which has no authors, answers it and does nothing.
		 */
		async provisionSite(site: SiteKey, state: { name: string; status: string; timeZone: string }) {
			const answer = await sendJson(site, '', 'PUT', state)
			if (answer.status !== 200) throw new ContentUnavailableError(`provisioning answered ${answer.status}`)
		},
		/** An invitation to author the site, or null when the service has no authoring for it (not open, suspended, none). */
		async inviteAuthor(site: SiteKey, email: string): Promise<AuthorInvitation | null> {
			const answer = await sendJson(site, '/invitations', 'POST', { email })
			if (answer.status >= 400 && answer.status < 500) return null
			return parseDocument(answer.text, z.object({ data: authorInvitation })).data
		},
		/** Streams a binary asset; the caller passes through Range and conditional headers. */
		asset: (site: SiteKey, assetId: string, headers: Record<string, string>) =>
			fetchWithRetry(`${siteBase(site)}/assets/${encodeURIComponent(assetId)}`, { headers }),
	}
}

export type CmsClient = ReturnType<typeof createCmsClient>

/**
 * Runs a content read for a page; when the content service fails, logs why and
 * throws a 503 that the error boundary renders without any internals.
 */
export async function readContent<T>(what: string, read: () => Promise<T>): Promise<T> {
	try {
		return await read()
	} catch (error) {
		if (!(error instanceof ContentUnavailableError)) throw error
		log.error('cms/read-failed', { what, detail: error.detail })
		throw new Response(null, { status: 503, statusText: 'Content unavailable' })
	}
}

/** The site's courses in every state, read as readContent reads (a page filters what it may show). */
export function readCatalogue(
	ctx: { cms: Pick<CmsClient, 'courses'>; site: SiteKey; locale: Locale },
	site: SiteKey = ctx.site,
) {
	return readContent('catalogue', () => ctx.cms.courses(site, ctx.locale))
}
