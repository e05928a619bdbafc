import { getRequestContext } from '#app/context.ts'
import { fallbackFile, imageResponse, pngToIco, squareIcon } from '#app/content/site-images.server.ts'
import type { Route } from './+types/api.favicon.ts'

/** The tenant's favicon (also at /favicon.ico): site.favicon as a 32x32 icon, else the static fallback. Never an error. */
export async function loader({ context }: Route.LoaderArgs) {
	const png = await squareIcon(getRequestContext(context), 'favicon', 32)
	return imageResponse(png ? pngToIco(png, 32) : await fallbackFile('favicon.ico'), 'image/x-icon')
}
