import { getRequestContext } from '#app/context.ts'
import { SITEMAP_LIMIT, sitemapUrls, urlsetXml } from '#app/content/discovery.server.ts'
import type { Route } from './+types/sitemap.$id.ts'

/** One chunk of a sitemap index. */
export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const id = /^\d{1,4}$/.test(params.id) ? Number(params.id) : -1
	const urls = await sitemapUrls(ctx)
	const chunk = urls.slice(id * SITEMAP_LIMIT, (id + 1) * SITEMAP_LIMIT)
	if (id < 0 || urls.length <= SITEMAP_LIMIT || chunk.length === 0) return new Response('Not found', { status: 404 })
	return new Response(urlsetXml(chunk), { headers: { 'content-type': 'application/xml; charset=utf-8' } })
}
