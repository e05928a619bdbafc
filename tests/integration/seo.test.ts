import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { load, type CheerioAPI } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localePath } from '#app/i18n/locales.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

// What crawlers read from the public pages (issue 23): each page parsed as a browser parses it
// (cheerio on parse5) and its JSON-LD with JSON.parse, in two locales.

const ACME = 'acme.localhost'
/** A title that tries to leave the JSON-LD script and the attributes it is written into. */
const HOSTILE = 'Paid </script><script>alert(1)</script> & "CSS" <!-- \u2028'
const HOSTILE_POST = `News ${HOSTILE}`

/** The local content, with hostile titles on the paid course and on the blog post. */
function contentWithHostileTitles() {
	const dir = mkdtempSync(join(tmpdir(), 'lms-cms-'))
	cpSync(resolve('cms/content'), dir, { recursive: true })
	for (const [file, title] of [
		['acme/courses/advanced-css.json', HOSTILE],
		['acme/blog/welcome.json', HOSTILE_POST],
	]) {
		const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'))
		doc.title = { ...doc.title, en: title, es: title }
		writeFileSync(join(dir, file), JSON.stringify(doc))
	}
	return dir
}

const OG_LOCALE = { en: 'en_US', es: 'es_ES' } as const

function jsonLd($: CheerioAPI) {
	return $('script[type="application/ld+json"]')
		.toArray()
		.map((el) => JSON.parse($(el).text()) as Record<string, unknown> & { '@type': string })
}
/** The page's one block of a schema.org type, typed as the test reads it. */
const block = <T>(blocks: ReturnType<typeof jsonLd>, type: string) => blocks.find((b) => b['@type'] === type) as T
const meta = ($: CheerioAPI, key: string) =>
	$(`meta[property="${key}"], meta[name="${key}"]`)
		.toArray()
		.map((el) => $(el).attr('content'))

describe.each(DIALECTS)('what crawlers read on %s', (dialect) => {
	let stack: Stack
	let content: string
	let canonical: string
	beforeAll(async () => {
		content = contentWithHostileTitles()
		stack = await startStack(dialect, {}, { cmsContentDir: content })
		// Acme's custom domain is where its pages are indexed, whichever host served them.
		canonical = `http://learn.acme.test:${stack.port}`
	})
	afterAll(async () => {
		await stack?.close()
		rmSync(content, { recursive: true, force: true })
	})

	async function page(path: string, host = ACME, headers: Record<string, string> = {}) {
		const res = await stack.request(host, path, { headers })
		expect(res.status, path).toBe(200)
		return load(res.text)
	}

	const PUBLIC = [
		{ path: '/', types: ['Organization'] },
		{ path: '/learn', types: ['BreadcrumbList', 'ItemList'] },
		{ path: '/learn/course/intro-to-web', types: ['BreadcrumbList', 'Course'] },
		{ path: '/learn/course/advanced-css', types: ['BreadcrumbList', 'Course'] },
		{ path: '/blog', types: ['BreadcrumbList'] },
		{ path: '/blog/welcome', types: ['BreadcrumbList', 'BlogPosting'] },
		{ path: '/about', types: ['BreadcrumbList'] },
		{ path: '/learn/sign-in', types: ['BreadcrumbList'] },
	]

	describe.each(['en', 'es'] as const)('in %s', (locale) => {
		it('every public page has its own title with the site name, a description, a canonical URL and its cards', async () => {
			const siteName = locale === 'en' ? 'Acme Academy' : 'Academia Acme'
			const titles = new Set<string>()
			for (const { path, types } of PUBLIC) {
				const $ = await page(localePath(locale, path))
				const url = canonical + localePath(locale, path)
				const title = $('head > title')
				expect(title, path).toHaveLength(1)
				expect(title.text(), path).toContain(siteName)
				titles.add(title.text())

				expect(meta($, 'description'), path).toHaveLength(1)
				expect(meta($, 'description')[0]?.length, path).toBeGreaterThan(20)
				expect($('meta[name="robots"]'), path).toHaveLength(0)
				expect(
					$('link[rel="canonical"]')
						.toArray()
						.map((el) => $(el).attr('href')),
					path,
				).toEqual([url])
				// hreflang alternates: every locale and x-default, on the canonical origin
				const alternates = $('link[rel="alternate"][hreflang]')
				expect(
					alternates.toArray().map((el) => $(el).attr('hreflang')),
					path,
				).toEqual(['en', 'es', 'fr', 'de', 'pt', 'zh', 'x-default'])
				expect($('link[hreflang="es"]').attr('href'), path).toBe(canonical + localePath('es', path))

				expect(meta($, 'og:url'), path).toEqual([url])
				expect(meta($, 'og:site_name'), path).toEqual([siteName])
				expect(meta($, 'og:title')[0], path).toBeTruthy()
				expect(meta($, 'og:description'), path).toEqual(meta($, 'description'))
				expect(meta($, 'og:type'), path).toEqual([path.startsWith('/blog/') ? 'article' : 'website'])
				expect(meta($, 'og:locale'), path).toEqual([OG_LOCALE[locale]])
				expect(meta($, 'og:locale:alternate'), path).toHaveLength(5)
				expect(meta($, 'og:image:alt')[0], path).toBeTruthy()
				expect(meta($, 'twitter:card'), path).toEqual(['summary_large_image'])
				expect(meta($, 'twitter:title'), path).toEqual(meta($, 'og:title'))
				expect(meta($, 'twitter:image:alt'), path).toEqual(meta($, 'og:image:alt'))
				if (path === '/blog/welcome') {
					// The post's hero image is its card, with the hero's own size.
					expect(meta($, 'og:image')[0]).toMatch(new RegExp(`^${canonical}/api/cms/site/assets/`))
					expect(meta($, 'twitter:image')).toEqual(meta($, 'og:image'))
				} else {
					expect(meta($, 'og:image'), path).toEqual([`${canonical}/opengraph-image`])
					expect(meta($, 'twitter:image'), path).toEqual([`${canonical}/twitter-image`])
				}
				expect(Number(meta($, 'og:image:width')[0]), path).toBeGreaterThan(0)
				expect(Number(meta($, 'og:image:height')[0]), path).toBeGreaterThan(0)

				const blocks = jsonLd($)
				expect(blocks.map((b) => b['@type']).sort(), path).toEqual([...types].sort())
				for (const block of blocks) expect(block['@context'], path).toBe('https://schema.org')
				const trail = blocks.find((b) => b['@type'] === 'BreadcrumbList') as
					{ itemListElement: Array<{ position: number; name: string; item: string }> } | undefined
				if (trail) {
					expect(trail.itemListElement[0], path).toMatchObject({ position: 1, name: siteName })
					expect(trail.itemListElement.at(-1)?.item, path).toBe(url)
				}
			}
			expect(titles.size).toBe(PUBLIC.length)
		})

		it('describes courses, the catalogue, posts and the organisation in schema.org terms', async () => {
			const course = jsonLd(await page(localePath(locale, '/learn/course/intro-to-web'))).find(
				(b) => b['@type'] === 'Course',
			)
			expect(course).toMatchObject({
				name: locale === 'en' ? 'Introduction to the Web' : 'Introducción a la Web',
				inLanguage: locale,
				url: canonical + localePath(locale, '/learn/course/intro-to-web'),
				provider: {
					'@type': 'Organization',
					url: `${canonical}/`,
					logo: { '@type': 'ImageObject', url: `${canonical}/icon.png`, width: 512, height: 512 },
				},
				offers: [{ '@type': 'Offer', category: 'Free', price: 0 }],
				hasCourseInstance: [{ '@type': 'CourseInstance', courseMode: 'Online', courseWorkload: 'PT75M' }],
			})
			expect(String(course?.description)).toMatch(/browsers|navegadores/)

			const paid = jsonLd(await page(localePath(locale, '/learn/course/advanced-css'))).find(
				(b) => b['@type'] === 'Course',
			)
			expect(paid).toMatchObject({ offers: [{ category: 'Paid', price: 49, priceCurrency: 'USD' }] })

			const list = block<{ itemListElement: Array<{ url: string }> }>(
				jsonLd(await page(localePath(locale, '/learn'))),
				'ItemList',
			)
			expect(list.itemListElement.map((i) => i.url).sort()).toEqual(
				['/learn/course/advanced-css', '/learn/course/intro-to-web'].map((p) => canonical + localePath(locale, p)),
			)

			const post = jsonLd(await page(localePath(locale, '/blog/welcome'))).find((b) => b['@type'] === 'BlogPosting')
			expect(post).toMatchObject({
				headline: HOSTILE_POST,
				datePublished: '2026-10-05T09:00:00.000Z',
				author: { '@type': 'Person', name: 'Acme Academy' },
				publisher: {
					'@type': 'Organization',
					logo: { '@type': 'ImageObject', url: `${canonical}/icon.png`, width: 512, height: 512 },
				},
			})

			const home = jsonLd(await page(localePath(locale, '/')))
			expect(home).toEqual([
				expect.objectContaining({
					'@type': 'Organization',
					url: `${canonical}/`,
					logo: { '@type': 'ImageObject', url: `${canonical}/icon.png`, width: 512, height: 512 },
				}),
			])
		})
	})

	it('keeps a hostile content title inside its JSON-LD string and its attributes', async () => {
		for (const [path, title] of [
			['/learn/course/advanced-css', HOSTILE],
			['/blog/welcome', HOSTILE_POST],
		]) {
			const res = await stack.request(ACME, path)
			const $ = load(res.text)
			// The only scripts are the data blocks: no title opened one of its own.
			expect($('script:not([type="application/ld+json"])'), path).toHaveLength(0)
			expect(res.text).not.toContain('<script>alert(1)')
			const names = jsonLd($).flatMap((b) => [b.name, b.headline].filter(Boolean))
			expect(names, path).toContain(title)
			expect(meta($, 'og:title'), path).toEqual([title])
			expect($('head > title').text(), path).toBe(`${title} · Acme Academy`)
		}
		// The catalogue lists the hostile course by name inside its ItemList.
		const list = block<{ itemListElement: Array<{ name: string }> }>(jsonLd(await page('/learn')), 'ItemList')
		expect(list.itemListElement.map((i) => i.name)).toContain(HOSTILE)
	})

	it('indexes a tenant under its custom domain from either host, and one without under its subdomain', async () => {
		const fromDomain = await page('/learn', 'learn.acme.test')
		expect(fromDomain('link[rel="canonical"]').attr('href')).toBe(`${canonical}/learn`)
		const globex = await page('/learn', 'globex.localhost')
		expect(globex('link[rel="canonical"]').attr('href')).toBe(`http://globex.localhost:${stack.port}/learn`)
		const apex = await page('/', 'localhost')
		expect(apex('link[rel="canonical"]').attr('href')).toBe(`http://localhost:${stack.port}/`)
		expect(jsonLd(apex).map((b) => b['@type'])).toEqual(['Organization'])
	})

	it('links the host’s favicon, icons and manifest from every page, and each answers', async () => {
		for (const path of ['/', '/learn', '/learn/sign-in', '/learn/forgot']) {
			const $ = await page(path)
			const hrefs = ['icon', 'apple-touch-icon', 'manifest'].flatMap((rel) =>
				$(`link[rel="${rel}"]`)
					.toArray()
					.map((el) => $(el).attr('href')!),
			)
			expect(hrefs, path).toEqual(['/favicon.ico', '/icon.png?size=192', '/apple-icon.png', '/manifest.webmanifest'])
			for (const href of hrefs) {
				const res = await stack.request(ACME, href)
				expect(res.status, href).toBe(200)
				expect(res.headers['content-type'], href).toMatch(/^image\/|^application\/manifest\+json/)
			}
		}
	})

	it('says noindex on every page a crawler could reach that is not public content', async () => {
		const learner = stack.browser(ACME)
		expect((await learner.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })).status).toBe(
			302,
		)
		const anonymous = [
			'/learn/forgot',
			'/learn/magic',
			'/learn/sign-in/error?error=oauth_tenant_unknown',
			'/learn/verify/not-a-token',
			'/learn/reset/not-a-token',
			'/invite/not-a-token',
			'/blog/no-such-post',
			'/no-such-page',
		]
		const signedIn = [
			'/learn/dashboard',
			'/learn/account',
			'/learn/course/intro-to-web',
			'/learn/course/intro-to-web/entry/what-is-http',
		]
		const pages = [
			...anonymous.map(async (path) => [path, await stack.request(ACME, path)] as const),
			...signedIn.map(async (path) => [path, await learner.get(path)] as const),
		]
		for (const [path, res] of await Promise.all(pages)) {
			expect(res.headers['content-type'], path).toMatch(/^text\/html/)
			const $ = load(res.text)
			expect(meta($, 'robots'), path).toEqual(['noindex'])
			expect($('link[rel="canonical"]'), path).toHaveLength(0)
			expect(jsonLd($), path).toEqual([])
		}
	})
})
