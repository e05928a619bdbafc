/**
 * The local headless content service: a real HTTP server that serves the
 * course and site content under cms/content/ through the API described in
 * cms/README.md. The app talks to it exactly as it would to a hosted one.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { ApiError, CMS_LOCALES, View, type Json } from './view.ts'

const DEFAULT_PAGE_SIZE = 20
const MAX_PAGE_SIZE = 100

interface AssetMeta {
	id: string
	file: string
	contentType: string
	filename: string
	courseSlug?: string
}

interface Site {
	slug: string
	dir: string
	site: Json
	courses: Json[]
	pages: Json[]
	blog: Json[]
	assets: AssetMeta[]
}

export interface CmsOptions {
	apiKey: string
	projectUuid: string
	contentDir?: string
}

export interface CmsStats {
	total: number
	byPath: Record<string, number>
	/** Content requests by their `locale` query parameter (`none` when absent, as for assets). */
	byLocale: Record<string, number>
	/** Content answers by status code (a 304 sent no body). */
	byStatus: Record<string, number>
}

/** Fault injection for tests: delay every answer, fail it, or answer garbage. */
export interface CmsFaults {
	delayMs: number
	mode: 'ok' | 'error' | 'garbage'
}

const defaultContentDir = fileURLToPath(new URL('./content/', import.meta.url))

function readJson(path: string): Json {
	return JSON.parse(readFileSync(path, 'utf8'))
}

/** A collection: one JSON file per item in `<dir>/`, plus any items in a `<dir>.json` array (large generated sets). */
function readDir(dir: string): Json[] {
	const files = existsSync(dir)
		? readdirSync(dir)
				.filter((f) => f.endsWith('.json'))
				.sort()
				.map((f) => readJson(join(dir, f)))
		: []
	const bundle = `${dir}.json`
	return existsSync(bundle) ? [...files, ...(readJson(bundle) as Json[])] : files
}

export function loadContent(contentDir = defaultContentDir): Map<string, Site> {
	const sites = new Map<string, Site>()
	for (const slug of readdirSync(contentDir)) {
		const dir = join(contentDir, slug)
		if (!statSync(dir).isDirectory()) continue
		sites.set(slug, {
			slug,
			dir,
			site: readJson(join(dir, 'site.json')),
			courses: readDir(join(dir, 'courses')),
			pages: readDir(join(dir, 'pages')),
			blog: readDir(join(dir, 'blog')),
			assets: existsSync(join(dir, 'assets.json')) ? readJson(join(dir, 'assets.json')) : [],
		})
	}
	return sites
}

/** PUT …/sites/<site>/authoring and POST …/authoring/invitations (decision 0053). */
const AUTHORING = /^\/api\/v1\/projects\/([^/]+)\/sites\/([^/]+)\/authoring(\/invitations)?$/

/** What one content service holds: its content (reloadable), counters and faults for the tests, the provisioning calls. */
interface CmsState {
	projectUuid: string
	contentDir: string
	sites: Map<string, Site>
	stats: CmsStats
	faults: CmsFaults
	provisioned: Array<{ site: string; name: unknown; status: string; timeZone: unknown }>
	expectedKey: Buffer
}

export function createCmsServer(options: CmsOptions) {
	const contentDir = options.contentDir ?? defaultContentDir
	const state: CmsState = {
		projectUuid: options.projectUuid,
		contentDir,
		sites: loadContent(contentDir),
		stats: { total: 0, byPath: {}, byLocale: {}, byStatus: {} },
		faults: { delayMs: 0, mode: 'ok' },
		provisioned: [],
		expectedKey: Buffer.from(options.apiKey),
	}

	function server(): Server {
		return createServer((req, res) => {
			handle(state, req, res).catch((error) => {
				if (!res.headersSent) send(res, 500, { error: { status: 500, message: 'Internal error' } })
				else res.destroy()
				console.error('[cms]', error)
			})
		})
	}

	return {
		server,
		stats: state.stats,
		faults: state.faults,
		/** Every provisioning call answered (the app's job, decision 0053), oldest first. */
		provisioned: state.provisioned,
		reload() {
			state.sites = loadContent(contentDir)
		},
	}
}

function keyMatches(expectedKey: Buffer, req: IncomingMessage) {
	const given = Buffer.from(String(req.headers['x-api-key'] ?? ''))
	return given.length === expectedKey.length && timingSafeEqual(given, expectedKey)
}

async function handle(state: CmsState, req: IncomingMessage, res: ServerResponse) {
	const { stats, faults } = state
	const url = new URL(req.url ?? '/', 'http://cms.local')
	if (!url.pathname.startsWith('/api/v1/')) return send(res, 404, { error: { status: 404, message: 'Not found' } })
	if (!keyMatches(state.expectedKey, req)) return send(res, 401, { error: { status: 401, message: 'Invalid API key' } })

	// Control endpoints used by the test suites; they are not content and are not counted.
	if (url.pathname === '/api/v1/_stats') {
		if (req.method === 'POST') {
			stats.total = 0
			stats.byPath = {}
			stats.byLocale = {}
			stats.byStatus = {}
		}
		return send(res, 200, stats)
	}
	// Authoring calls are not content reads: not counted, but failed as the faults say.
	const authoring = AUTHORING.exec(url.pathname)
	if (authoring && faults.mode !== 'ok') return send(res, 500, { error: { status: 500, message: 'Injected failure' } })
	if (authoring) return answerAuthoring(state, req, res, authoring)
	if (url.pathname === '/api/v1/_control' && req.method === 'POST') {
		const body = await readBody(req)
		if (typeof body.delayMs === 'number') faults.delayMs = body.delayMs
		if (body.mode === 'ok' || body.mode === 'error' || body.mode === 'garbage') faults.mode = body.mode
		if (body.reload) state.sites = loadContent(state.contentDir)
		return send(res, 200, faults)
	}

	stats.total++
	stats.byPath[url.pathname] = (stats.byPath[url.pathname] ?? 0) + 1
	const requested = url.searchParams.get('locale') ?? 'none'
	stats.byLocale[requested] = (stats.byLocale[requested] ?? 0) + 1
	res.once('finish', () => (stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1))
	if (faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs))
	if (faults.mode === 'error') return send(res, 500, { error: { status: 500, message: 'Injected failure' } })
	if (faults.mode === 'garbage') {
		res.writeHead(200, { 'content-type': 'application/json' })
		return res.end('{"data": [tru')
	}
	if (req.method !== 'GET') return send(res, 405, { error: { status: 405, message: 'Method not allowed' } })

	try {
		const origin = `http://${req.headers.host}`
		return route(state, url, origin, req, res)
	} catch (error) {
		if (error instanceof ApiError)
			return send(res, error.status, { error: { status: error.status, message: error.message } })
		throw error
	}
}

/**
 * The authoring endpoints Strapi serves (cms/strapi/src/api/authoring; decision 0053): here there
 * are no authors (content is files), so provisioning succeeds and does nothing, and an
 * invitation says authoring is not available. Each call is remembered (`provisioned`) for tests.
 */
async function answerAuthoring(state: CmsState, req: IncomingMessage, res: ServerResponse, match: RegExpExecArray) {
	const [project, site] = [match[1], match[2]].map((v) => {
		try {
			return decodeURIComponent(v)
		} catch {
			return ''
		}
	})
	const sub = match[3]
	if (project !== state.projectUuid) return send(res, 404, { error: { status: 404, message: 'Unknown project' } })
	const method = sub ? 'POST' : 'PUT'
	if (req.method !== method) return send(res, 405, { error: { status: 405, message: 'Method not allowed' } })
	const body = await readBody(req)
	if (sub)
		return send(res, 501, {
			error: { status: 501, message: 'This content service has no authors: its content is files (cms/content/)' },
		})
	const status = typeof body.status === 'string' ? body.status : 'active'
	state.provisioned.push({ site, name: body.name, status, timeZone: body.timeZone })
	return send(res, 200, { data: { site, status, created: { site: false, role: false, folder: false } } })
}

function route(state: CmsState, url: URL, origin: string, req: IncomingMessage, res: ServerResponse) {
	const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent)
	// api v1 projects :project sites :site ...rest
	if (parts[2] !== 'projects' || parts[4] !== 'sites' || parts.length < 6) throw new ApiError(404, 'Not found')
	if (parts[3] !== state.projectUuid) throw new ApiError(404, 'Unknown project')
	const site = state.sites.get(parts[5])
	if (!site) throw new ApiError(404, 'Unknown site')
	const rest = parts.slice(6)
	const base = `${origin}/api/v1/projects/${state.projectUuid}/sites/${site.slug}`

	// Binary assets need no locale.
	if (rest[0] === 'assets' && rest.length === 2) return sendAsset(site, rest[1], req, res)

	const locale = url.searchParams.get('locale')
	if (!locale) throw new ApiError(400, 'The locale query parameter is required')
	if (!(CMS_LOCALES as readonly string[]).includes(locale)) throw new ApiError(400, 'Unsupported locale')
	const view = new View(locale, base)

	const [kind, slug, sub, subSlug] = rest
	if (kind === 'site' && rest.length === 1) return send(res, 200, { data: view.site(site.site) })
	if (kind === 'page-hierarchy' && rest.length === 1) return send(res, 200, { data: view.hierarchy(site.pages) })
	if (kind === 'courses' && rest.length === 1)
		return send(
			res,
			200,
			paginate(url, site.courses, (c) => view.courseSummary(c)),
		)
	if (kind === 'courses' && rest.length === 2) return send(res, 200, { data: view.course(find(site.courses, slug)) })
	if (kind === 'courses' && sub === 'entries' && rest.length === 4) {
		const course = find(site.courses, slug)
		return send(res, 200, { data: view.entry(course, subSlug) })
	}
	if (kind === 'pages' && rest.length === 1)
		return send(
			res,
			200,
			paginate(url, site.pages, (p) => view.pageSummary(p)),
		)
	if (kind === 'pages' && rest.length === 2) return send(res, 200, { data: view.page(find(site.pages, slug)) })
	if (kind === 'blog-posts' && rest.length === 1)
		return send(
			res,
			200,
			paginate(url, site.blog, (p) => view.postSummary(p)),
		)
	if (kind === 'blog-posts' && rest.length === 2) return send(res, 200, { data: view.post(find(site.blog, slug)) })
	throw new ApiError(404, 'Not found')
}

function sendAsset(site: Site, id: string, req: IncomingMessage, res: ServerResponse) {
	const meta = site.assets.find((a) => a.id === id)
	if (!meta) throw new ApiError(404, 'Unknown asset')
	const path = join(site.dir, 'assets', meta.file)
	const stat = statSync(path)
	const etag = `"${createHash('sha1').update(`${meta.id}:${stat.size}:${stat.mtimeMs}`).digest('hex').slice(0, 16)}"`
	const headers: Record<string, string> = {
		'content-type': meta.contentType,
		'accept-ranges': 'bytes',
		etag,
		'last-modified': stat.mtime.toUTCString(),
		'x-asset-filename': meta.filename,
		...(meta.courseSlug ? { 'x-asset-course': meta.courseSlug } : {}),
	}
	if (req.headers['if-none-match'] === etag) {
		res.writeHead(304, headers)
		return res.end()
	}
	const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''))
	if (range && (range[1] || range[2])) {
		let start = range[1] ? Number(range[1]) : stat.size - Number(range[2])
		let end = range[1] && range[2] ? Number(range[2]) : stat.size - 1
		start = Math.max(0, start)
		end = Math.min(end, stat.size - 1)
		if (start > end) {
			// The owner goes with every answer about an asset: the app's proxy decides scope by it, also for this one.
			res.writeHead(416, {
				'content-range': `bytes */${stat.size}`,
				...(meta.courseSlug ? { 'x-asset-course': meta.courseSlug } : {}),
			})
			return res.end()
		}
		res.writeHead(206, {
			...headers,
			'content-range': `bytes ${start}-${end}/${stat.size}`,
			'content-length': String(end - start + 1),
		})
		return createReadStream(path, { start, end }).pipe(res)
	}
	res.writeHead(200, { ...headers, 'content-length': String(stat.size) })
	createReadStream(path).pipe(res)
}

function find(items: Json[], slug: string) {
	const item = items.find((i) => i.slug === slug)
	if (!item) throw new ApiError(404, 'Not found')
	return item
}

/** One page of `items`, each shaped by `view` (only the page's items are shaped). */
function paginate(url: URL, items: Json[], view: (item: Json) => Json) {
	const page = intParam(url, 'page', 1)
	const pageSize = intParam(url, 'pageSize', DEFAULT_PAGE_SIZE)
	if (page < 1) throw new ApiError(400, 'page must be 1 or more')
	if (pageSize < 1 || pageSize > MAX_PAGE_SIZE)
		throw new ApiError(400, `pageSize must be between 1 and ${MAX_PAGE_SIZE}`)
	const total = items.length
	return {
		data: items.slice((page - 1) * pageSize, page * pageSize).map(view),
		meta: { page, pageSize, total, totalPages: Math.max(1, Math.ceil(total / pageSize)) },
	}
}

function intParam(url: URL, name: string, fallback: number) {
	const raw = url.searchParams.get(name)
	if (raw === null) return fallback
	if (!/^\d+$/.test(raw)) throw new ApiError(400, `${name} must be a whole number`)
	return Number(raw)
}

function send(res: ServerResponse, status: number, body: unknown) {
	const payload = JSON.stringify(body)
	res.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(payload),
	})
	res.end(payload)
}

async function readBody(req: IncomingMessage): Promise<Json> {
	const chunks: Buffer[] = []
	for await (const chunk of req) chunks.push(chunk as Buffer)
	try {
		return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
	} catch {
		return {}
	}
}

/** Starts the service on `port` (0 picks a free one); resolves with its base API URL. */
export async function startCms(options: CmsOptions & { port?: number; host?: string }) {
	const cms = createCmsServer(options)
	const server = cms.server()
	const host = options.host ?? '127.0.0.1'
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve))
	const address = server.address()
	const port = typeof address === 'object' && address ? address.port : options.port
	return {
		...cms,
		url: `http://${host}:${port}/api/v1`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	const apiKey = process.env.CMS_API_UUID
	const projectUuid = process.env.CMS_PROJECT_UUID
	if (!apiKey || !projectUuid) {
		console.error('cms: CMS_API_UUID and CMS_PROJECT_UUID must be set')
		process.exit(1)
	}
	const port = Number(process.env.CMS_PORT ?? 3001)
	const cms = await startCms({ apiKey, projectUuid, port })
	console.log(`content service listening on ${cms.url}`)
	const stop = () => cms.close().then(() => process.exit(0))
	process.on('SIGTERM', stop)
	process.on('SIGINT', stop)
}
