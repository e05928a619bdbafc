import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { listPosts } from '#app/content/public-content.server.ts'
import { describePage } from '#app/content/seo.ts'
import type { IndexableHandle } from '#app/root.tsx'
import type { Route } from './+types/blog.ts'

export const handle = { indexable: true } satisfies IndexableHandle

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const posts = await listPosts(ctx)
	return {
		posts: posts.map(({ slug, title, excerpt, publishedAt, author, locale, excerptLocale }) => ({
			slug,
			title,
			excerpt,
			publishedAt: publishedAt!,
			author,
			locale,
			excerptLocale: excerptLocale ?? locale,
		})),
	}
}

export const meta: Route.MetaFunction = ({ matches }) => {
	const title = metaI18n(matches).m.content.blog.title
	return describePage(matches, { title, trail: [{ name: title, path: '/blog' }] })
}

export default function Blog({ loaderData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.content.blog
	return (
		<>
			<h1>{text.title}</h1>
			{loaderData.posts.length === 0 ? (
				<p className="empty">{text.empty}</p>
			) : (
				<ul className="cards" aria-label={text.posts}>
					{loaderData.posts.map((post) => (
						<li key={post.slug} className="card" lang={post.locale}>
							<h2>
								<a href={t.href(`/blog/${post.slug}`)}>{post.title}</a>
							</h2>
							<p lang={post.excerptLocale}>{post.excerpt}</p>
							<p className="meta" lang={t.locale}>
								{[post.author, t.date(post.publishedAt)].filter(Boolean).join(' · ')}
							</p>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
