import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const ACME = 'acme.localhost'
const SECRET = TEST_SECRETS.CMS_WEBHOOK_SECRET

describe.each(DIALECTS)('content pipeline on %s', (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(() => stack?.close())
	afterEach(() => {
		stack.cms.faults.mode = 'ok'
		stack.cms.faults.delayMs = 0
	})

	const revalidate = (body: string, headers: Record<string, string> = { authorization: `Bearer ${SECRET}` }) =>
		stack.request(ACME, '/api/cms/revalidate', {
			method: 'POST',
			body,
			headers: { 'content-type': 'application/json', ...headers },
		})
	const upstreamCalls = (path: string) => stack.cms.stats.byPath[path] ?? 0
	const coursePath = (slug: string) => `/api/v1/projects/${TEST_SECRETS.CMS_PROJECT_UUID}/sites/acme/courses/${slug}`

	describe('revalidation webhook', () => {
		it('accepts the secret as a bearer token or in x-cms-webhook-secret', async () => {
			const bearer = await revalidate('{"tag":"course:intro-to-web"}')
			expect(bearer.status).toBe(200)
			expect(bearer.json()).toEqual({ revalidated: ['course:intro-to-web'] })
			const header = await revalidate(
				'{"tags":["cms:page-hierarchy","site:acme.localhost","progress:u1","entry:intro-to-web:html-forms"]}',
				{ 'x-cms-webhook-secret': SECRET },
			)
			expect(header.status).toBe(200)
			expect(header.json().revalidated).toHaveLength(4)
		})

		it('answers 401 without the secret or with a wrong one', async () => {
			const attempts: Record<string, string>[] = [
				{},
				{ authorization: 'Bearer wrong' },
				{ 'x-cms-webhook-secret': `${SECRET}x` },
				{ authorization: SECRET },
			]
			for (const headers of attempts) {
				const res = await revalidate('{"tag":"course:x"}', headers)
				expect(res.status, JSON.stringify(headers)).toBe(401)
				expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' })
			}
		})

		it('answers 422 with the error envelope for every malformed payload', async () => {
			const cases = [
				'',
				'{not json',
				'{}',
				'{"tags":[]}',
				'{"tags":["course:a","course:a"]}',
				'{"tag":"user:1"}',
				'{"tag":"cms:other"}',
				'{"tag":""}',
				'[]',
				'{"tag":"course:a","extra":1}',
				'{"tags":"course:a"}',
			]
			for (const body of cases) {
				const res = await revalidate(body)
				expect(res.status, body).toBe(422)
				const json = res.json()
				expect(json.code, body).toBe('VALIDATION_FAILED')
				expect(typeof json.error).toBe('string')
			}
			await expect(
				revalidate('{"tags":["course:a","course:a"]}').then((r) => r.json().issues?.[0]?.message),
			).resolves.toMatch(/repeat/)
		})

		it('refuses GET with 405', async () => {
			expect((await stack.request(ACME, '/api/cms/revalidate')).status).toBe(405)
		})
	})

	describe('cached content', () => {
		it('serves repeat reads from the cache and refetches once a tag is revalidated', async () => {
			await stack.request(ACME, '/learn/course/intro-to-web')
			const before = upstreamCalls(coursePath('intro-to-web'))
			await stack.request(ACME, '/learn/course/intro-to-web')
			await stack.request(ACME, '/learn/course/intro-to-web')
			expect(upstreamCalls(coursePath('intro-to-web'))).toBe(before)

			await revalidate('{"tag":"course:intro-to-web"}')
			await stack.request(ACME, '/learn/course/intro-to-web')
			expect(upstreamCalls(coursePath('intro-to-web'))).toBe(before + 1)
		})

		it('makes one upstream request for 100 concurrent requests after an invalidation (single flight)', async () => {
			await stack.request(ACME, '/learn/course/intro-to-web')
			await revalidate('{"tag":"course:intro-to-web"}')
			stack.cms.faults.delayMs = 100
			const before = upstreamCalls(coursePath('intro-to-web'))
			const answers = await Promise.all(
				Array.from({ length: 100 }, () => stack.request(ACME, '/learn/course/intro-to-web')),
			)
			expect(answers.every((r) => r.status === 200)).toBe(true)
			expect(upstreamCalls(coursePath('intro-to-web'))).toBe(before + 1)
		})

		it('serves the last good value when the content service fails, and a branded 503 with nothing to serve', async () => {
			const good = await stack.request(ACME, '/learn/course/intro-to-web')
			expect(good.text).toContain('Introduction to the Web')
			await revalidate('{"tag":"course:intro-to-web"}')
			stack.cms.faults.mode = 'error'
			const stale = await stack.request(ACME, '/learn/course/intro-to-web')
			expect(stale.status).toBe(200)
			expect(stale.text).toContain('Introduction to the Web')

			const never = await stack.request(ACME, '/learn/course/advanced-css')
			expect(never.status).toBe(503)
			expect(never.text).not.toMatch(/ContentUnavailable|status 5\d\d|api\/v1|x-api-key/i)
		})

		it('invalidates the course list with any course tag', async () => {
			await stack.request(ACME, '/learn')
			const list = `/api/v1/projects/${TEST_SECRETS.CMS_PROJECT_UUID}/sites/acme/courses`
			const before = upstreamCalls(list)
			await stack.request(ACME, '/learn')
			expect(upstreamCalls(list)).toBe(before)
			await revalidate('{"tag":"course:advanced-css"}')
			await stack.request(ACME, '/learn')
			expect(upstreamCalls(list)).toBe(before + 1)
		})

		it('invalidates the site document by host', async () => {
			const site = `/api/v1/projects/${TEST_SECRETS.CMS_PROJECT_UUID}/sites/acme/site`
			await stack.request(ACME, '/learn')
			const before = upstreamCalls(site)
			await revalidate('{"tag":"site:learn.acme.test"}')
			await stack.request(ACME, '/learn')
			expect(upstreamCalls(site)).toBe(before + 1)
		})
	})

	describe('asset proxies', () => {
		it('streams a published course asset with its headers, ranges and conditional answers', async () => {
			const full = await stack.request(ACME, '/api/cms/courses/intro-to-web/assets/http-diagram')
			expect(full.status).toBe(200)
			expect(full.headers['content-type']).toBe('image/png')
			expect(Number(full.headers['content-length'])).toBe(full.body.length)
			expect(full.headers.etag).toBeTruthy()
			expect(full.headers['last-modified']).toBeTruthy()
			expect(full.body.subarray(1, 4).toString()).toBe('PNG')
			expect(full.headers['x-asset-course']).toBeUndefined()

			const part = await stack.request(ACME, '/api/cms/courses/intro-to-web/assets/http-diagram', {
				headers: { range: 'bytes=0-9' },
			})
			expect(part.status).toBe(206)
			expect(part.headers['content-range']).toBe(`bytes 0-9/${full.body.length}`)
			expect(part.body).toEqual(full.body.subarray(0, 10))

			const cached = await stack.request(ACME, '/api/cms/courses/intro-to-web/assets/http-diagram', {
				headers: { 'if-none-match': String(full.headers.etag) },
			})
			expect(cached.status).toBe(304)

			const download = await stack.request(ACME, '/api/cms/courses/intro-to-web/assets/http-diagram/download')
			expect(download.headers['content-disposition']).toMatch(/^attachment; filename="http-diagram.png";/)
		})

		it('answers 404 for unknown, unpublished or mismatched courses and for course assets on the site route', async () => {
			for (const path of [
				'/api/cms/courses/draft-course/assets/http-diagram',
				'/api/cms/courses/no-such/assets/http-diagram',
				'/api/cms/courses/advanced-css/assets/http-diagram',
				'/api/cms/courses/draft-course/assets/acme-icon',
				'/api/cms/courses/intro-to-web/assets/missing',
				'/api/cms/site/assets/http-diagram',
			]) {
				const res = await stack.request(ACME, path)
				expect(res.status, path).toBe(404)
				expect(res.json()).toMatchObject({ code: 'NOT_FOUND' })
			}
			// The site's own files are public: a published course's URL serves them too, as a course's
			// picture chosen from the site's library (decision 0082).
			const picture = await stack.request(ACME, '/api/cms/courses/intro-to-web/assets/acme-icon')
			expect([picture.status, picture.headers['content-type']]).toEqual([200, 'image/png'])
		})

		it("shows a course's picture on its page, resized by the asset route (decision 0082)", async () => {
			const page = await stack.request(ACME, '/learn/course/intro-to-web')
			expect(page.text).toMatch(
				/<img class="hero" src="\/api\/cms\/courses\/intro-to-web\/assets\/http-diagram"[^>]* srcSet="[^"]*\?w=320 320w/i,
			)
			const small = await stack.request(ACME, '/api/cms/courses/intro-to-web/assets/http-diagram?w=320')
			expect([small.status, small.headers['content-type']]).toEqual([200, 'image/png'])
		})

		it('serves site assets, and downloads as attachments', async () => {
			const icon = await stack.request(ACME, '/api/cms/site/assets/acme-icon')
			expect(icon.status).toBe(200)
			expect(icon.headers['content-type']).toBe('image/png')
			const download = await stack.request(ACME, '/api/cms/site/assets/acme-icon/download')
			expect(download.headers['content-disposition']).toMatch(/^attachment; filename="acme-icon.png";/)
		})

		it('rewrites asset URLs inside content to the same-origin proxies', async () => {
			const learner = stack.browser(ACME)
			await learner.post('/learn/sign-in', {
				email: 'learner@acme.test',
				password: process.env.SEED_DEMO_PASSWORD ?? 'demo-password-2026',
			})
			const page = await learner.get('/learn/course/intro-to-web/entry/what-is-http')
			expect(page.status).toBe(200)
			expect(page.text).toContain('src="/api/cms/courses/intro-to-web/assets/http-diagram"')
		})
	})

	describe('public content and Markdown projections', () => {
		it('serves published pages and lists only published, listed ones in the menu', async () => {
			const about = await stack.request(ACME, '/about')
			expect(about.status).toBe(200)
			expect(about.text).toContain('<h1>About Acme Academy</h1>')
			expect(about.text).toContain('href="/about"')
			expect(about.text).not.toContain('internal-notes')
			expect((await stack.request(ACME, '/internal-notes')).status).toBe(404)
			expect((await stack.request(ACME, '/no-such-page')).status).toBe(404)
			expect((await stack.request('localhost', '/about')).status).toBe(200)
		})

		it('serves the blog and its published posts', async () => {
			const blog = await stack.request(ACME, '/blog')
			expect(blog.status).toBe(200)
			expect(blog.text).toContain('href="/blog/welcome"')
			const post = await stack.request(ACME, '/blog/welcome')
			expect(post.text).toContain('<h1>Welcome to Acme Academy</h1>')
			expect(post.text).toContain('src="/api/cms/site/assets/welcome-hero"')
			expect((await stack.request(ACME, '/blog/nope')).status).toBe(404)
		})

		it('answers .md URLs of published content with Markdown, never with gated entry content', async () => {
			const page = await stack.request(ACME, '/about.md')
			expect(page.status).toBe(200)
			expect(page.headers['content-type']).toBe('text/markdown; charset=utf-8')
			expect(page.text).toMatch(/^# About Acme Academy\n/)
			expect((await stack.request(ACME, '/blog/welcome.md')).text).toMatch(/^# Welcome to Acme Academy\n/)
			const course = await stack.request(ACME, '/learn/course/intro-to-web.md')
			expect(course.text).toMatch(/^# Introduction to the Web\n/)
			expect(course.text).toContain('- What is HTTP? (lesson)')
			expect(course.text).not.toContain('The key secret of this lesson')
			expect(course.text).not.toContain('acceptedAnswers')
			expect((await stack.request(ACME, '/api/aeo/markdown/about')).text).toBe(page.text)
			for (const [path, status] of [
				['/internal-notes.md', 404],
				['/learn/course/draft-course.md', 404],
				['/learn/course/retired-course.md', 410],
				['/blog/nope.md', 404],
			] as const) {
				const res = await stack.request(ACME, path)
				expect(res.status, path).toBe(status)
				expect(res.json().code).toBe(status === 404 ? 'NOT_FOUND' : 'GONE')
			}
		})
	})

	describe('anonymous page cache', () => {
		it('stores a public page once and serves it with an ETag, 304 and precompressed variants', async () => {
			await revalidate('{"tag":"course:advanced-css"}')
			const first = await stack.request(ACME, '/learn/course/advanced-css')
			expect(first.headers['x-page-cache']).toBe('miss')
			const calls = stack.cms.stats.total
			const second = await stack.request(ACME, '/learn/course/advanced-css')
			expect(second.headers['x-page-cache']).toBe('hit')
			expect(stack.cms.stats.total).toBe(calls)
			expect(second.text).toBe(first.text)
			expect(second.headers.etag).toBe(first.headers.etag)
			expect(second.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie')
			expect(second.headers['x-content-type-options']).toBe('nosniff')

			const revalidated = await stack.request(ACME, '/learn/course/advanced-css', {
				headers: { 'if-none-match': String(first.headers.etag) },
			})
			expect(revalidated.status).toBe(304)
			expect(revalidated.body.length).toBe(0)

			const br = await stack.request(ACME, '/learn/course/advanced-css', { headers: { 'accept-encoding': 'gzip, br' } })
			expect(br.headers['content-encoding']).toBe('br')
			expect(brotliDecompressSync(br.body).toString()).toBe(first.text)
			const gz = await stack.request(ACME, '/learn/course/advanced-css', {
				headers: { 'accept-encoding': 'gzip, br;q=0' },
			})
			expect(gz.headers['content-encoding']).toBe('gzip')
			expect(gunzipSync(gz.body).toString()).toBe(first.text)
		})

		it('drops a page when a tag it was built from is revalidated', async () => {
			await stack.request(ACME, '/learn/course/intro-to-web')
			expect((await stack.request(ACME, '/learn/course/intro-to-web')).headers['x-page-cache']).toBe('hit')
			await revalidate('{"tag":"course:intro-to-web"}')
			expect((await stack.request(ACME, '/learn/course/intro-to-web')).headers['x-page-cache']).toBe('miss')
			// The site document is read by every page: its tag drops them all.
			await stack.request(ACME, '/blog')
			await revalidate('{"tag":"site:acme.localhost"}')
			expect((await stack.request(ACME, '/blog')).headers['x-page-cache']).toBe('miss')
		})

		it('keeps locales apart and never serves or stores pages of signed-in users or query URLs', async () => {
			await stack.request(ACME, '/learn')
			const spanish = await stack.request(ACME, '/learn', { headers: { 'accept-language': 'es' } })
			expect(spanish.text).toContain('Introducción a la Web')
			expect((await stack.request(ACME, '/learn')).text).toContain('Introduction to the Web')

			const learner = stack.browser(ACME)
			await learner.post('/learn/sign-in', { email: 'learner@acme.test', password: 'demo-password-2026' })
			const signedIn = await learner.get('/learn')
			expect(signedIn.headers['x-page-cache']).toBeUndefined()
			expect(signedIn.text).toContain('href="/learn/dashboard"')
			expect((await stack.request(ACME, '/learn')).text).not.toContain('href="/learn/dashboard"')

			expect((await stack.request(ACME, '/learn?x=1')).headers['x-page-cache']).toBeUndefined()
			expect((await stack.request(ACME, '/learn/sign-in')).headers['x-page-cache']).toBeUndefined()
		})
	})

	it('never puts the content-service key in a response', async () => {
		const paths = [
			'/',
			'/learn',
			'/learn/course/intro-to-web',
			'/learn/course/draft-course',
			'/about',
			'/blog',
			'/blog/welcome',
			'/about.md',
			'/learn/course/intro-to-web.md',
			'/api/cms/site/assets/acme-icon',
			'/api/cms/courses/intro-to-web/assets/http-diagram',
			'/api/health',
		]
		stack.cms.faults.mode = 'ok'
		for (const path of paths) {
			const res = await stack.request(ACME, path)
			expect(res.body.toString('latin1'), path).not.toContain(TEST_SECRETS.CMS_API_UUID)
			expect(JSON.stringify(res.headers), path).not.toContain(TEST_SECRETS.CMS_API_UUID)
		}
		stack.cms.faults.mode = 'error'
		await revalidate('{"tags":["course:intro-to-web","site:acme.localhost"]}')
		for (const path of paths) {
			const res = await stack.request(ACME, path)
			expect(res.body.toString('latin1'), path).not.toContain(TEST_SECRETS.CMS_API_UUID)
		}
	})
})
