'use strict'
/**
 * Strapi's Preview button (decision 0073): a course opens the app's staff preview of its draft,
 * `/learn/course/<slug>?preview=1` on the site's host (decision 0041: course staff signed in to the
 * app see drafts there, marked as a preview; everyone else gets 404). The app's origin is the first
 * of LMS_APP_URLS, its host replaced by the site's (`<site>.<APP_BASE_DOMAIN>`, the apex for `_apex`).
 * Other types have no preview (null: Strapi shows no button).
 */
const COURSE = 'api::course.course'

function siteOrigin(site, env = process.env) {
	const first = (env.LMS_APP_URLS ?? '').split(',')[0]?.trim()
	if (!first) return null
	const url = new URL(first)
	const base = env.APP_BASE_DOMAIN || 'localhost'
	url.hostname = site === '_apex' ? base : `${site}.${base}`
	return url.origin
}

/** The app's origins a preview may be framed from (Strapi's allowedOrigins). */
function allowedOrigins(env = process.env) {
	return (env.LMS_APP_URLS ?? '')
		.split(',')
		.map((u) => u.trim())
		.filter(Boolean)
		.map((u) => {
			const url = new URL(u)
			return `${url.protocol}//*.${env.APP_BASE_DOMAIN || url.hostname}${url.port ? `:${url.port}` : ''}`
		})
}

async function previewUrl(uid, { documentId, locale, status }) {
	if (uid !== COURSE || !documentId) return null
	const doc = await strapi.documents(uid).findOne({ documentId, locale, status, fields: ['slug', 'site'] })
	const origin = doc?.slug && doc.site ? siteOrigin(doc.site) : null
	if (!origin) return null
	return `${origin}/learn/course/${encodeURIComponent(doc.slug)}?preview=1`
}

module.exports = { previewUrl, allowedOrigins, siteOrigin }
