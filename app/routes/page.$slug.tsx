import { getRequestContext } from '#app/context.ts'
import { renderMarkdown } from '#app/utils/markdown.server.ts'
import { requirePage, stripLeadingTitle } from '#app/utils/public-content.server.ts'
import type { Route } from './+types/page.$slug.ts'

/** A top-level content page of this host's site. */
export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const page = await requirePage(ctx, params.slug)
	return { title: page.title, html: renderMarkdown(stripLeadingTitle(page.body, page.title)) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title ?? 'Page' }]

export default function ContentPage({ loaderData }: Route.ComponentProps) {
	return (
		<article>
			<h1>{loaderData.title}</h1>
			<div className="prose" dangerouslySetInnerHTML={{ __html: loaderData.html }} />
		</article>
	)
}
