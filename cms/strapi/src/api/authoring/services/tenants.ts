/**
 * The permission condition "In the author's own sites" (src/utils/tenants.ts names an author's sites
 * by their roles), registered at boot: documents whose `site` is one of them (the site document:
 * whose `key`), and media-library files in those sites' folders.
 */
import type { Core } from '@strapi/strapi'
import { service } from '../../../utils/services'
import { sitesOf, type AdminUser } from '../../../utils/tenants'

/** The user a condition's handler is given: with the permission it is checked for. */
type Checked = AdminUser & { permission?: { subject?: string | null; action?: string } }

const tenants = ({ strapi }: { strapi: Core.Strapi }) => ({
	registerCondition() {
		return strapi.service('admin::permission').conditionProvider.register({
			displayName: "In the author's own sites",
			name: 'in-own-sites',
			async handler(user: Checked) {
				const sites = sitesOf(user)
				if (
					user.permission?.subject === 'plugin::upload.file' ||
					String(user.permission?.action).startsWith('plugin::upload')
				) {
					const assets = service(strapi, 'api::content.assets')
					const paths = (await Promise.all(sites.map((s) => assets.siteFolders(s)))).flat().map((f) => f.path)
					return { folderPath: { $in: paths.length ? paths : ['/-'] } }
				}
				const own = sites.length ? sites : ['-']
				// The site document is named by its key; everything else says its site.
				return user.permission?.subject === 'api::site.site' ? { key: { $in: own } } : { site: { $in: own } }
			},
		})
	},
})

export type Tenants = ReturnType<typeof tenants>
export default tenants
