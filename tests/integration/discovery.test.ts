import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const HOSTS = ['acme.localhost', 'globex.localhost', 'localhost']

/**
 * The local content, with Globex's site images made to fail three ways: an
 * unreachable URL (icon), an asset that is not an image (favicon) and an
 * invalid URL (og_image).
 */
function contentWithBrokenGlobexImages() {
	const dir = mkdtempSync(join(tmpdir(), 'lms-cms-'))
	cpSync(resolve('cms/content'), dir, { recursive: true })
	const site = JSON.parse(readFileSync(join(dir, 'globex/site.json'), 'utf8'))
	Object.assign(site, {
		icon: 'http://127.0.0.1:9/unreachable.png',
		favicon: { asset: 'broken' },
		og_image: '::not a url::',
	})
	writeFileSync(join(dir, 'globex/site.json'), JSON.stringify(site))
	writeFileSync(join(dir, 'globex/assets/broken.png'), 'this is not an image')
	const assets = JSON.parse(readFileSync(join(dir, 'globex/assets.json'), 'utf8'))
	assets.push({ id: 'broken', file: 'broken.png', contentType: 'image/png', filename: 'broken.png' })
	writeFileSync(join(dir, 'globex/assets.json'), JSON.stringify(assets))
	return dir
}

async function pngSize(body: Buffer) {
	// stats() decodes every pixel: a truncated or corrupt image fails here.
	await sharp(body).stats()
	const { width, height, format } = await sharp(body).metadata()
	return { width, height, format }
}

describe.each(DIALECTS)('well-known and discovery files on %s', (dialect) => {
	let stack: Stack
	let content: string
	beforeAll(async () => {
		content = contentWithBrokenGlobexImages()
		stack = await startStack(dialect, {}, { cmsContentDir: content })
	})
	afterAll(async () => {
		await stack?.close()
		rmSync(content, { recursive: true, force: true })
	})

	it('serves robots.txt with exactly the spec’s rules, locale variants and the host’s sitemap', async () => {
		for (const host of HOSTS) {
			const res = await stack.request(host, '/robots.txt')
			expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
			expect(res.headers['cache-control']).toBe('public, max-age=3600')
			const lines = res.text.split('\n')
			const base = [
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
			const prefixed = ['es', 'fr', 'de', 'pt', 'zh'].flatMap((l) =>
				base.filter((p) => !['/api', '/ingest', '/_next'].includes(p)).map((p) => `/${l}${p}`),
			)
			expect(lines.filter((l) => l.startsWith('Disallow: '))).toEqual(
				[...base, ...prefixed].map((p) => `Disallow: ${p}`),
			)
			expect(lines[0]).toBe('User-agent: *')
			expect(lines).toContain('Allow: /')
			expect(lines).toContain(`Sitemap: https://${host}:${stack.port}/sitemap.xml`)
		}
	})

	it('lists only published, public content in sitemap.xml', async () => {
		const res = await stack.request('acme.localhost', '/sitemap.xml')
		expect(res.headers['content-type']).toBe('application/xml; charset=utf-8')
		expect(res.headers['cache-control']).toBeUndefined()
		const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)
		expect(locs.sort()).toEqual(
			[
				'/',
				'/about',
				'/blog',
				'/blog/welcome',
				'/learn',
				'/learn/course/advanced-css',
				'/learn/course/intro-to-web',
			].sort(),
		)
		expect(res.text).toMatch(
			/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
		)
		expect(res.text).toContain('<lastmod>2026-10-02T09:00:00.000Z</lastmod>')
		// Canonical URLs (the custom domain every page names as canonical), from either of Acme's hosts.
		const hosts = (text: string) => new Set([...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).host))
		expect(hosts(res.text)).toEqual(new Set([`learn.acme.test:${stack.port}`]))
		expect(hosts((await stack.request('learn.acme.test', '/sitemap.xml')).text)).toEqual(
			new Set([`learn.acme.test:${stack.port}`]),
		)
		const apex = await stack.request('localhost', '/sitemap.xml')
		expect([...apex.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)).not.toContain('/learn')
		expect(hosts(apex.text)).toEqual(new Set([`localhost:${stack.port}`]))
	})

	it('makes icons of the exact sizes from the site image, with the immutable cache header', async () => {
		for (const host of ['acme.localhost', 'localhost']) {
			for (const [path, size] of [
				['/icon.png', 512],
				['/icon.png?size=192', 192],
				['/apple-icon.png', 180],
			] as const) {
				const res = await stack.request(host, path)
				expect(res.status, `${host}${path}`).toBe(200)
				expect(res.headers['content-type']).toBe('image/png')
				expect(res.headers['cache-control']).toBe(IMMUTABLE)
				expect(await pngSize(res.body)).toEqual({ width: size, height: size, format: 'png' })
			}
			const favicon = await stack.request(host, '/favicon.ico')
			expect(favicon.headers['content-type']).toBe('image/x-icon')
			expect(favicon.headers['cache-control']).toBe(IMMUTABLE)
			expect(favicon.body.readUInt16LE(2)).toBe(1)
			expect(await pngSize(favicon.body.subarray(22))).toEqual({ width: 32, height: 32, format: 'png' })
		}
	})

	it('falls back to the static files when the site image is unreachable, broken or invalid, never erring', async () => {
		const fallback = (name: string) => readFileSync(resolve('public', name))
		for (const [path, file] of [
			['/icon.png', 'icon-512.png'],
			['/icon.png?size=192', 'icon-192.png'],
			['/apple-icon.png', 'apple-icon.png'],
			['/favicon.ico', 'favicon.ico'],
		] as const) {
			const res = await stack.request('globex.localhost', path)
			expect(res.status, path).toBe(200)
			expect(res.headers['cache-control']).toBe(IMMUTABLE)
			expect(res.body.equals(fallback(file)), path).toBe(true)
		}
		for (const [name, size] of [
			['icon-192.png', 192],
			['icon-512.png', 512],
			['apple-icon.png', 180],
		] as const) {
			expect(await pngSize(fallback(name))).toEqual({ width: size, height: size, format: 'png' })
		}
		// With the content service down and nothing cached, the answer is still the fallback.
		stack.cms.faults.mode = 'error'
		try {
			const res = await stack.request('acme.localhost', '/icon.png?size=192')
			expect(res.status).toBe(200)
		} finally {
			stack.cms.faults.mode = 'ok'
		}
	})

	it('generates social cards of 1200x630 and 1200x600', async () => {
		for (const host of HOSTS) {
			for (const [path, height] of [
				['/opengraph-image', 630],
				['/twitter-image', 600],
			] as const) {
				const res = await stack.request(host, path)
				expect(res.status, `${host}${path}`).toBe(200)
				expect(res.headers['cache-control']).toBe(IMMUTABLE)
				expect(await pngSize(res.body)).toEqual({ width: 1200, height, format: 'png' })
			}
		}
		// The card is drawn on the theme colour: Globex is green.
		const card = await stack.request('globex.localhost', '/opengraph-image')
		const { data } = await sharp(card.body)
			.extract({ left: 2, top: 2, width: 1, height: 1 })
			.raw()
			.toBuffer({ resolveWithObject: true })
		expect([...data.subarray(0, 3)]).toEqual([0x15, 0x80, 0x3d])
	})

	// Which cards a page points at, and the rest of what crawlers read on a page: seo.test.ts.

	it('serves an installable manifest, security.txt, change-password and llms files', async () => {
		const manifest = await stack.request('acme.localhost', '/manifest.webmanifest')
		expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8')
		expect(manifest.headers['cache-control']).toBe('public, max-age=3600')
		expect(manifest.json()).toMatchObject({
			name: 'Acme Academy',
			short_name: 'Acme',
			start_url: '/',
			display: 'standalone',
			theme_color: '#1d4ed8',
			background_color: '#ffffff',
			icons: [
				{ src: '/icon.png?size=192', sizes: '192x192', type: 'image/png' },
				{ src: '/icon.png?size=512', sizes: '512x512', type: 'image/png' },
			],
		})

		const security = await stack.request('acme.localhost', '/.well-known/security.txt')
		expect(security.headers['content-type']).toBe('text/plain; charset=utf-8')
		expect(security.headers['cache-control']).toBe('public, max-age=86400')
		expect(security.text).toMatch(
			/^Contact: mailto:security@acme\.test\nExpires: \d{4}-\d\d-\d\dT23:59:59Z\nPreferred-Languages: en, es, fr, de, pt, zh\nCanonical: /,
		)
		const expires = new Date(/Expires: (\S+)/.exec(security.text)![1])
		expect(expires.getTime() - Date.now()).toBeLessThanOrEqual(365 * 24 * 3600_000)
		expect((await stack.request('globex.localhost', '/.well-known/security.txt')).text).toContain(
			'Contact: https://globex.test/security',
		)

		const change = await stack.request('acme.localhost', '/.well-known/change-password')
		expect(change.status).toBe(302)
		expect(change.headers.location).toBe('/learn/forgot')

		const llms = await stack.request('acme.localhost', '/llms.txt')
		expect(llms.text).toMatch(/^# Acme Academy\n\n> Practical web courses/)
		expect(llms.text).toContain(
			`- [Introduction to the Web](http://acme.localhost:${stack.port}/learn/course/intro-to-web.md)`,
		)
		expect(llms.text).not.toContain('internal-notes')
		const full = await stack.request('acme.localhost', '/llms-full.txt')
		expect(full.text).toContain('# About Acme Academy')
		expect(full.text).toContain('- What is HTTP? (lesson)')
		for (const lessonText of [
			'The key secret of this lesson',
			'Every page you open starts with',
			'Write a sign-up page',
			'acceptedAnswers',
			'Draft page that must never be listed',
		]) {
			expect(full.text, lessonText).not.toContain(lessonText)
		}
	})

	it('answers the branded 503 for a suspended tenant’s files, except security.txt', async () => {
		for (const path of [
			'/robots.txt',
			'/sitemap.xml',
			'/manifest.webmanifest',
			'/favicon.ico',
			'/icon.png',
			'/opengraph-image',
			'/llms.txt',
		]) {
			expect((await stack.request('initech.localhost', path)).status, path).toBe(503)
		}
		const security = await stack.request('initech.localhost', '/.well-known/security.txt')
		expect(security.status).toBe(200)
		expect(security.text).toContain('Contact: ')
	})
})

describe('a sitemap above 50,000 URLs', () => {
	let stack: Stack
	let content: string
	beforeAll(async () => {
		content = mkdtempSync(join(tmpdir(), 'lms-cms-big-'))
		cpSync(resolve('cms/content'), content, { recursive: true })
		rmSync(join(content, 'acme/pages'), { recursive: true })
		const pages = Array.from({ length: 50_100 }, (_, i) => ({
			slug: `page-${i}`,
			status: i % 1000 === 999 ? 'draft' : 'published',
			listed: true,
			parent: null,
			order: i,
			updatedAt: '2026-10-02T09:00:00.000Z',
			title: { en: `Page ${i}` },
			body: { en: `Body ${i}` },
		}))
		writeFileSync(join(content, 'acme/pages.json'), JSON.stringify(pages))
		stack = await startStack(DIALECTS[0], {}, { cmsContentDir: content })
	}, 60_000)
	afterAll(async () => {
		await stack?.close()
		rmSync(content, { recursive: true, force: true })
	})

	it('becomes an index whose chunks hold every published URL once, 50,000 at most each', async () => {
		const index = await stack.request('acme.localhost', '/sitemap.xml')
		expect(index.text).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
		const chunks = [...index.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)
		expect(chunks).toEqual(['/sitemap/0', '/sitemap/1'])
		const locs: string[] = []
		for (const chunk of chunks) {
			const res = await stack.request('acme.localhost', chunk)
			expect(res.status).toBe(200)
			const mine = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)
			expect(mine.length).toBeLessThanOrEqual(50_000)
			expect(Buffer.byteLength(res.text)).toBeLessThan(50 * 1024 * 1024)
			locs.push(...mine)
		}
		// 50,100 pages less 50 drafts, plus home, catalogue, two courses, the blog and its post.
		expect(locs).toHaveLength(50_050 + 6)
		expect(new Set(locs).size).toBe(locs.length)
		expect(locs).not.toContain('/page-999')
		expect((await stack.request('acme.localhost', '/sitemap/2')).status).toBe(404)
	}, 120_000)
})
