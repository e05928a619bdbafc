/**
 * The media library's folders and files, site by site: an author's scope is the folder tree of
 * each site their roles name; a site's own folder (its name is the site's key) is not renamed,
 * moved or deleted by them. Platform editors (roles without the Authors: prefix) are not limited.
 * src/utils/media-rules.ts checks the upload plugin's admin routes against it.
 */
import type { Core } from '@strapi/strapi'
import type { Scope } from '../../../utils/media-rules'
import { service } from '../../../utils/services'
import { isPlatformEditor, sitesOf, type AdminUser } from '../../../utils/tenants'

const FOLDER = 'plugin::upload.folder'
const FILE = 'plugin::upload.file'

const mediaScope = ({ strapi }: { strapi: Core.Strapi }) => ({
	/** The folders the user may see and write, or null for a platform editor. */
	async scopeOf(user: AdminUser | null | undefined): Promise<Scope | null> {
		if (!user || isPlatformEditor(user)) return null
		const assets = service(strapi, 'api::content.assets')
		const trees = await Promise.all(sitesOf(user).map((site) => assets.siteFolders(site)))
		const paths = new Set(trees.flat().map((f) => f.path))
		const roots = new Set(trees.filter((t) => t.length).map((t) => t[0].path))
		const folders: { id: number; path: string }[] = paths.size
			? await strapi.db.query(FOLDER).findMany({ where: { path: { $in: [...paths] } } })
			: []
		const ids = new Set(folders.map((f) => f.id))
		const rootIds = new Set(folders.filter((f) => roots.has(f.path)).map((f) => f.id))
		return {
			paths,
			hasFolder: (id) => id != null && ids.has(Number(id)),
			mayChangeFolder: (id) => id != null && ids.has(Number(id)) && !rootIds.has(Number(id)),
			async hasFiles(fileIds) {
				const wanted = [...new Set((fileIds ?? []).map(Number))]
				if (wanted.some((id) => !Number.isInteger(id))) return false
				if (!wanted.length) return true
				const found: { folderPath: string }[] = await strapi.db
					.query(FILE)
					.findMany({ where: { id: { $in: wanted } }, select: ['id', 'folderPath'] })
				return found.length === wanted.length && found.every((f) => paths.has(f.folderPath))
			},
		}
	},
})

export type MediaScope = ReturnType<typeof mediaScope>
export default mediaScope
