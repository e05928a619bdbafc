import type { MetaDescriptor } from 'react-router'
import { DEFAULT_LOCALE, isLocale, LOCALES, localePath, type Locale } from '#app/i18n/locales.ts'

/**
 * How a public page describes itself to search engines, link previews and
 * answer engines: title with the site name, description, canonical URL, Open
 * Graph and Twitter card, and schema.org JSON-LD (docs/decisions/0021-crawlers.md).
 * Runs in `meta`, so on the server and, after a client navigation, in the browser.
 */
export interface PageDescription {
	/** The page's own title; the home page has none and is titled by the site's name alone. */
	title?: string
	/** Plain text; the site's description when the page has none of its own. */
	description?: string | null
	/** `article` for a blog post; `website` otherwise. */
	type?: 'website' | 'article'
	/** The page's own social card (a blog post's hero); the site's generated cards otherwise. */
	image?: { src: string; width?: number; height?: number } | null
	/** The trail from the home page (named after the site, and left out here) to this page. */
	trail?: Array<{ name: string; path: string }>
	/** The page's own schema.org objects (Course, BlogPosting, ItemList, Organization); `url` defaults to the page's. */
	structuredData?: Array<Record<string, unknown>>
}

/** What the root loader tells every page's `meta` (app/root.tsx). */
interface RootData {
	locale: string
	path: string
	canonicalOrigin: string
	site: { name: string; description: string }
}

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>

export function rootData(matches: Matches): RootData | null {
	const data = matches.find((match) => match?.id === 'root')?.data as Partial<RootData> | undefined
	return data?.canonicalOrigin && data.site ? (data as RootData) : null
}

/** Open Graph wants language_TERRITORY; each locale's usual territory. */
const OG_LOCALES: Record<Locale, string> = {
	en: 'en_US',
	es: 'es_ES',
	fr: 'fr_FR',
	de: 'de_DE',
	pt: 'pt_BR',
	zh: 'zh_CN',
}

const GENERATED_CARDS = {
	og: { path: '/opengraph-image', width: 1200, height: 630 },
	twitter: { path: '/twitter-image', width: 1200, height: 600 },
}

/** An absolute URL on the canonical origin, for a path of this site or an image URL. */
export function absolute(origin: string, pathOrUrl: string) {
	return pathOrUrl.startsWith('/') ? origin + pathOrUrl : pathOrUrl
}

/** The meta, link and JSON-LD tags of a public page. */
export function describePage(matches: Matches, page: PageDescription): MetaDescriptor[] {
	const root = rootData(matches)
	if (!root) return page.title ? [{ title: page.title }] : []
	const locale = isLocale(root.locale) ? root.locale : DEFAULT_LOCALE
	const origin = root.canonicalOrigin
	const url = (path: string) => origin + localePath(locale, path)
	const siteName = root.site.name
	const title = page.title ? `${page.title} · ${siteName}` : siteName
	const description = page.description?.trim() || root.site.description || siteName
	const imageAlt = page.title ?? siteName
	const og = page.image
		? { url: absolute(origin, page.image.src), width: page.image.width, height: page.image.height }
		: { ...GENERATED_CARDS.og, url: origin + GENERATED_CARDS.og.path }
	const twitterImage = page.image ? og.url : origin + GENERATED_CARDS.twitter.path
	const trail = page.trail ?? []

	const tags: MetaDescriptor[] = [
		{ title },
		{ name: 'description', content: description },
		{ tagName: 'link', rel: 'canonical', href: url(root.path) },
		{ property: 'og:site_name', content: siteName },
		{ property: 'og:title', content: page.title ?? siteName },
		{ property: 'og:description', content: description },
		{ property: 'og:type', content: page.type ?? 'website' },
		{ property: 'og:url', content: url(root.path) },
		{ property: 'og:locale', content: OG_LOCALES[locale] },
		...LOCALES.filter((l) => l !== locale).map((l) => ({ property: 'og:locale:alternate', content: OG_LOCALES[l] })),
		{ property: 'og:image', content: og.url },
		...(og.width && og.height
			? [
					{ property: 'og:image:width', content: String(og.width) },
					{ property: 'og:image:height', content: String(og.height) },
				]
			: []),
		{ property: 'og:image:alt', content: imageAlt },
		{ name: 'twitter:card', content: 'summary_large_image' },
		{ name: 'twitter:title', content: page.title ?? siteName },
		{ name: 'twitter:description', content: description },
		{ name: 'twitter:image', content: twitterImage },
		{ name: 'twitter:image:alt', content: imageAlt },
	]
	// The home page starts every trail; a list of one is no trail (Google asks for two items or more).
	if (trail.length > 0) {
		const items = [{ name: siteName, path: '/' }, ...trail]
		tags.push({
			'script:ld+json': {
				'@context': 'https://schema.org',
				'@type': 'BreadcrumbList',
				itemListElement: items.map((item, i) => ({
					'@type': 'ListItem',
					position: i + 1,
					name: item.name,
					item: url(item.path),
				})),
			},
		})
	}
	// Each of the page's own objects is about this page: its URL unless it names another.
	for (const data of page.structuredData ?? [])
		tags.push({ 'script:ld+json': { '@context': 'https://schema.org', url: url(root.path), ...data } })
	return tags
}

/** The site as schema.org sees it: the provider of its courses, the publisher of its posts. */
export function organization(matches: Matches): Record<string, unknown> {
	const root = rootData(matches)
	if (!root) return { '@type': 'Organization' }
	return {
		'@type': 'Organization',
		name: root.site.name,
		url: `${root.canonicalOrigin}/`,
		// An ImageObject, as Google's BlogPosting publisher wants (a bare URL string is flagged).
		logo: { '@type': 'ImageObject', url: `${root.canonicalOrigin}/icon.png`, width: 512, height: 512 },
	}
}

/** ISO 8601 duration of a number of minutes (schema.org's courseWorkload, timeRequired). */
export function isoMinutes(minutes: number) {
	return `PT${Math.round(minutes)}M`
}
