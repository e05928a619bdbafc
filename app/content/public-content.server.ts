import type { RequestContext } from '#app/context.ts'
import { readContent } from './cms.server.ts'
import { stripLeadingTitle } from './markdown.server.ts'
import type { BlogPost, Course, Page } from './content.ts'
import { notFound } from '#app/platform/errors.ts'

// Public content: only what is published. Unlisted pages are reachable by
// their URL but never listed (menu, sitemap, llms.txt).

export async function requirePage(ctx: RequestContext, slug: string): Promise<Page> {
	const page = await readContent(`page ${slug}`, () => ctx.cms.page(ctx.site, slug, ctx.locale))
	if (!page || page.status !== 'published') throw notFound()
	return page
}

export const isLivePost = (p: { status: string; publishedAt: string | null }) =>
	p.status === 'published' && p.publishedAt !== null

export async function listPosts(ctx: RequestContext) {
	const posts = await readContent('blog', () => ctx.cms.blogPosts(ctx.site, ctx.locale))
	return posts.filter(isLivePost).sort((a, b) => b.publishedAt!.localeCompare(a.publishedAt!))
}

export async function requirePost(ctx: RequestContext, slug: string): Promise<BlogPost> {
	const post = await readContent(`blog ${slug}`, () => ctx.cms.blogPost(ctx.site, slug, ctx.locale))
	if (!post || !isLivePost(post)) throw notFound()
	return post
}

export function pageMarkdown(page: Page) {
	return `# ${page.title}\n\n${stripLeadingTitle(page.body, page.title)}\n`
}

export function postMarkdown(post: BlogPost) {
	const byline = [post.author, post.publishedAt?.slice(0, 10)].filter(Boolean).join(', ')
	return `# ${post.title}\n\n${byline ? `_${byline}_\n\n` : ''}${stripLeadingTitle(post.body, post.title)}\n`
}

/** The public landing as Markdown: summary, description and outline. Entry bodies are gated and never included. */
export function courseMarkdown(course: Course, origin: string) {
	const price = course.price ? `${(course.price.amount / 100).toFixed(2)} ${course.price.currency}` : 'Free'
	const outline = course.modules
		.map((m) => `## ${m.title}\n\n${m.entries.map((e) => `- ${e.title} (${e.type})`).join('\n')}`)
		.join('\n\n')
	return `# ${course.title}\n\n${course.summary}\n\n${course.description}\n\n- Price: ${price}\n${course.estimatedMinutes ? `- Estimated time: ${course.estimatedMinutes} minutes\n` : ''}- Enroll: ${origin}/learn/course/${course.slug}\n\n${outline}\n`
}
