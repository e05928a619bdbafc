import { ContentLanguage } from '#app/content/content-language.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { heroImage } from '#app/content/images.server.ts'
import { renderMarkdown, stripLeadingTitle } from '#app/content/markdown.server.ts'
import { requirePost } from '#app/content/public-content.server.ts'
import { absolute, describePage, organization, rootData } from '#app/content/seo.ts'
import type { IndexableHandle } from '#app/root.tsx'
import type { Route } from './+types/blog.$slug.ts'

export const handle = { indexable: true } satisfies IndexableHandle

export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const post = await requirePost(ctx, params.slug)
	const [hero, html] = await Promise.all([
		post.hero ? heroImage(ctx, post.hero) : null,
		renderMarkdown(ctx, stripLeadingTitle(post.body, post.title)),
	])
	return {
		slug: post.slug,
		title: post.title,
		excerpt: post.excerpt,
		author: post.author,
		updatedAt: post.updatedAt,
		publishedAt: post.publishedAt!,
		locale: post.locale,
		bodyLocale: post.bodyLocale ?? post.locale,
		hero,
		html,
	}
}

export const meta: Route.MetaFunction = ({ loaderData: post, matches }) => {
	const blog = metaI18n(matches).m.content.blog.title
	if (!post) return [{ title: blog }]
	const origin = rootData(matches)?.canonicalOrigin ?? ''
	return describePage(matches, {
		title: post.title,
		description: post.excerpt,
		type: 'article',
		// A post's hero image is its social card.
		image: post.hero,
		trail: [
			{ name: blog, path: '/blog' },
			{ name: post.title, path: `/blog/${post.slug}` },
		],
		structuredData: [
			{
				'@type': 'BlogPosting',
				headline: post.title,
				description: post.excerpt,
				datePublished: post.publishedAt,
				dateModified: post.updatedAt,
				inLanguage: post.locale,
				image: post.hero ? absolute(origin, post.hero.src) : `${origin}/opengraph-image`,
				author: post.author ? { '@type': 'Person', name: post.author } : organization(matches),
				publisher: organization(matches),
			},
		],
	})
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
				<div className="prose" lang={loaderData.bodyLocale} dangerouslySetInnerHTML={{ __html: loaderData.html }} />
			</article>
		</>
	)
}
