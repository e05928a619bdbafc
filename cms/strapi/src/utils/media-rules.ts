/**
 * The media library's admin routes, action by action, against an author's scope (their sites'
 * folder trees, api::authoring.media-scope): which requests go through and what the answers keep.
 * Strapi applies a permission's condition (api::authoring.tenants) to files it reads or updates by
 * id, but not to folders, nor to the folder a file is uploaded or moved into: without these an
 * author of one site would list every site's folders and could put files into, or move them out
 * of, another site's. src/extensions/upload/strapi-server.ts wraps the upload plugin's controllers
 * with them.
 */
import type { Context } from 'koa'

/** The folders and files an author may see and write. */
export type Scope = {
	paths: Set<string>
	/** A folder of the user's sites (a string or number id, as bodies and paths give it). */
	hasFolder(id: unknown): boolean
	/** One the user may rename, move or delete: below a site's own folder. */
	mayChangeFolder(id: unknown): boolean
	hasFiles(fileIds: unknown[] | null | undefined): Promise<boolean>
}

/** What the upload plugin's admin actions are sent (as the admin panel sends it; nothing is checked here). */
type Body = {
	parent?: unknown
	folderIds?: unknown[]
	fileIds?: unknown[]
	destinationFolderId?: unknown
	updates?: ({ id?: unknown; fileInfo?: { folder?: unknown } | null } | null)[]
	fileInfo?: unknown
}
type Folder = { id: unknown; path?: string; children?: Folder[] }
/** A Koa context as Strapi's admin routes have it: the route's params, the parsed body, the user. */
export type AdminContext = Context & {
	params: Record<string, string | undefined>
	request: Context['request'] & { body?: Body | null }
}
/** false refuses (403), 'missing' answers as for a folder or file that does not exist (404). */
type Verdict = boolean | 'missing'
type Rule = {
	before?: (ctx: AdminContext, scope: Scope) => Verdict | Promise<Verdict>
	after?: (ctx: AdminContext, scope: Scope) => void
}

/** fileInfo as a multipart body carries it: a JSON string, an array of them, an object or none. */
function fileInfos(body: Body | null | undefined): { folder?: unknown }[] {
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
function pruneTree(nodes: Folder[] | null | undefined, scope: Scope): Folder[] {
	return (nodes ?? []).flatMap((node) => {
		const children = pruneTree(node.children, scope)
		return scope.hasFolder(node.id) ? [{ ...node, children }] : children
	})
}

/** The folders an answer lists, as the action answered them. */
const answered = (ctx: AdminContext) => ctx.body as { data?: Folder[] | null }
const query = (ctx: AdminContext) => ctx.query as Record<string, string | undefined> | undefined

/**
 * Checks and filters per controller action: `before` answers false to refuse (403) or 'missing'
 * (404, as for a folder that does not exist); `after` filters what the action answered.
 */
export const RULES: Record<string, Record<string, Rule>> = {
	'admin-folder': {
		find: {
			after: (ctx, scope) => {
				answered(ctx).data = (answered(ctx).data ?? []).filter((f) => f.path !== undefined && scope.paths.has(f.path))
			},
		},
		findOne: { before: (ctx, scope) => scope.hasFolder(ctx.params.id) || 'missing' },
		getStructure: { after: (ctx, scope) => void (answered(ctx).data = pruneTree(answered(ctx).data, scope)) },
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
		upload: {
			before: (ctx, scope) => fileWrite(ctx, scope, query(ctx)?.id, { folderRequired: !query(ctx)?.id }),
		},
		uploadFile: { before: (ctx, scope) => fileWrite(ctx, scope, undefined, { folderRequired: true }) },
		uploadFromUrls: { before: (ctx, scope) => fileWrite(ctx, scope, undefined, { folderRequired: true }) },
		updateFileInfo: { before: (ctx, scope) => fileWrite(ctx, scope, ctx.params?.id ?? query(ctx)?.id) },
		replaceFile: { before: (ctx, scope) => fileWrite(ctx, scope, ctx.params?.id ?? query(ctx)?.id) },
		bulkUpdateFileInfo: {
			before: async (ctx, scope) => {
				const updates: NonNullable<Body['updates']> = ctx.request.body?.updates ?? []
				return (
					(await scope.hasFiles(updates.map((u) => u?.id))) &&
					updates.every((u) => u?.fileInfo?.folder == null || scope.hasFolder(u.fileInfo.folder))
				)
			},
		},
	},
}

/** A write of files: the file named by id is in scope, and every folder the body names is. */
async function fileWrite(ctx: AdminContext, scope: Scope, id: unknown, { folderRequired = false } = {}) {
	if (id !== undefined && !(await scope.hasFiles([id]))) return 'missing'
	const infos = fileInfos(ctx.request.body)
	if (folderRequired && !infos.length) return false
	return infos.every((info) => (info.folder == null ? !folderRequired : scope.hasFolder(info.folder)))
}
