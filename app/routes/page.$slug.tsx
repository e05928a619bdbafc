import { ContentLanguage } from '#app/content/content-language.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n } from '#app/i18n/index.ts'
import { markdownSummary, renderMarkdown, stripLeadingTitle } from '#app/content/markdown.server.ts'
import { requirePage } from '#app/content/public-content.server.ts'
import { describePage } from '#app/content/seo.ts'
import type { IndexableHandle } from '#app/root.tsx'
import type { Route } from './+types/page.$slug.ts'

export const handle = { indexable: true } satisfies IndexableHandle

/** A top-level content page of this host's site. */
export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const page = await requirePage(ctx, params.slug)
	const body = stripLeadingTitle(page.body, page.title)
	return {
		slug: page.slug,
		title: page.title,
		description: markdownSummary(body),
		locale: page.locale,
		bodyLocale: page.bodyLocale ?? page.locale,
		html: await renderMarkdown(ctx, body),
	}
}

export const meta: Route.MetaFunction = ({ loaderData: page, matches }) => {
	if (!page) return [{ title: metaI18n(matches).m.content.page.title }]
	return describePage(matches, {
		title: page.title,
		description: page.description,
		trail: [{ name: page.title, path: `/${page.slug}` }],
	})
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<ContentLanguage served={loaderData.locale} />
			<article lang={loaderData.locale}>
				<h1>{loaderData.title}</h1>
				<div className="prose" lang={loaderData.bodyLocale} dangerouslySetInnerHTML={{ __html: loaderData.html }} />
			</article>
		</>
	)
}
