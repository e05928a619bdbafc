/**
 * The LMS content API (cms/README.md) served by Strapi: /api/v1/projects/<project>/sites/<site>/…
 * with a required `locale`, field-by-field fallback to en, the paging envelope, the archived status,
 * quizzes with their answers (server to server only) and assets with Range and ETag. The app reads it
 * exactly as it reads the local content service (cms/server.ts); tests/integration/content-service.test.ts
 * runs against both. The key is the route's policy (global::api-key); errors answer in the content
 * API's envelope, `{error: {status, message}}`.
 */
import type { Core } from '@strapi/strapi'
import type { Context } from 'koa'
import { UID } from '../../../utils/content-types'
import { service } from '../../../utils/services'
import { createView, LOCALES } from '../../../utils/view'

const DEFAULT_PAGE_SIZE = 20
const MAX_PAGE_SIZE = 100

type Ctx = Context & { params: Record<string, string>; request: Context['request'] & { body?: unknown } }
type View = ReturnType<typeof createView>

class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message)
	}
}

/** A repeated query parameter counts by its first value, as URLSearchParams.get reads it (cms/server.ts). */
const first = (value: unknown) => (Array.isArray(value) ? value[0] : value) as string | undefined

function intParam(ctx: Ctx, name: string, fallback: number) {
	const raw = first(ctx.query[name])
	if (raw === undefined) return fallback
	if (!/^\d+$/.test(String(raw))) throw new ApiError(400, `${name} must be a whole number`)
	return Number(raw)
}

function send(ctx: Ctx, status: number, body: unknown) {
	ctx.status = status
	ctx.type = 'application/json; charset=utf-8'
	ctx.body = JSON.stringify(body)
}
const fail = (ctx: Ctx, status: number, message: string) => send(ctx, status, { error: { status, message } })

/** The three collections: their content type, and the view of an item in a list and alone. */
const COLLECTIONS = {
	courses: { uid: UID.course, summary: 'courseSummary', full: 'course' },
	pages: { uid: UID.page, summary: 'pageSummary', full: 'page' },
	posts: { uid: UID.post, summary: 'postSummary', full: 'post' },
} as const satisfies Record<string, { uid: string; summary: keyof View; full: keyof View }>
type Collection = keyof typeof COLLECTIONS

export default ({ strapi }: { strapi: Core.Strapi }) => {
	const documents = service(strapi, 'api::content.documents')
	const assets = service(strapi, 'api::content.assets')
	const answers = () => service(strapi, 'api::content.answers')
	const controls = () => service(strapi, 'api::content.test-controls')
	const project = process.env.CMS_PROJECT_UUID ?? ''

	/** The site the path names (404 for another project or an unknown site), its answers' base URL and its assets. */
	async function siteOf(ctx: Ctx) {
		if (ctx.params.project !== project) throw new ApiError(404, 'Unknown project')
		const site = ctx.params.site
		if (!(await documents.siteDoc(site, 'en'))) throw new ApiError(404, 'Unknown site')
		const base = `${ctx.protocol}://${ctx.get('host')}/api/v1/projects/${encodeURIComponent(project)}/sites/${encodeURIComponent(site)}`
		return { site, base, assets: await assets.load(site) }
	}

	/** The site, the required locale and the view that shapes its documents. */
	async function readerOf(ctx: Ctx) {
		const { site, base, assets } = await siteOf(ctx)
		const locale = first(ctx.query.locale)
		if (!locale) throw new ApiError(400, 'The locale query parameter is required')
		if (!LOCALES.includes(locale)) throw new ApiError(400, 'Unsupported locale')
		return { site, locale, view: createView({ locale, base, assets }) }
	}

	/** Answers with what `shape` reads, remembered until the next write; a refusal in the envelope. */
	const read = (shape: (ctx: Ctx) => Promise<unknown>) => async (ctx: Ctx) => {
		try {
			send(ctx, 200, await answers().answer(`${ctx.get('host')}|${ctx.path}|${ctx.querystring}`, () => shape(ctx)))
		} catch (e) {
			if (e instanceof ApiError) return fail(ctx, e.status, e.message)
			strapi.log.error(`[content-api] ${(e as Error)?.stack ?? e}`)
			return fail(ctx, 500, 'Internal error')
		}
	}

	/** One page of a site's documents; only that page's items are translated and shaped. */
	const list = (name: Collection) =>
		read(async (ctx) => {
			const { site, locale, view } = await readerOf(ctx)
			const { uid, summary } = COLLECTIONS[name]
			const page = intParam(ctx, 'page', 1)
			const pageSize = intParam(ctx, 'pageSize', DEFAULT_PAGE_SIZE)
			if (page < 1) throw new ApiError(400, 'page must be 1 or more')
			if (pageSize < 1 || pageSize > MAX_PAGE_SIZE)
				throw new ApiError(400, `pageSize must be between 1 and ${MAX_PAGE_SIZE}`)
			const all = await documents.list(uid, site)
			const items = await documents.translate(uid, site, all.slice((page - 1) * pageSize, page * pageSize), locale)
			return {
				data: items.map((item: unknown) => (view[summary] as (i: unknown) => unknown)(item)),
				meta: { page, pageSize, total: all.length, totalPages: Math.max(1, Math.ceil(all.length / pageSize)) },
			}
		})

	const one = (name: Collection) =>
		read(async (ctx) => {
			const { site, locale, view } = await readerOf(ctx)
			const { uid, full } = COLLECTIONS[name]
			const doc = await documents.one(uid, site, ctx.params.slug, locale)
			if (!doc) throw new ApiError(404, 'Not found')
			return { data: (view[full] as (d: unknown) => unknown)(doc) }
		})

	return {
		site: read(async (ctx) => {
			const { site, locale, view } = await readerOf(ctx)
			const doc = await documents.siteDoc(site, locale)
			if (!doc) throw new ApiError(404, 'Unknown site')
			return { data: view.site(doc.en, doc.loc) }
		}),
		pageHierarchy: read(async (ctx) => {
			const { site, locale, view } = await readerOf(ctx)
			return {
				data: view.hierarchy(await documents.translate(UID.page, site, await documents.list(UID.page, site), locale)),
			}
		}),
		courses: list('courses'),
		pages: list('pages'),
		posts: list('posts'),
		course: one('courses'),
		page: one('pages'),
		post: one('posts'),
		entry: read(async (ctx) => {
			const { site, locale, view } = await readerOf(ctx)
			const doc = await documents.one(UID.course, site, ctx.params.slug, locale)
			const data = doc && view.entry(doc, ctx.params.entry)
			if (!data) throw new ApiError(404, 'Not found')
			return { data }
		}),
		/** An asset's bytes (never remembered: Range and If-None-Match answer from the file). */
		async asset(ctx: Ctx) {
			try {
				const { assets: siteAssets } = await siteOf(ctx)
				const asset = siteAssets.byId.get(ctx.params.asset)
				if (!asset || !assets.send(ctx, asset)) throw new ApiError(404, 'Unknown asset')
			} catch (e) {
				if (e instanceof ApiError) return fail(ctx, e.status, e.message)
				throw e
			}
		},
		/** Any other path under /api/v1/ with the key: the envelope's 404. */
		notFound: (ctx: Ctx) => fail(ctx, 404, 'Not found'),

		// Test controls (CMS_TEST_CONTROLS=true; routes/content.ts adds their routes only then).
		stats: (ctx: Ctx) => send(ctx, 200, controls().stats),
		resetStats(ctx: Ctx) {
			controls().reset()
			send(ctx, 200, controls().stats)
		},
		control(ctx: Ctx) {
			const body = (ctx.request.body ?? {}) as { delayMs?: unknown; mode?: unknown }
			const { faults } = controls()
			if (typeof body.delayMs === 'number') faults.delayMs = body.delayMs
			if (body.mode === 'ok' || body.mode === 'error' || body.mode === 'garbage') faults.mode = body.mode
			send(ctx, 200, faults)
		},
		async testRead(ctx: Ctx) {
			const reader = controls().reads[`/api/v1/${ctx.params.name}`]
			if (!reader) return fail(ctx, 404, 'Not found')
			send(ctx, 200, await reader())
		},
	}
}
