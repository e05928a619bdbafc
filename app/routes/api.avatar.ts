import { createHash } from 'node:crypto'
import { getRequestContext } from '#app/context.ts'
import { jsonError } from '#app/platform/errors.ts'
import { escapeHtml } from '#app/platform/html.ts'
import { getSession } from '#app/accounts/session.server.ts'
import { loadSiteChrome } from '#app/content/site.server.ts'
import { findProviderPicture } from '#app/accounts/oauth.server.ts'
import type { Route } from './+types/api.avatar.ts'

// Per user and changed by a renamed account or a new provider picture: cache
// privately and briefly, and answer revalidations with 304.
const CACHE = 'private, max-age=300'

/** The signed-in user's picture: the linked provider's, else their initials in the tenant's theme colour. */
export async function loader({ request, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const session = getSession(context)
	if (!session) return jsonError(401, 'UNAUTHORIZED', 'Sign in to see your picture.')
	const { user } = session

	const picture = ctx.tenant ? await findProviderPicture(ctx.db, ctx.tenant.id, user.id) : null
	if (picture && /^https?:\/\//i.test(picture)) {
		return new Response(null, { status: 302, headers: { location: picture, 'cache-control': CACHE, vary: 'cookie' } })
	}

	const chrome = await loadSiteChrome(ctx)
	const svg = initialsSvg(initials(user.name || user.email), chrome.themeColor, chrome.onThemeColor)
	const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 16)}"`
	const headers = {
		'content-type': 'image/svg+xml',
		'cache-control': CACHE,
		etag,
		vary: 'cookie',
		'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
	}
	if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
	return new Response(svg, { headers })
}

/** Up to two initials: first and last word, in any script. */
export function initials(name: string) {
	const words = name
		.trim()
		.split(/[\s@._-]+/u)
		.filter(Boolean)
	const first = Array.from(words[0] ?? '?')[0] ?? '?'
	const last = words.length > 1 ? (Array.from(words[words.length - 1])[0] ?? '') : ''
	return (first + last).toLocaleUpperCase()
}

function initialsSvg(text: string, background: string, foreground: string) {
	const safe = escapeHtml(text)
	return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${safe}"><rect width="128" height="128" rx="64" fill="${background}"/><text x="64" y="64" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="52" font-weight="600" fill="${foreground}">${safe}</text></svg>`
}
