'use strict'
/**
 * The LMS content API (cms/README.md) served by Strapi: /api/v1/projects/<project>/sites/<site>/…
 * with `x-api-key`, a required `locale`, field-by-field fallback to en, the paging envelope, the
 * archived status, quizzes with their answers (server to server only) and assets with Range and
 * ETag. The app reads this exactly as it reads the local content service (cms/server.ts);
 * tests/integration/content-service.test.ts runs against both.
 *
 * Strapi's own content API answers differently (whole-document translations, its paging
 * envelope, Bearer tokens only), so this middleware answers these paths itself.
 */
const { createKeyCheck } = require('../lms/api-key')
const { createView, LOCALES } = require('../lms/view')
const { createDocuments, UID } = require('../lms/documents')
const { loadSiteAssets, sendAsset } = require('../lms/assets')
const { TEST_READS } = require('../lms/test-controls')

const PREFIX = '/api/v1/'
// The authoring endpoints (api/authoring) are Strapi routes: this middleware checks their key only.
const AUTHORING = /^\/api\/v1\/projects\/[^/]+\/sites\/[^/]+\/authoring(?:\/invitations)?$/
const DEFAULT_PAGE_SIZE = 20
const MAX_PAGE_SIZE = 100
const MEMO_MAX = 1000

class ApiError extends Error {
	constructor(status, message) {
		super(message)
		this.status = status
	}
}

module.exports = (_config, { strapi }) => {
	const keyMatches = createKeyCheck()
	const project = process.env.CMS_PROJECT_UUID ?? ''
	// Test controls (as the local service's _stats and _control) exist only when asked for.
	const controls = process.env.CMS_TEST_CONTROLS === 'true'
	const stats = { total: 0, byPath: {}, byLocale: {}, byStatus: {} }
	const faults = { delayMs: 0, mode: 'ok' }
	const documents = createDocuments(strapi)
	const memo = new Map()

	const send = (ctx, status, body) => {
		ctx.status = status
		ctx.type = 'application/json; charset=utf-8'
		ctx.body = JSON.stringify(body)
	}
	const error = (ctx, status, message) => send(ctx, status, { error: { status, message } })

	return async (ctx, next) => {
		if (!ctx.path.startsWith(PREFIX)) return next()
		if (!keyMatches(ctx.get('x-api-key'))) return error(ctx, 401, 'Invalid API key')
		if (AUTHORING.test(ctx.path)) return next()

		if (ctx.path === '/api/v1/_stats' && controls) {
			if (ctx.method === 'POST') Object.assign(stats, { total: 0, byPath: {}, byLocale: {}, byStatus: {} })
			return send(ctx, 200, stats)
		}
		if (controls && ctx.method === 'GET' && Object.hasOwn(TEST_READS, ctx.path))
			return send(ctx, 200, await TEST_READS[ctx.path](strapi))
		if (ctx.path === '/api/v1/_control' && controls && ctx.method === 'POST') {
			const body = await readJson(ctx.req)
			if (typeof body.delayMs === 'number') faults.delayMs = body.delayMs
			if (['ok', 'error', 'garbage'].includes(body.mode)) faults.mode = body.mode
			return send(ctx, 200, faults)
		}

		stats.total++
		stats.byPath[ctx.path] = (stats.byPath[ctx.path] ?? 0) + 1
		const requested = first(ctx.query.locale) ?? 'none'
		stats.byLocale[requested] = (stats.byLocale[requested] ?? 0) + 1
		ctx.res.once('finish', () => (stats.byStatus[ctx.res.statusCode] = (stats.byStatus[ctx.res.statusCode] ?? 0) + 1))
		if (faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs))
		if (faults.mode === 'error') return error(ctx, 500, 'Injected failure')
		if (faults.mode === 'garbage') {
			ctx.status = 200
			ctx.type = 'application/json'
			ctx.body = '{"data": [tru'
			return
		}
		if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return error(ctx, 405, 'Method not allowed')

		try {
			// Answers are remembered until the next write to content or media (src/index.js bumps the
			// generation after each commit): the app asks again after every webhook, and a deep read of
			// a course costs Strapi 10 to 30 queries. One CMS process; see docs/authoring.md.
			const key = `${ctx.get('host')}|${ctx.path}|${ctx.querystring}`
			const generation = strapi.lmsContent.generation
			const hit = memo.get(key)
			if (hit && hit.generation === generation) return send(ctx, 200, hit.body)
			await route(ctx)
			if (
				ctx.status === 200 &&
				ctx.type.startsWith('application/json') &&
				strapi.lmsContent.generation === generation
			) {
				if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value)
				memo.set(key, { generation, body: JSON.parse(ctx.body) })
			}
		} catch (e) {
			if (e instanceof ApiError) return error(ctx, e.status, e.message)
			strapi.log.error(`[content-api] ${e?.stack ?? e}`)
			return error(ctx, 500, 'Internal error')
		}
	}

	async function route(ctx) {
		let parts
		try {
			parts = ctx.path.split('/').filter(Boolean).map(decodeURIComponent)
		} catch {
			throw new ApiError(400, 'Malformed path')
		}
		// api v1 projects :project sites :site ...rest
		if (parts[2] !== 'projects' || parts[4] !== 'sites' || parts.length < 6) throw new ApiError(404, 'Not found')
		if (parts[3] !== project) throw new ApiError(404, 'Unknown project')
		const site = parts[5]
		const rest = parts.slice(6)
		const en = await documents.siteDoc(site, 'en')
		if (!en) throw new ApiError(404, 'Unknown site')
		const base = `${ctx.protocol}://${ctx.get('host')}/api/v1/projects/${encodeURIComponent(project)}/sites/${encodeURIComponent(site)}`
		const assets = await loadSiteAssets(strapi, site)

		if (rest[0] === 'assets' && rest.length === 2) {
			const asset = assets.byId.get(rest[1])
			if (!asset || !sendAsset(strapi, ctx, asset)) throw new ApiError(404, 'Unknown asset')
			return
		}

		const locale = first(ctx.query.locale)
		if (!locale) throw new ApiError(400, 'The locale query parameter is required')
		if (!LOCALES.includes(locale)) throw new ApiError(400, 'Unsupported locale')
		const view = createView({ locale, base, assets })
		const [kind, slug, sub, subSlug] = rest
		const ok = (data) => send(ctx, 200, { data })

		if (kind === 'site' && rest.length === 1) {
			const doc = await documents.siteDoc(site, locale)
			return ok(view.site(doc.en, doc.loc))
		}
		if (kind === 'page-hierarchy' && rest.length === 1) {
			const items = await documents.translate(UID.page, site, await documents.list(UID.page, site), locale)
			return ok(view.hierarchy(items))
		}
		const collections = {
			courses: [UID.course, 'courseSummary', 'course'],
			pages: [UID.page, 'pageSummary', 'page'],
			'blog-posts': [UID.post, 'postSummary', 'post'],
		}
		const collection = collections[kind]
		if (collection && rest.length === 1) {
			const [uid, summary] = collection
			return send(ctx, 200, await paginate(ctx, uid, site, locale, (item) => view[summary](item)))
		}
		if (collection && rest.length === 2) {
			const [uid, , full] = collection
			const doc = await documents.one(uid, site, slug, locale)
			if (!doc) throw new ApiError(404, 'Not found')
			return ok(view[full](doc))
		}
		if (kind === 'courses' && sub === 'entries' && rest.length === 4) {
			const doc = await documents.one(UID.course, site, slug, locale)
			const data = doc && view.entry(doc, subSlug)
			if (!data) throw new ApiError(404, 'Not found')
			return ok(data)
		}
		throw new ApiError(404, 'Not found')
	}

	/** One page of a site's documents; only that page's items are translated and shaped. */
	async function paginate(ctx, uid, site, locale, shape) {
		const page = intParam(ctx, 'page', 1)
		const pageSize = intParam(ctx, 'pageSize', DEFAULT_PAGE_SIZE)
		if (page < 1) throw new ApiError(400, 'page must be 1 or more')
		if (pageSize < 1 || pageSize > MAX_PAGE_SIZE)
			throw new ApiError(400, `pageSize must be between 1 and ${MAX_PAGE_SIZE}`)
		const all = await documents.list(uid, site)
		const slice = all.slice((page - 1) * pageSize, page * pageSize)
		const items = await documents.translate(uid, site, slice, locale)
		return {
			data: items.map(shape),
			meta: { page, pageSize, total: all.length, totalPages: Math.max(1, Math.ceil(all.length / pageSize)) },
		}
	}
}

/** A repeated query parameter counts by its first value, as URLSearchParams.get reads it (cms/server.ts). */
const first = (value) => (Array.isArray(value) ? value[0] : value)

function intParam(ctx, name, fallback) {
	const raw = first(ctx.query[name])
	if (raw === undefined) return fallback
	if (!/^\d+$/.test(raw)) throw new ApiError(400, `${name} must be a whole number`)
	return Number(raw)
}

async function readJson(req) {
	const chunks = []
	for await (const chunk of req) chunks.push(chunk)
	try {
		return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
	} catch {
		return {}
	}
}
