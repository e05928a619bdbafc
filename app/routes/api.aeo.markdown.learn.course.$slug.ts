import { getRequestContext } from '#app/context.ts'
import { markdownResponse } from '#app/platform/headers.ts'
import { requireCourse } from '#app/learning/learning.server.ts'
import { courseMarkdown } from '#app/content/public-content.server.ts'
import type { Route } from './+types/api.aeo.markdown.learn.course.$slug.ts'

/** A published course's public landing as Markdown (also at /learn/course/<slug>.md); no entry content. */
export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	return markdownResponse(() => requireCourse(ctx, params.slug).then((course) => courseMarkdown(course, ctx.origin)))
}
