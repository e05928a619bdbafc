import { Marked } from 'marked'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// Content is Markdown from the content service. Raw HTML inside it is shown as
// text, never interpreted, and links may only use safe schemes.
const marked = new Marked({
	gfm: true,
	renderer: {
		html: ({ text }) => escapeHtml(text),
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
