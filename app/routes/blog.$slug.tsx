import { ContentLanguage } from '#app/components/content-language.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { heroImage } from '#app/utils/images.server.ts'
import { renderMarkdown } from '#app/utils/markdown.server.ts'
import { requirePost, stripLeadingTitle } from '#app/utils/public-content.server.ts'
import { socialMeta } from '#app/utils/social.ts'
import type { Route } from './+types/blog.$slug.ts'

export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const post = await requirePost(ctx, params.slug)
	const [hero, html] = await Promise.all([
		post.hero ? heroImage(ctx, post.hero) : null,
		renderMarkdown(ctx, stripLeadingTitle(post.body, post.title)),
	])
	return {
		title: post.title,
		author: post.author,
		publishedAt: post.publishedAt!,
		locale: post.locale,
		hero,
		html,
	}
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const root = matches[0]?.loaderData && 'origin' in matches[0].loaderData ? matches[0].loaderData : null
	// A post's hero image is its social card.
	return [
		{ title: loaderData?.title ?? metaI18n(matches).m.content.blog.title },
		...socialMeta(root?.origin, loaderData?.hero?.src),
	]
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
	const t = useI18n()
	return (
		<>
			<ContentLanguage served={loaderData.locale} />
			<article lang={loaderData.locale}>
				<h1>{loaderData.title}</h1>
				<p className="meta" lang={t.locale}>
					{[loaderData.author, t.date(loaderData.publishedAt)].filter(Boolean).join(' · ')}
				</p>
				{/* The largest paint of the page: fetched first, never lazily. */}
				{loaderData.hero ? <img className="hero" {...loaderData.hero} alt="" fetchPriority="high" /> : null}
				<div className="prose" dangerouslySetInnerHTML={{ __html: loaderData.html }} />
			</article>
		</>
	)
}
