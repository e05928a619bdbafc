/**
 * A site's assets are the files of its media-library folder: `/<site>/` holds the site's own
 * (icons, blog heroes), `/<site>/<course-slug>/` (and below) a course's, which the API marks with
 * `X-Asset-Course` so the app serves them only under that course. An asset's id is its file name
 * without the extension (`acme-icon.png` is `acme-icon`), unique within a site.
 */
import type { Core } from '@strapi/strapi'
import type { Context } from 'koa'
import { createHash } from 'node:crypto'
import { createReadStream, statSync, type Stats } from 'node:fs'
import path from 'node:path'

const FILE = 'plugin::upload.file'
const FOLDER = 'plugin::upload.folder'

/** The media library's rows, as far as assets go. */
type Folder = { id: number; name: string; path: string }
type File = { name: string; url: string; folderPath: string; hash: string; mime: string; updatedAt: string | Date }
export type Asset = { id: string; file: File; course: string | null }
/** A folder of a site's tree, with the course it belongs to (null: the site's own). */
export type SiteFolder = { path: string; course: string | null }

const assetId = (name: unknown) =>
	String(name ?? '')
		.replace(/\.[^.]*$/, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')

const assets = ({ strapi }: { strapi: Core.Strapi }) => {
	/** Every folder path of a site's tree, each with the course it belongs to (null: the site's own). */
	async function siteFolders(site: string): Promise<SiteFolder[]> {
		const root: Folder | null = await strapi.db.query(FOLDER).findOne({ where: { name: site, parent: null } })
		if (!root) return []
		const below: Folder[] = await strapi.db
			.query(FOLDER)
			.findMany({ where: { path: { $startsWith: `${root.path}/` } } })
		const byPath = new Map(below.map((f) => [f.path, f]))
		const courseOf = (folder: Folder) => {
			// The course is the folder right under the site's: its name is the course's slug.
			const ids = folder.path.slice(root.path.length + 1).split('/')
			return byPath.get(`${root.path}/${ids[0]}`)?.name ?? null
		}
		return [{ path: root.path, course: null }, ...below.map((f) => ({ path: f.path, course: courseOf(f) }))]
	}

	/** A site's assets by id, and its files' URLs in media fields and Markdown made the API's. */
	async function load(site: string) {
		const folders = await siteFolders(site)
		const courseByPath = new Map(folders.map((f) => [f.path, f.course]))
		const files: File[] = folders.length
			? await strapi.db
					.query(FILE)
					.findMany({ where: { folderPath: { $in: [...courseByPath.keys()] } }, orderBy: { id: 'asc' } })
			: []
		const byId = new Map<string, Asset>()
		const byUrl = new Map<string, Asset>()
		for (const file of files) {
			const id = assetId(file.name)
			const asset = { id, file, course: courseByPath.get(file.folderPath) ?? null }
			if (!byId.has(id)) byId.set(id, asset)
			byUrl.set(file.url, asset)
		}
		return {
			byId,
			/** The API URL of a media field's file, or null. */
			url(media: { url?: string } | null | undefined, base: string) {
				const asset = media && media.url !== undefined ? byUrl.get(media.url) : undefined
				return asset ? `${base}/assets/${asset.id}` : null
			},
			/** Markdown with Strapi's upload URLs and {{asset:<id>}} placeholders as API URLs. */
			rewrite(text: unknown, base: string) {
				if (typeof text !== 'string') return ''
				return text
					.replace(/\{\{asset:([a-z0-9-]+)\}\}/g, (_, id) => `${base}/assets/${id}`)
					.replace(/(?:https?:\/\/[^\s()"'<>]+?)?(\/uploads\/[^\s()"'<>?#]+)/g, (match, url) => {
						const asset = byUrl.get(url)
						return asset ? `${base}/assets/${asset.id}` : match
					})
			},
		}
	}

	return { siteFolders, load, send: (ctx: Context, asset: Asset) => send(strapi, ctx, asset) }
}

/** Answers GET /assets/<id> as the local content service does (cms/server.ts); false when the file is gone. */
function send(strapi: Core.Strapi, ctx: Context, asset: Asset) {
	const { file, course } = asset
	const fullPath = path.join(strapi.dirs.static.public, file.url.replace(/^\/+/, ''))
	let stat: Stats
	try {
		stat = statSync(fullPath)
	} catch {
		return false
	}
	const etag = `"${createHash('sha1')
		.update(`${file.hash}:${stat.size}:${new Date(file.updatedAt).getTime()}`)
		.digest('hex')
		.slice(0, 16)}"`
	const owner: Record<string, string> = course ? { 'x-asset-course': course } : {}
	const headers = {
		'content-type': file.mime,
		'accept-ranges': 'bytes',
		etag,
		'last-modified': new Date(file.updatedAt).toUTCString(),
		'x-asset-filename': file.name,
		...owner,
	}
	const res = ctx.res
	ctx.respond = false
	if (ctx.get('if-none-match') === etag) {
		res.writeHead(304, headers)
		res.end()
		return true
	}
	const range = /^bytes=(\d*)-(\d*)$/.exec(ctx.get('range'))
	if (range && (range[1] || range[2])) {
		let start = range[1] ? Number(range[1]) : stat.size - Number(range[2])
		let end = range[1] && range[2] ? Number(range[2]) : stat.size - 1
		start = Math.max(0, start)
		end = Math.min(end, stat.size - 1)
		if (start > end) {
			res.writeHead(416, { 'content-range': `bytes */${stat.size}`, ...owner })
			res.end()
			return true
		}
		res.writeHead(206, {
			...headers,
			'content-range': `bytes ${start}-${end}/${stat.size}`,
			'content-length': String(end - start + 1),
		})
		createReadStream(fullPath, { start, end }).pipe(res)
		return true
	}
	res.writeHead(200, { ...headers, 'content-length': String(stat.size) })
	createReadStream(fullPath).pipe(res)
	return true
}

export type Assets = ReturnType<typeof assets>
export type SiteAssets = Awaited<ReturnType<Assets['load']>>
export default assets
