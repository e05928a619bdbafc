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

/** Markdown to HTML for a page body. */
export function renderMarkdown(source: string) {
	return marked.parse(source, { async: false })
}
