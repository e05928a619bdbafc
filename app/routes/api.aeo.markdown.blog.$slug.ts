import { getRequestContext } from '#app/context.ts'
import { markdownResponse } from '#app/platform/headers.ts'
import { postMarkdown, requirePost } from '#app/content/public-content.server.ts'
import type { Route } from './+types/api.aeo.markdown.blog.$slug.ts'

/** A published blog post as Markdown (also at /blog/<slug>.md). */
export async function loader({ context, params }: Route.LoaderArgs) {
	return markdownResponse(() => requirePost(getRequestContext(context), params.slug).then(postMarkdown))
}
