import { getRequestContext } from '#app/context.ts'
import { isDownload, proxyAsset } from '#app/content/assets.server.ts'
import type { Route } from './+types/api.cms.site.assets.$assetId.ts'

/** An asset of this host's site, streamed (under /download as an attachment). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	return proxyAsset(getRequestContext(context), request, params.assetId, { download: isDownload(request) })
}
