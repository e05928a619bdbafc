import { ContentLanguage } from '#app/components/content-language.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n } from '#app/i18n/index.ts'
import { renderMarkdown } from '#app/utils/markdown.server.ts'
import { requirePage, stripLeadingTitle } from '#app/utils/public-content.server.ts'
import type { Route } from './+types/page.$slug.ts'

/** A top-level content page of this host's site. */
export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const page = await requirePage(ctx, params.slug)
	return {
		title: page.title,
		locale: page.locale,
		html: await renderMarkdown(ctx, stripLeadingTitle(page.body, page.title)),
	}
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
	{ title: loaderData?.title ?? metaI18n(matches).m.content.page.title },
]

export default function ContentPage({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<ContentLanguage served={loaderData.locale} />
			<article lang={loaderData.locale}>
				<h1>{loaderData.title}</h1>
				<div className="prose" dangerouslySetInnerHTML={{ __html: loaderData.html }} />
			</article>
		</>
	)
}
