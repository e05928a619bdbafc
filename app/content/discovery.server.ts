import type { RequestContext } from '#app/context.ts'
import { canonicalOrigin } from '#app/platform/tenant.server.ts'
import { LOCALES, DEFAULT_LOCALE } from '#db/schema/values.ts'
import { readContent } from './cms.server.ts'
import { isPublished, type Site } from './content.ts'
import { courseMarkdown, isLivePost, pageMarkdown, postMarkdown } from './public-content.server.ts'
import { siteDocument } from './site.server.ts'

/** Disallowed on every host (spec, well-known rule 3). */
const DISALLOWED = [
	'/admin',
	'/learn/dashboard',
	'/learn/account',
	'/learn/course/*/enroll',
	'/learn/course/*/entry/*',
	'/learn/verify',
	'/learn/reset',
	'/invite',
	'/api',
	'/ingest',
	'/_next',
]
// Platform paths are never locale-prefixed; everything else in the list is a learner or admin route.
const UNPREFIXED = new Set(['/api', '/ingest', '/_next'])

/**
 * The origin this host's pages name as canonical (its tenant's custom domain when it has one): a
 * sitemap lists canonical URLs, whichever of the tenant's hosts serves it.
 */
const canonicalOriginOf = (ctx: RequestContext) => canonicalOrigin(ctx.origin, ctx.tenant, ctx.env.APP_BASE_DOMAIN)

/** The spec's rules; its Sitemap line names the request host (spec, well-known rule 3). */
export function robotsTxt(host: string) {
	const prefixed = LOCALES.filter((l) => l !== DEFAULT_LOCALE).flatMap((locale) =>
		DISALLOWED.filter((p) => !UNPREFIXED.has(p)).map((p) => `/${locale}${p}`),
	)
	return [
		'User-agent: *',
		...[...DISALLOWED, ...prefixed].map((p) => `Disallow: ${p}`),
		'Allow: /',
		'',
		`Sitemap: https://${host}/sitemap.xml`,
		'',
	].join('\n')
}

export interface SitemapUrl {
	loc: string
	lastmod?: string
}

/** Published, public, crawlable URLs of this host's site in the default locale, on its canonical origin. */
export async function sitemapUrls(ctx: RequestContext): Promise<SitemapUrl[]> {
	const origin = canonicalOriginOf(ctx)
	const at = (path: string) => `${origin}${path}`
	const { courses, pages, posts } = await publicIndex(ctx)
	return [
		{ loc: at('/') },
		...(ctx.tenant ? [{ loc: at('/learn') }] : []),
		...courses.map((c) => ({ loc: at(`/learn/course/${c.slug}`), lastmod: c.updatedAt })),
		...pages.map((p) => ({ loc: at(`/${p.slug}`), lastmod: p.updatedAt })),
		...(posts.length ? [{ loc: at('/blog') }] : []),
		...posts.map((p) => ({ loc: at(`/blog/${p.slug}`), lastmod: p.updatedAt })),
	]
}

export const SITEMAP_LIMIT = 50_000

const xmlEscape = (s: string) =>
	s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)

export function urlsetXml(urls: SitemapUrl[]) {
	const body = urls
		.map(
			(u) =>
				`<url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${xmlEscape(u.lastmod)}</lastmod>` : ''}</url>`,
		)
		.join('\n')
	return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`
}

export function sitemapIndexXml(ctx: RequestContext, chunks: number) {
	const origin = canonicalOriginOf(ctx)
	const body = Array.from(
		{ length: chunks },
		(_, i) => `<sitemap><loc>${xmlEscape(`${origin}/sitemap/${i}`)}</loc></sitemap>`,
	).join('\n')
	return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`
}

/** RFC 9116. Expires is a year ahead at most: the end of the day 364 days from now. */
export function securityTxt(ctx: RequestContext, site: Site | null, now = new Date()) {
	const host = ctx.host.replace(/:\d+$/, '')
	const given = site?.security_contact?.trim()
	const contact = !given
		? `mailto:security@${host}`
		: /^(mailto:|https:\/\/)/i.test(given)
			? given
			: given.includes('@')
				? `mailto:${given}`
				: `https://${given}`
	const expires = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 364, 23, 59, 59))
	return [
		`Contact: ${contact}`,
		`Expires: ${expires.toISOString().replace('.000Z', 'Z')}`,
		`Preferred-Languages: ${LOCALES.join(', ')}`,
		`Canonical: ${ctx.origin}/.well-known/security.txt`,
		'',
	].join('\n')
}

/** The llmstxt.org index: H1, summary, link sections of published public pages. */
export async function llmsTxt(ctx: RequestContext) {
	const [site, urls] = await Promise.all([siteDocument(ctx, DEFAULT_LOCALE), publicIndex(ctx)])
	const section = (title: string, items: string[]) => (items.length ? [`## ${title}`, '', ...items, ''] : [])
	return [
		`# ${site?.name ?? ctx.host}`,
		'',
		`> ${(site?.description || `Learning site at ${ctx.host}`).replace(/\s+/g, ' ')}`,
		'',
		...section(
			'Courses',
			urls.courses.map((c) => `- [${c.title}](${ctx.origin}/learn/course/${c.slug}.md): ${c.summary}`),
		),
		...section(
			'Pages',
			urls.pages.map((p) => `- [${p.title}](${ctx.origin}/${p.slug}.md)`),
		),
		...section(
			'Blog',
			urls.posts.map((p) => `- [${p.title}](${ctx.origin}/blog/${p.slug}.md): ${p.excerpt}`),
		),
	].join('\n')
}

const LLMS_FULL_LIMIT_BYTES = 512 * 1024

/** Markdown of every public page, post and course landing (never entry bodies), cut at 512 KiB. */
export async function llmsFullTxt(ctx: RequestContext) {
	const index = await publicIndex(ctx)
	const read = <T>(what: string, fn: () => Promise<T | null>) => readContent(what, fn).catch(() => null)
	const parts: string[] = [`# ${(await siteDocument(ctx, DEFAULT_LOCALE))?.name ?? ctx.host}\n`]
	let size = Buffer.byteLength(parts[0])
	const add = (text: string) => {
		const bytes = Buffer.byteLength(text)
		if (size + bytes > LLMS_FULL_LIMIT_BYTES) return false
		parts.push(text)
		size += bytes
		return true
	}
	for (const c of index.courses) {
		const course = await read(`course ${c.slug}`, () => ctx.cms.course(ctx.site, c.slug, DEFAULT_LOCALE))
		if (course && !add(courseMarkdown(course, ctx.origin))) break
	}
	for (const p of index.pages) {
		const page = await read(`page ${p.slug}`, () => ctx.cms.page(ctx.site, p.slug, DEFAULT_LOCALE))
		if (page && !add(pageMarkdown(page))) break
	}
	for (const p of index.posts) {
		const post = await read(`blog ${p.slug}`, () => ctx.cms.blogPost(ctx.site, p.slug, DEFAULT_LOCALE))
		if (post && !add(postMarkdown(post))) break
	}
	return parts.join('\n---\n\n')
}

/** Published, listed public content of this host in the default locale. */
async function publicIndex(ctx: RequestContext) {
	const locale = DEFAULT_LOCALE
	const [pages, posts, courses] = await Promise.all([
		readContent('pages', () => ctx.cms.pages(ctx.site, locale)),
		readContent('blog', () => ctx.cms.blogPosts(ctx.site, locale)),
		ctx.tenant ? readContent('catalogue', () => ctx.cms.courses(ctx.site, locale)) : Promise.resolve([]),
	])
	return {
		courses: courses.filter((c) => isPublished(c) && c.listed),
		pages: pages.filter((p) => p.status === 'published' && p.listed),
		posts: posts.filter(isLivePost),
	}
}
