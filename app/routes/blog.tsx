import { getRequestContext } from '#app/context.ts'
import { formatDate } from '#app/utils/format.ts'
import { listPosts } from '#app/utils/public-content.server.ts'
import type { Route } from './+types/blog.ts'

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const posts = await listPosts(ctx)
	return { locale: ctx.locale, posts: posts.map(({ slug, title, excerpt, publishedAt, author }) => ({ slug, title, excerpt, publishedAt: publishedAt!, author })) }
}

export const meta: Route.MetaFunction = () => [{ title: 'Blog' }]

export default function Blog({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<h1>Blog</h1>
			{loaderData.posts.length === 0 ? (
				<p className="empty">Nothing has been posted yet.</p>
			) : (
				<ul className="cards" aria-label="Posts">
					{loaderData.posts.map((post) => (
						<li key={post.slug} className="card">
							<h2>
								<a href={`/blog/${post.slug}`}>{post.title}</a>
							</h2>
							<p>{post.excerpt}</p>
							<p className="meta">{[post.author, formatDate(post.publishedAt, loaderData.locale)].filter(Boolean).join(' · ')}</p>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
