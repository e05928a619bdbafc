import { createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { RequestContext } from '#app/context.ts'
import type { CurrentSession } from '#app/accounts/session.server.ts'
import { tenantTimeZone } from './due-dates.ts'

/*
 * Who may see a course before learners do, and as what: staff signed in to the app (`?preview=1`,
 * spec: assigned course_admin, tenant_admin, super_admin; decision 0041), or an author holding a
 * preview link the CMS made (below). Both see it read-only, without enrollment or locks.
 */

/** Staff who may preview a course: tenant_admin, super_admin and its assigned course_admin. */
export function canPreview(session: CurrentSession | null, courseSlug: string) {
	const claims = session?.claims
	if (!claims) return false
	return (
		claims.role === 'tenant_admin' ||
		claims.role === 'super_admin' ||
		(claims.role === 'course_admin' && claims.assignedCourses.includes(courseSlug))
	)
}

export type LinkPreview = { by: 'link'; token: string } & PreviewLink
export type PreviewAccess = { by: 'staff' } | LinkPreview

/**
 * How this request previews the course, or null when it does not: `preview=1` and a link for this
 * course of this site (first: in the CMS's pane a signed-in admin is still the link's reader), or
 * `preview=1` and staff rights. A link whose time has passed is told so on a draft (403 with the
 * sentence, shown in the CMS's pane too), not taken for a missing page: the author opens Preview
 * again; on a published course it is no link, and the page is what it is for the reader.
 */
export function previewAccess(
	ctx: RequestContext,
	request: Request,
	session: CurrentSession | null,
	course: { slug: string; draft: boolean },
): PreviewAccess | null {
	const query = new URL(request.url).searchParams
	if (query.get('preview') !== '1') return null
	const tokens = query.getAll(PREVIEW_TOKEN)
	const link =
		tokens.length === 1
			? readPreviewLink(ctx.env.CMS_WEBHOOK_SECRET, tokens[0], { site: ctx.site, course: course.slug })
			: null
	if (link === 'expired' && course.draft) {
		ctx.framedByCms = 'refusal'
		throw new Response('common.preview.linkExpired', { status: 403 })
	}
	if (link && link !== 'expired') {
		ctx.framedByCms = 'page'
		return { by: 'link', token: tokens[0], ...link }
	}
	return canPreview(session, course.slug) ? { by: 'staff' } : null
}

/** What a preview's links carry to stay the same preview ('' outside one). */
export function previewSearch(preview: PreviewAccess | null) {
	if (!preview) return ''
	if (preview.by === 'staff') return '?preview=1'
	return `?${new URLSearchParams({ preview: '1', [PREVIEW_TOKEN]: preview.token })}`
}

/** What the preview's banner says of a link: whom the CMS made it for and until when, in the school's zone. */
export function previewBanner(ctx: RequestContext, preview: PreviewAccess | null) {
	if (preview?.by !== 'link') return null
	return { author: preview.author, until: preview.expiresAt.toISOString(), timeZone: tenantTimeZone(ctx.tenant) }
}

/*
 * A preview link. Strapi's Preview button on a course opens the app's preview of its draft inside
 * the CMS's pane, where the app's session cookie is not sent (a cross-site frame) and the author may
 * have no account in the app at all. The CMS signs what it checked when it made the link
 * (cms/strapi/src/utils/preview.ts): this site's course, for that author, until a time. The app takes
 * it as a read-only preview of that course and its entries until then, and lets the CMS's admin frame
 * those answers only. The key is CMS_WEBHOOK_SECRET, which both sides hold, used under a label of
 * this use alone (the webhook only compares it).
 */

/** The query parameter that carries the link's token, beside the spec's `preview=1`. */
export const PREVIEW_TOKEN = 'token'
const LABEL = 'lms-course-preview-v1'
/** A token that says it lives longer than this is refused, whatever it says (the CMS signs for 30 minutes). */
const MAX_LIFE_MS = 60 * 60_000
/** Longer than any token the CMS makes: read no further. */
const MAX_TOKEN_CHARS = 1_000

const Payload = z
	.object({
		site: z.string(),
		course: z.string(),
		// Who the CMS made it for: their id in its admin (each link names one author), and their name,
		// said on the preview's banner.
		sub: z.string().min(1).max(64),
		author: z.string().min(1).max(200),
		/** Unix time in seconds. */
		exp: z.number().int(),
	})
	.strict()

type PreviewLink = { author: string; expiresAt: Date; signature: string }

const signature = (secret: string, payload: string) =>
	createHmac('sha256', secret).update(`${LABEL}.${payload}`).digest('base64url')

/**
 * The link a token stands for on this site's course, `expired` when its signature holds but its
 * time has passed, or null: malformed, signed with another key, altered, or made for another course
 * or site (each read as no link at all, so a draft stays a 404 for it).
 */
function readPreviewLink(
	secret: string,
	token: string,
	at: { site: string; course: string },
	now = Date.now(),
): PreviewLink | 'expired' | null {
	if (token.length > MAX_TOKEN_CHARS) return null
	const [payload, sig, ...rest] = token.split('.')
	if (!payload || !sig || rest.length) return null
	// Compared as written: one signature has one spelling (base64url's spare bits and stray characters are not let through).
	const given = Buffer.from(sig)
	const expected = Buffer.from(signature(secret, payload))
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
	let claims: z.infer<typeof Payload>
	try {
		const parsed = Payload.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
		if (!parsed.success) return null
		claims = parsed.data
	} catch {
		return null
	}
	if (claims.site !== at.site || claims.course !== at.course) return null
	const expiresAt = claims.exp * 1000
	if (expiresAt - now > MAX_LIFE_MS) return null
	if (expiresAt <= now) return 'expired'
	return { author: claims.author, expiresAt: new Date(expiresAt), signature: sig }
}
