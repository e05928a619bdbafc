import { getRequestContext } from '#app/context.ts'
import { SITEMAP_LIMIT, sitemapIndexXml, sitemapUrls, urlsetXml } from '#app/content/discovery.server.ts'
import type { Route } from './+types/sitemap.xml.ts'

// No Cache-Control (spec): the content behind it is revalidated every 60 seconds by the content cache.
const XML = { 'content-type': 'application/xml; charset=utf-8' }

/** Published content only; above 50,000 URLs an index of chunks at /sitemap/<id>. */
export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const urls = await sitemapUrls(ctx)
	if (urls.length <= SITEMAP_LIMIT) return new Response(urlsetXml(urls), { headers: XML })
	return new Response(sitemapIndexXml(ctx, Math.ceil(urls.length / SITEMAP_LIMIT)), { headers: XML })
}
