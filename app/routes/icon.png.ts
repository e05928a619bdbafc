import { getRequestContext } from '#app/context.ts'
import { fallbackFile, imageResponse, squareIcon } from '#app/content/site-images.server.ts'
import type { Route } from './+types/icon.png.ts'

/** site.icon at 512x512, or 192x192 with ?size=192; the static fallback of that size otherwise. */
export async function loader({ request, context }: Route.LoaderArgs) {
	const size = new URL(request.url).searchParams.get('size') === '192' ? 192 : 512
	const png = await squareIcon(getRequestContext(context), 'icon', size)
	return imageResponse(png ?? (await fallbackFile(size === 192 ? 'icon-192.png' : 'icon-512.png')), 'image/png')
}
