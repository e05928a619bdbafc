'use strict'
/**
 * The media library's folders and files, site by site, on every admin route of the upload plugin.
 * Strapi applies a permission's condition (tenants.js) to files it reads or updates by id, but not
 * to folders, nor to the folder a file is uploaded or moved into: without this an author of one
 * site would list every site's folders and could put files into, or move them out of, another
 * site's. An author's scope is the folder tree of each site their roles name; a site's own folder
 * (its name is the site's key) is not renamed, moved or deleted by them. Platform editors (roles
 * without the Authors: prefix) are not limited.
 */
const { siteFolders } = require('./assets')
const { sitesOf, isPlatformEditor } = require('./tenants')

const FOLDER = 'plugin::upload.folder'
const FILE = 'plugin::upload.file'

/** The folders the user may see and write, or null for a platform editor. */
async function scopeOf(strapi, user) {
	if (!user || isPlatformEditor(user)) return null
	const trees = await Promise.all(sitesOf(user).map((site) => siteFolders(strapi, site)))
	const paths = new Set(trees.flat().map((f) => f.path))
	const roots = new Set(trees.filter((t) => t.length).map((t) => t[0].path))
	const folders = paths.size ? await strapi.db.query(FOLDER).findMany({ where: { path: { $in: [...paths] } } }) : []
	const ids = new Set(folders.map((f) => f.id))
	const rootIds = new Set(folders.filter((f) => roots.has(f.path)).map((f) => f.id))
	return {
		paths,
		/** A folder of the user's sites (a string or number id, as bodies and paths give it). */
		hasFolder: (id) => id != null && ids.has(Number(id)),
		/** One the user may rename, move or delete: below a site's own folder. */
		mayChangeFolder: (id) => id != null && ids.has(Number(id)) && !rootIds.has(Number(id)),
		async hasFiles(fileIds) {
			const wanted = [...new Set((fileIds ?? []).map(Number))]
			if (wanted.some((id) => !Number.isInteger(id))) return false
			if (!wanted.length) return true
			const found = await strapi.db
				.query(FILE)
				.findMany({ where: { id: { $in: wanted } }, select: ['id', 'folderPath'] })
			return found.length === wanted.length && found.every((f) => paths.has(f.folderPath))
		},
	}
}

/** fileInfo as a multipart body carries it: a JSON string, an array of them, an object or none. */
function fileInfos(body) {
	const raw = body?.fileInfo
	const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
	return list.map((info) => {
		if (typeof info !== 'string') return info ?? {}
		try {
			return JSON.parse(info) ?? {}
		} catch {
			return {}
		}
	})
}

/** Keeps, of a folder tree (folder-structure), the nodes in scope; a child in scope under one that is not moves up. */
function pruneTree(nodes, scope) {
	return (nodes ?? []).flatMap((node) => {
		const children = pruneTree(node.children, scope)
		return scope.hasFolder(node.id) ? [{ ...node, children }] : children
	})
}

/**
 * Checks and filters per controller action: `before` answers false to refuse (403) or 'missing'
 * (404, as for a folder that does not exist); `after` filters what the action answered.
 */
const RULES = {
	'admin-folder': {
		find: { after: (ctx, scope) => (ctx.body.data = (ctx.body.data ?? []).filter((f) => scope.paths.has(f.path))) },
		findOne: { before: (ctx, scope) => scope.hasFolder(ctx.params.id) || 'missing' },
		getStructure: { after: (ctx, scope) => (ctx.body.data = pruneTree(ctx.body.data, scope)) },
		create: { before: (ctx, scope) => scope.hasFolder(ctx.request.body?.parent) },
		update: {
			before: (ctx, scope) =>
				!scope.hasFolder(ctx.params.id)
					? 'missing'
					: scope.mayChangeFolder(ctx.params.id) &&
						(ctx.request.body?.parent === undefined || scope.hasFolder(ctx.request.body.parent)),
		},
	},
	'admin-folder-file': {
		deleteMany: {
			before: async (ctx, scope) => {
				const { folderIds = [], fileIds = [] } = ctx.request.body ?? {}
				return folderIds.every(scope.mayChangeFolder) && (await scope.hasFiles(fileIds))
			},
		},
		moveMany: {
			before: async (ctx, scope) => {
				const { folderIds = [], fileIds = [], destinationFolderId } = ctx.request.body ?? {}
				return (
					scope.hasFolder(destinationFolderId) &&
					folderIds.every(scope.mayChangeFolder) &&
					(await scope.hasFiles(fileIds))
				)
			},
		},
	},
	'admin-upload': {
		// POST /upload: new files (each into a folder in scope), or with ?id= a file's replacement or information.
		upload: { before: (ctx, scope) => fileWrite(ctx, scope, ctx.query?.id, { folderRequired: !ctx.query?.id }) },
		uploadFile: { before: (ctx, scope) => fileWrite(ctx, scope, undefined, { folderRequired: true }) },
		uploadFromUrls: { before: (ctx, scope) => fileWrite(ctx, scope, undefined, { folderRequired: true }) },
		updateFileInfo: { before: (ctx, scope) => fileWrite(ctx, scope, ctx.params?.id ?? ctx.query?.id) },
		replaceFile: { before: (ctx, scope) => fileWrite(ctx, scope, ctx.params?.id ?? ctx.query?.id) },
		bulkUpdateFileInfo: {
			before: async (ctx, scope) => {
				const updates = ctx.request.body?.updates ?? []
				return (
					(await scope.hasFiles(updates.map((u) => u?.id))) &&
					updates.every((u) => u?.fileInfo?.folder == null || scope.hasFolder(u.fileInfo.folder))
				)
			},
		},
	},
}

/** A write of files: the file named by id is in scope, and every folder the body names is. */
async function fileWrite(ctx, scope, id, { folderRequired = false } = {}) {
	if (id !== undefined && !(await scope.hasFiles([id]))) return 'missing'
	const infos = fileInfos(ctx.request.body)
	if (folderRequired && !infos.length) return false
	return infos.every((info) => (info.folder == null ? !folderRequired : scope.hasFolder(info.folder)))
}

/** Wraps the upload plugin's admin controllers with RULES (src/extensions/upload/strapi-server.js). */
function guardUploadPlugin(plugin) {
	for (const [name, actions] of Object.entries(RULES)) {
		const controller = plugin.controllers[name]
		for (const [action, rule] of Object.entries(actions)) {
			const handler = controller[action]
			controller[action] = async (ctx, next) => {
				const scope = await scopeOf(strapi, ctx.state.user)
				if (scope && rule.before) {
					const verdict = await rule.before(ctx, scope)
					if (verdict === 'missing') return ctx.notFound('not found')
					if (verdict !== true) return ctx.forbidden('outside your sites')
				}
				const result = await handler.call(controller, ctx, next)
				if (scope && rule.after && ctx.status < 300 && ctx.body) rule.after(ctx, scope)
				return result
			}
		}
	}
	return plugin
}

module.exports = { guardUploadPlugin, scopeOf }
