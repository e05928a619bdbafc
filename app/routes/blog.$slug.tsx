import { getRequestContext } from '#app/context.ts'
import { formatDate } from '#app/utils/format.ts'
import { renderMarkdown } from '#app/utils/markdown.server.ts'
import { requirePost, stripLeadingTitle } from '#app/utils/public-content.server.ts'
import { socialMeta } from '#app/utils/social.ts'
import type { Route } from './+types/blog.$slug.ts'

export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const post = await requirePost(ctx, params.slug)
	return {
		title: post.title,
		byline: [post.author, formatDate(post.publishedAt!, ctx.locale)].filter(Boolean).join(' · '),
		hero: post.hero,
		html: renderMarkdown(stripLeadingTitle(post.body, post.title)),
	}
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const root = matches[0]?.loaderData && 'origin' in matches[0].loaderData ? matches[0].loaderData : null
	// A post's hero image is its social card.
	return [{ title: loaderData?.title ?? 'Blog' }, ...socialMeta(root?.origin, loaderData?.hero)]
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
	return (
		<article>
			<h1>{loaderData.title}</h1>
			<p className="meta">{loaderData.byline}</p>
			{loaderData.hero ? <img className="hero" src={loaderData.hero} alt="" /> : null}
			<div className="prose" dangerouslySetInnerHTML={{ __html: loaderData.html }} />
		</article>
	)
}
