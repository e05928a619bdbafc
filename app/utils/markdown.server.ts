import { Marked } from 'marked'
import { escapeHtml } from './html.ts'

// Content is Markdown from the content service. Raw HTML inside it is shown as
// text, never interpreted, and links may only use safe schemes. Headings move
// one level down: the page's own title is its only h1.
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
			const safe = /^(https?:|\/)/i.test(href) ? href : ''
			return `<img src="${escapeHtml(safe)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''} loading="lazy">`
		},
	},
})

// Bodies come from the content cache and repeat on every view; parsing them is the costliest step of an entry page.
const rendered = new Map<string, string>()
const MAX_RENDERED = 500

/** Markdown to HTML for a page body, remembered for the most recent bodies. */
export function renderMarkdown(source: string) {
	const hit = rendered.get(source)
	if (hit !== undefined) return hit
	const html = marked.parse(source, { async: false })
	if (rendered.size >= MAX_RENDERED) rendered.delete(rendered.keys().next().value!)
	rendered.set(source, html)
	return html
}
