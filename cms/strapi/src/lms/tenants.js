'use strict'
/**
 * Tenants in the CMS. An author's sites are named by their roles: a role called
 * `Authors: <site key>` (e.g. `Authors: acme`) gives the site of that key. The condition
 * "In the author's own sites" limits a permission to documents whose `site` is one of them, and
 * media-library files to those sites' folders. Roles without it (Super Admin, Editor: the
 * platform's editors) see everything. A suspended tenant's role is `Suspended authors: <key>`
 * (provisioning.js): it names no site and does not make its holder a platform editor.
 */
const { siteFolders } = require('./assets')

// A site's key is its tenant's slug as the app allows it (app/routes/admin.tenants.tsx), or _apex.
const SITE_KEY = /^(?:_apex|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/
const ROLE = /^Authors: (_apex|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/
const SUSPENDED_ROLE = /^Suspended authors: (_apex|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/
const CONDITION = 'api::in-own-sites'

const sitesOf = (user) => (user?.roles ?? []).map((r) => ROLE.exec(r.name)?.[1]).filter(Boolean)

/** Roles that see every site: a role without the Authors: prefix (a suspended site's role is none). */
const isPlatformEditor = (user) => (user?.roles ?? []).some((r) => !ROLE.test(r.name) && !SUSPENDED_ROLE.test(r.name))

function registerCondition(strapi) {
	return strapi.service('admin::permission').conditionProvider.register({
		displayName: "In the author's own sites",
		name: 'in-own-sites',
		async handler(user) {
			const sites = sitesOf(user)
			if (
				user.permission?.subject === 'plugin::upload.file' ||
				String(user.permission?.action).startsWith('plugin::upload')
			) {
				const paths = (await Promise.all(sites.map((s) => siteFolders(strapi, s)))).flat().map((f) => f.path)
				return { folderPath: { $in: paths.length ? paths : ['/-'] } }
			}
			const own = sites.length ? sites : ['-']
			// The site document is named by its key; everything else says its site.
			return user.permission?.subject === 'api::site.site' ? { key: { $in: own } } : { site: { $in: own } }
		},
	})
}

module.exports = { ROLE, SUSPENDED_ROLE, SITE_KEY, CONDITION, sitesOf, isPlatformEditor, registerCondition }
