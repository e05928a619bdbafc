import { getRequestContext } from '#app/context.ts'
import { markdownResponse } from '#app/platform/headers.ts'
import { pageMarkdown, requirePage } from '#app/content/public-content.server.ts'
import type { Route } from './+types/api.aeo.markdown.$slug.ts'

/** A published top-level page as Markdown (also at /<slug>.md). */
export async function loader({ context, params }: Route.LoaderArgs) {
	return markdownResponse(() => requirePage(getRequestContext(context), params.slug).then(pageMarkdown))
}
