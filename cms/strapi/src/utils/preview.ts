/**
 * Strapi's Preview button (decision 0073): a course opens the app's staff preview of its draft,
 * `/learn/course/<slug>?preview=1` on the site's host (decision 0041: course staff signed in to the
 * app see drafts there, marked as a preview; everyone else gets 404). The app's origin is the first
 * of LMS_APP_URLS, its host replaced by the site's (`<site>.<APP_BASE_DOMAIN>`, the apex for `_apex`).
 * Other types have no preview (null: Strapi shows no button). config/admin.js hands these to Strapi.
 */
import type { UID } from '@strapi/strapi'

const COURSE = 'api::course.course'
type Env = Record<string, string | undefined>

export function siteOrigin(site: string, env: Env = process.env) {
	const first = (env.LMS_APP_URLS ?? '').split(',')[0]?.trim()
	if (!first) return null
	const url = new URL(first)
	const base = env.APP_BASE_DOMAIN || 'localhost'
	url.hostname = site === '_apex' ? base : `${site}.${base}`
	return url.origin
}

/** The app's origins a preview may be framed from (Strapi's allowedOrigins). */
export function allowedOrigins(env: Env = process.env) {
	return (env.LMS_APP_URLS ?? '')
		.split(',')
		.map((u) => u.trim())
		.filter(Boolean)
		.map((u) => {
			const url = new URL(u)
			return `${url.protocol}//*.${env.APP_BASE_DOMAIN || url.hostname}${url.port ? `:${url.port}` : ''}`
		})
}

/** Strapi's preview handler; it runs once Strapi has started, on the global `strapi` (as in Strapi's own guide). */
export async function previewUrl(
	uid: UID.ContentType,
	{ documentId, locale, status }: { documentId?: string; locale?: string; status?: 'draft' | 'published' },
) {
	if (uid !== COURSE || !documentId) return null
	const doc: { documentId: string; slug?: string; site?: string } | null = await strapi
		.documents(uid)
		.findOne({ documentId, locale, status, fields: ['slug', 'site'] })
	if (!doc?.slug || !doc.site) return null
	const origin = siteOrigin(doc.site)
	if (!origin) return null
	return `${origin}/learn/course/${encodeURIComponent(doc.slug)}?preview=1`
}
