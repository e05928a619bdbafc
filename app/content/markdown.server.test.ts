import { describe, expect, it } from 'vitest'
import { markdownImageUrls, markdownToHtml } from './markdown.server.ts'
import { requestedWidth, srcsetOf } from './images.server.ts'

const OWN = '/api/cms/site/assets/welcome-hero'
const SIZES = new Map([[OWN, { width: 1200, height: 630 }]])

/** The attributes of each <img> in the HTML, in order. */
function images(html: string) {
	return [...html.matchAll(/<img ([^>]*)>/g)].map((m) =>
		Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
	)
}

describe('Markdown images', () => {
	it('gives an own asset with a known size its dimensions, srcset up to its width, sizes of the prose column and lazy loading', () => {
		const [img] = images(markdownToHtml(`Text\n\n![A diagram](${OWN})`, SIZES))
		expect(img).toEqual({
			src: OWN,
			srcset: `${OWN}?w=320 320w, ${OWN}?w=480 480w, ${OWN}?w=640 640w, ${OWN}?w=960 960w, ${OWN} 1200w`,
			sizes: '(min-width: 44rem) 42rem, calc(100vw - 2rem)',
			width: '1200',
			height: '630',
			alt: 'A diagram',
			loading: 'lazy',
			decoding: 'async',
		})
	})

	it('keeps only the src of an image without a known size: external, another scope, not resizable', () => {
		const html = markdownToHtml(
			'![x](https://images.example/a.png) ![y](/api/cms/courses/other/assets/a) ![z](javascript:alert(1))',
			SIZES,
		)
		expect(images(html)).toEqual([
			{ src: 'https://images.example/a.png', alt: 'x', loading: 'lazy', decoding: 'async' },
			{ src: '/api/cms/courses/other/assets/a', alt: 'y', loading: 'lazy', decoding: 'async' },
			{ src: '', alt: 'z', loading: 'lazy', decoding: 'async' },
		])
		expect(html).not.toContain('srcset')
	})

	it('lists the image URLs of a body in order, and the same body renders with and without sizes from one parse', () => {
		const body = `![a](${OWN}) and ![b](https://x.example/b.jpg)\n\n| h |\n|---|\n| ![c](${OWN}) |`
		expect(markdownImageUrls(body)).toEqual([OWN, 'https://x.example/b.jpg', OWN])
		expect(images(markdownToHtml(body)).map((i) => i.width)).toEqual([undefined, undefined, undefined])
		expect(images(markdownToHtml(body, SIZES)).map((i) => i.width)).toEqual(['1200', undefined, '1200'])
	})

	it('escapes alt and title, and never lets raw HTML through', () => {
		const html = markdownToHtml(`![a "quote" <b>](${OWN} "t<i>") <img src=x onerror=alert(1)>`, SIZES)
		expect(html).toContain('alt="a &#34;quote&#34; &#60;b&#62;"')
		expect(html).toContain('title="t&#60;i&#62;"')
		expect(html).not.toContain('<img src=x')
	})

	it('wraps tables in a box that scrolls on its own', () => {
		expect(markdownToHtml('| a | b |\n|---|---|\n| 1 | 2 |')).toMatch(/^<div class="table-scroll"><table>/)
	})
})

describe('image widths', () => {
	it('accepts exactly one of the fixed widths', () => {
		expect(requestedWidth(new URLSearchParams(''))).toBeNull()
		expect(requestedWidth(new URLSearchParams('w=640'))).toBe(640)
		for (const bad of ['w=', 'w=641', 'w=0640', 'w=640.0', 'w=+640', 'w=640&w=640', 'w=abc', 'w=100000'])
			expect(requestedWidth(new URLSearchParams(bad)), bad).toBe('invalid')
	})

	it('offers the original at its own width, and no width at or above it', () => {
		expect(srcsetOf('/a', 640)).toBe('/a?w=320 320w, /a?w=480 480w, /a 640w')
		expect(srcsetOf('/a', 200)).toBe('/a 200w')
		expect(srcsetOf('/a', 4000).split(', ')).toHaveLength(7)
	})
})
