import { getRequestContext } from '#app/context.ts'
import { DEFAULT_BACKGROUND_COLOR, DEFAULT_THEME_COLOR, siteDocument } from '#app/content/site.server.ts'
import type { Route } from './+types/manifest.webmanifest.ts'

/** Installable by Chromium's rules: name, start_url, display and 192 and 512 icons. The name falls back to the host. */
export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const site = await siteDocument(ctx)
	const name = site?.name || ctx.host
	const manifest = {
		name,
		short_name: site?.short_name || name.slice(0, 12),
		description: site?.description || undefined,
		lang: ctx.locale,
		start_url: '/',
		scope: '/',
		display: 'standalone',
		theme_color: site?.theme_color ?? DEFAULT_THEME_COLOR,
		background_color: site?.background_color ?? DEFAULT_BACKGROUND_COLOR,
		icons: [
			{ src: '/icon.png?size=192', sizes: '192x192', type: 'image/png', purpose: 'any' },
			{ src: '/icon.png?size=512', sizes: '512x512', type: 'image/png', purpose: 'any' },
		],
	}
	return new Response(JSON.stringify(manifest), {
		headers: { 'content-type': 'application/manifest+json; charset=utf-8', 'cache-control': 'public, max-age=3600' },
	})
}
