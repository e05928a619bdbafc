/**
 * Strapi's Preview button (decisions 0073, 0100): a course opens the app's preview of its draft,
 * `/learn/course/<slug>?preview=1&token=<link>` on the site's host, in the locale being edited. The
 * link is signed for the author asking, for that course of that site, for 30 minutes: the app shows
 * the draft read-only to whoever holds it, with no app session (the preview pane is a cross-site
 * frame, which is sent no cookie), and lets this admin alone frame it. The app's origin is the first
 * of LMS_APP_URLS, its host replaced by the site's (`<site>.<APP_BASE_DOMAIN>`, the apex for `_apex`).
 * Other types have no preview (null: Strapi shows no button). config/admin.js hands these to Strapi.
 */
import { createHmac } from 'node:crypto'
import type { UID } from '@strapi/strapi'
import { isPlatformEditor, sitesOf } from './tenants'
import { LOCALES } from './view'

const COURSE = 'api::course.course'
type Env = Record<string, string | undefined>
/** The app reads the same label (app/learning/preview.server.ts): the webhook's secret, used for this alone. */
const LABEL = 'lms-course-preview-v1'
/** How long a link works: long enough to read a course through, short enough that a copied one soon stops. */
const LINK_LIFE_S = 30 * 60

/** The token of a preview link: its claims in base64url, and their HMAC-SHA256 under the label. */
export function previewToken(
	secret: string,
	claims: { site: string; course: string; sub: string; author: string },
	now = Date.now(),
) {
	const payload = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(now / 1000) + LINK_LIFE_S })).toString(
		'base64url',
	)
	return `${payload}.${createHmac('sha256', secret).update(`${LABEL}.${payload}`).digest('base64url')}`
}

/** An admin user as the banner names them: their name, else their email. */
type Author = { id?: number | string; firstname?: string | null; lastname?: string | null; email?: string | null }
const nameOf = (user: Author) =>
	([user.firstname, user.lastname].filter(Boolean).join(' ') || user.email || 'an author').slice(0, 200)

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

/**
 * Strapi's preview handler; it runs once Strapi has started, on the global `strapi` (as in Strapi's
 * own guide), within the admin's request, whose user it signs the link for. Strapi's route checks no
 * permission of its own (its source says so): the walls read the documentId first (the site-wall
 * policy, then the Document Service), and the handler makes no link for a course of another site.
 */
export async function previewUrl(
	uid: UID.ContentType,
	{ documentId, locale, status }: { documentId?: string; locale?: string; status?: 'draft' | 'published' },
) {
	if (uid !== COURSE || !documentId) return null
	const user: (Author & Parameters<typeof sitesOf>[0]) | undefined = strapi.requestContext.get()?.state?.user
	const secret = process.env.CMS_WEBHOOK_SECRET
	if (!user?.id || !secret) return null
	const doc: { documentId: string; slug?: string; site?: string } | null = await strapi
		.documents(uid)
		.findOne({ documentId, locale, status, fields: ['slug', 'site'] })
	if (!doc?.slug || !doc.site) return null
	if (!isPlatformEditor(user) && !sitesOf(user).includes(doc.site)) return null
	const origin = siteOrigin(doc.site)
	if (!origin) return null
	const token = previewToken(secret, { site: doc.site, course: doc.slug, sub: String(user.id), author: nameOf(user) })
	// The app's default locale (en) has no prefix in its addresses; the others do.
	const prefix = locale && locale !== 'en' && LOCALES.includes(locale) ? `/${locale}` : ''
	const query = new URLSearchParams({ preview: '1', token })
	return `${origin}${prefix}/learn/course/${encodeURIComponent(doc.slug)}?${query}`
}
