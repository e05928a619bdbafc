import { getRequestContext } from '#app/context.ts'
import { fallbackFile, imageResponse, squareIcon } from '#app/content/site-images.server.ts'
import type { Route } from './+types/apple-icon.png.ts'

/** site.icon at 180x180, else the static fallback. */
export async function loader({ context }: Route.LoaderArgs) {
	const png = await squareIcon(getRequestContext(context), 'icon', 180)
	return imageResponse(png ?? (await fallbackFile('apple-icon.png')), 'image/png')
}
