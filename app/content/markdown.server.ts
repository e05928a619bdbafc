import { randomUUID } from 'node:crypto'
import { Marked, Renderer, type Token } from 'marked'
import { LRUCache } from 'lru-cache'
import type { RequestContext } from '#app/context.ts'
import { escapeHtml } from '../platform/html.ts'
import { imageAttributes, imageAttributesHtml, imageSizes, PROSE_SIZES, type ImageSize } from './images.server.ts'

interface MarkdownImage {
	src: string
	alt: string
	title: string | null
}

// Where an image goes in the cached HTML: its attributes depend on sizes looked up per render.
// Random per process, so no content can contain it.
const SLOT = `\u{E000}${randomUUID()}\u{E000}`
const SLOTS = new RegExp(`${SLOT}(\\d+)${SLOT}`)
let collected: MarkdownImage[] = []

// Content is Markdown from the content service. Raw HTML inside it is shown as
// text, never interpreted, and links may only use safe schemes. Headings move
// one level down: the page's own title is its only h1. Tables scroll inside
// their own box on a narrow screen instead of widening the page.
const marked = new Marked({
	gfm: true,
	renderer: {
		html: ({ text }) => escapeHtml(text),
		heading({ tokens, depth }) {
			const level = Math.min(depth + 1, 6)
			return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`
		},
		link({ href, title, tokens }) {
			const safe = /^(https?:|mailto:|\/|#)/i.test(href) ? href : '#'
			return `<a href="${escapeHtml(safe)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${this.parser.parseInline(tokens)}</a>`
		},
		image({ href, title, text }) {
			collected.push({ src: /^(https?:|\/)/i.test(href) ? href : '', alt: text, title })
			return `${SLOT}${collected.length - 1}${SLOT}`
		},
		table(token) {
			return `<div class="table-scroll">${Renderer.prototype.table.call(this, token)}</div>\n`
		},
	},
})

interface Parsed {
	/** HTML split at the images: text, image index, text, … */
	parts: string[]
	images: MarkdownImage[]
}

// Bodies come from the content cache and repeat on every view; parsing them is the costliest step of an entry page.
const parsed = new LRUCache<string, Parsed>({ max: 500 })

function parse(source: string): Parsed {
	const hit = parsed.get(source)
	if (hit) return hit
	collected = []
	const html = marked.parse(source, { async: false })
	const result = { parts: html.split(SLOTS), images: collected }
	collected = []
	parsed.set(source, result)
	return result
}

function imageHtml(image: MarkdownImage, size: ImageSize | undefined) {
	const title = image.title ? ` title="${escapeHtml(image.title)}"` : ''
	return `<img ${imageAttributesHtml(imageAttributes(image.src, size, PROSE_SIZES))} alt="${escapeHtml(image.alt)}"${title} loading="lazy" decoding="async">`
}

/** The image URLs of a Markdown body, in order. */
export function markdownImageUrls(source: string) {
	return parse(source).images.map((image) => image.src)
}

/** Markdown to HTML; an image whose URL has a size in `sizes` gets width, height, srcset and sizes. */
export function markdownToHtml(source: string, sizes: ReadonlyMap<string, ImageSize> = new Map()) {
	const { parts, images } = parse(source)
	let html = parts[0]
	for (let i = 1; i < parts.length; i += 2)
		html += imageHtml(images[Number(parts[i])], sizes.get(images[Number(parts[i])].src)) + parts[i + 1]
	return html
}

/**
 * Markdown of a page to HTML, its own images sized: those served by the asset
 * proxy of the document's scope (the course's for a course or entry, else
 * the site's). Parsing is cached; only the sizes are looked up per render.
 */
export async function renderMarkdown(ctx: RequestContext, source: string, scope: { courseSlug?: string } = {}) {
	return markdownToHtml(source, await imageSizes(ctx, markdownImageUrls(source), scope.courseSlug))
}

/** The words a token shows, without Markdown or HTML: links by their text, images by their alt. */
function plainText(tokens: readonly Token[]): string {
	return tokens
		.map((token) => {
			if ('tokens' in token && token.tokens) return plainText(token.tokens)
			if (token.type === 'image') return token.text
			if (token.type === 'br') return ' '
			if (token.type === 'html') return ''
			return 'text' in token ? token.text : ''
		})
		.join('')
}

/**
 * A page's description for search results and link previews: its first paragraph as plain text,
 * cut at a word near `max` characters.
 */
export function markdownSummary(source: string, max = 160) {
	const paragraph = marked.lexer(source).find((token) => token.type === 'paragraph')
	const text =
		paragraph && 'tokens' in paragraph
			? plainText(paragraph.tokens ?? [])
					.replace(/\s+/g, ' ')
					.trim()
			: ''
	if (text.length <= max) return text
	const cut = text.slice(0, max - 1)
	return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length).trimEnd()}…`
}

/** Bodies often repeat the title as their first heading; a page, post or entry shows the title as its own heading. */
export function stripLeadingTitle(body: string, title: string) {
	const first = /^#\s+(.+)\n+/.exec(body)
	return first && first[1].trim() === title.trim() ? body.slice(first[0].length) : body
}
