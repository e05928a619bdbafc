import { getRequestContext } from '#app/context.ts'
import { imageResponse, socialCard } from '#app/content/site-images.server.ts'
import type { Route } from './+types/opengraph-image.ts'

/** The social card (1200x630 here, 1200x600 at /twitter-image, which shares this module). */
export async function loader({ request, context }: Route.LoaderArgs) {
	const twitter = new URL(request.url).pathname === '/twitter-image'
	const card = await socialCard(getRequestContext(context), 1200, twitter ? 600 : 630)
	if (!card) throw new Error('the social card could not be generated')
	return imageResponse(card, 'image/png')
}
