/**
 * Social-card meta tags: the site's generated cards, or a page's own image
 * (a blog post's hero) when it has one.
 */
export function socialMeta(origin: string | undefined, image?: string | null) {
	if (!origin) return []
	const own = image ? (image.startsWith('/') ? `${origin}${image}` : image) : null
	return [
		{ property: 'og:image', content: own ?? `${origin}/opengraph-image` },
		{ name: 'twitter:card', content: 'summary_large_image' },
		{ name: 'twitter:image', content: own ?? `${origin}/twitter-image` },
	]
}
