import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTagStore } from '#app/content/cache-tags.server.ts'
import { ContentUnavailableError, createCmsClient } from '#app/content/cms.server.ts'
import { createContentCache } from '#app/content/content-cache.server.ts'
import { toQuizPublic } from '#app/content/content.ts'
import { startContentService, type ContentService } from '#tests/support/content-service.ts'

// The local content service, or the one at CONTENT_SERVICE_URL (Strapi: scripts/test-authoring.sh).
let cms: ContentService
let project: string
let key: string

beforeAll(async () => {
	cms = await startContentService()
	project = cms.project
	key = cms.key
})
afterAll(() => cms?.close())

const raw = (path: string, headers: Record<string, string> = { 'x-api-key': key }) =>
	fetch(`${cms.url}/projects/${project}/sites/${path}`, { headers })

describe('content service API', () => {
	it('refuses a missing or wrong x-api-key', async () => {
		expect((await raw('acme/courses?locale=en', {})).status).toBe(401)
		expect((await raw('acme/courses?locale=en', { 'x-api-key': project })).status).toBe(401)
	})

	it('requires a supported locale on every content read', async () => {
		expect((await raw('acme/courses')).status).toBe(400)
		expect((await raw('acme/courses?locale=it')).status).toBe(400)
	})

	it('answers 404 for another project or an unknown site', async () => {
		const other = await fetch(`${cms.url}/projects/${key}/sites/acme/courses?locale=en`, {
			headers: { 'x-api-key': key },
		})
		expect(other.status).toBe(404)
		expect((await raw('nobody/courses?locale=en')).status).toBe(404)
	})

	it('paginates lists with page 1 and pageSize 20 by default and at most 100', async () => {
		const body = await (await raw('acme/courses?locale=en')).json()
		expect(body.meta).toEqual({ page: 1, pageSize: 20, total: 4, totalPages: 1 })
		const second = await (await raw('acme/courses?locale=en&page=2&pageSize=3')).json()
		expect(second.data.map((c: any) => c.slug)).toEqual(['retired-course'])
		expect(second.meta).toMatchObject({ page: 2, pageSize: 3, total: 4, totalPages: 2 })
		expect((await raw('acme/courses?locale=en&pageSize=101')).status).toBe(400)
		expect((await raw('acme/courses?locale=en&page=0')).status).toBe(400)
	})

	it('partitions content per tenant', async () => {
		const globex = await (await raw('globex/courses?locale=en')).json()
		expect(globex.data.map((c: any) => c.slug)).toEqual(['globex-onboarding'])
		expect((await raw('globex/courses/intro-to-web?locale=en')).status).toBe(404)
	})

	it('serves the Spanish text and says which locale it served, falling back to en', async () => {
		const es = (await (await raw('acme/courses/intro-to-web?locale=es')).json()).data
		expect(es.title).toBe('Introducción a la Web')
		expect(es.locale).toBe('es')
		const page = (await (await raw('acme/pages/internal-notes?locale=es')).json()).data
		expect(page.locale).toBe('en')
	})

	it("serves a course's categories and tags (slug, localized name) and whether it is featured, or leaves them out", async () => {
		const list = async (locale: string) =>
			new Map<string, any>(
				(await (await raw(`acme/courses?locale=${locale}`)).json()).data.map((c: any) => [c.slug, c]),
			)
		const [en, es] = [await list('en'), await list('es')]
		expect(en.get('intro-to-web')).toMatchObject({
			categories: [{ slug: 'web-development', name: 'Web development' }],
			tags: [
				{ slug: 'html', name: 'HTML' },
				{ slug: 'beginner', name: 'Beginner' },
			],
			featured: true,
		})
		// A name without a translation falls back to en; the slugs are the same in every locale.
		expect(es.get('intro-to-web')).toMatchObject({
			categories: [{ slug: 'web-development', name: 'Desarrollo web' }],
			tags: [
				{ slug: 'html', name: 'HTML' },
				{ slug: 'beginner', name: 'Principiante' },
			],
		})
		expect(es.get('advanced-css')).toMatchObject({ tags: [{ slug: 'css' }, { slug: 'design', name: 'Diseño' }] })
		expect(en.get('advanced-css')?.featured ?? false).toBe(false)
		const plain = (await (await raw('globex/courses?locale=en')).json()).data[0]
		expect(plain.categories ?? []).toEqual([])
		expect(plain.tags ?? []).toEqual([])
	})

	it("serves a course's picture as an asset URL of the service, the same in every locale, or leaves it out (decision 0082)", async () => {
		for (const locale of ['en', 'es']) {
			const { data } = await (await raw(`acme/courses?locale=${locale}`)).json()
			const bySlug = new Map<string, any>(data.map((c: any) => [c.slug, c]))
			expect(bySlug.get('intro-to-web').image, locale).toBe(
				`${cms.url}/projects/${project}/sites/acme/assets/http-diagram`,
			)
			expect(bySlug.get('advanced-css'), locale).not.toHaveProperty('image')
			const course = (await (await raw(`acme/courses/intro-to-web?locale=${locale}`)).json()).data
			expect(course.image, locale).toBe(bySlug.get('intro-to-web').image)
		}
	})

	it("serves an entry's due date, absolute or relative to enrolling, the same on the course and the entry, in every locale", async () => {
		for (const locale of ['en', 'zh']) {
			const course = (await (await raw(`acme/courses/intro-to-web?locale=${locale}`)).json()).data
			const dues = Object.fromEntries(
				course.modules.flatMap((m: any) => m.entries.map((e: any) => [e.slug, e.due ?? null])),
			)
			expect(dues).toMatchObject({
				'what-is-http': null,
				'basics-quiz': { daysAfterEnrollment: 7 },
				'build-a-form': { daysAfterEnrollment: 14 },
			})
			const quiz = (await (await raw(`acme/courses/intro-to-web/entries/basics-quiz?locale=${locale}`)).json()).data
			expect(quiz.due).toEqual({ daysAfterEnrollment: 7 })
		}
		const globex = (await (await raw('globex/courses/globex-onboarding/entries/tools-check?locale=es')).json()).data
		expect(globex.due).toEqual({ at: '2027-01-15T16:00:00.000Z' })
		const lesson = (await (await raw('acme/courses/intro-to-web/entries/what-is-http?locale=en')).json()).data
		expect('due' in lesson).toBe(false)
	})

	it('serves assets with Range, ETag and conditional requests', async () => {
		const full = await raw('acme/assets/acme-icon')
		expect(full.status).toBe(200)
		expect(full.headers.get('content-type')).toBe('image/png')
		const bytes = Buffer.from(await full.arrayBuffer())
		expect(bytes.subarray(1, 4).toString()).toBe('PNG')
		const part = await raw('acme/assets/acme-icon', { 'x-api-key': key, range: 'bytes=0-7' })
		expect(part.status).toBe(206)
		expect(part.headers.get('content-range')).toBe(`bytes 0-7/${bytes.length}`)
		expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(0, 8))
		const etag = full.headers.get('etag')!
		expect((await raw('acme/assets/acme-icon', { 'x-api-key': key, 'if-none-match': etag })).status).toBe(304)
	})
})

describe('content service API, by class (the same answers from either implementation)', () => {
	const status = async (path: string, headers?: Record<string, string>) => (await raw(path, headers)).status

	it('takes the key only as x-api-key, exactly', async () => {
		for (const headers of <Record<string, string>[]>[
			{ authorization: `Bearer ${key}` },
			{ 'x-api-key': key.toUpperCase() },
			{ 'x-api-key': `${key}x` },
			{ 'x-api-key': key.slice(0, -1) },
			{ 'x-api-key': '' },
		])
			expect(await status('acme/courses?locale=en', headers), JSON.stringify(headers)).toBe(401)
		expect(await status(`acme/courses?locale=en&x-api-key=${key}`, {})).toBe(401)
		// The key is checked before anything else: unknown paths and assets too.
		expect(await status('acme/nothing-here?locale=en', {})).toBe(401)
		expect(await status('acme/assets/acme-icon', {})).toBe(401)
	})

	it('takes the locale only as one of the six codes, the first when repeated', async () => {
		for (const locale of ['EN', 'en-US', 'es,en', '', 'xx', '%00'])
			expect(await status(`acme/courses?locale=${locale}`), locale).toBe(400)
		expect(await status('acme/courses?locale=es&locale=xx')).toBe(200)
		expect(await status('acme/site')).toBe(400)
		expect(await status('acme/courses/intro-to-web/entries/what-is-http')).toBe(400)
	})

	it('refuses other page sizes and pages with 400', async () => {
		for (const query of [
			'pageSize=0',
			'pageSize=-1',
			'pageSize=1e2',
			'pageSize=abc',
			'page=-1',
			'page=1.5',
			'pageSize=101',
		])
			expect(await status(`acme/courses?locale=en&${query}`), query).toBe(400)
		for (const list of ['pages', 'blog-posts'])
			expect(await status(`${list}?locale=en&pageSize=500`.replace(/^/, 'acme/'))).toBe(400)
		const beyond = await (await raw('acme/courses?locale=en&page=9')).json()
		expect(beyond).toMatchObject({ data: [], meta: { page: 9, total: 4, totalPages: 1 } })
	})

	it('answers 404 for unknown documents, entries, assets and paths, with the error envelope', async () => {
		for (const path of [
			'acme/courses/nope?locale=en',
			'acme/courses/intro-to-web/entries/nope?locale=en',
			'acme/courses/intro-to-web/entries/what-is-http/extra?locale=en',
			'acme/pages/nope?locale=en',
			'acme/blog-posts/nope?locale=en',
			'acme/assets/nope',
			'acme/other?locale=en',
			'globex/courses/intro-to-web?locale=en',
			'globex/assets/acme-icon',
		]) {
			const res = await raw(path)
			expect(res.status, path).toBe(404)
			expect((await res.json()).error.status, path).toBe(404)
		}
		// A slug spelled with percent-escapes is the same slug.
		expect(await status('acme/courses/intro%2Dto%2Dweb?locale=en')).toBe(200)
	})

	it("marks a course's assets with their course and site assets with none, on every answer", async () => {
		const course = await raw('acme/assets/http-diagram')
		expect(course.headers.get('x-asset-course')).toBe('intro-to-web')
		expect(course.headers.get('x-asset-filename')).toBe('http-diagram.png')
		const site = await raw('acme/assets/acme-icon')
		expect(site.headers.get('x-asset-course')).toBeNull()
		const etag = course.headers.get('etag')!
		const notModified = await raw('acme/assets/http-diagram', { 'x-api-key': key, 'if-none-match': etag })
		expect([notModified.status, notModified.headers.get('x-asset-course')]).toEqual([304, 'intro-to-web'])
		const beyond = await raw('acme/assets/http-diagram', { 'x-api-key': key, range: 'bytes=999999-' })
		expect([beyond.status, beyond.headers.get('x-asset-course')]).toEqual([416, 'intro-to-web'])
		const tail = await raw('acme/assets/http-diagram', { 'x-api-key': key, range: 'bytes=-10' })
		expect(tail.status).toBe(206)
		expect((await tail.arrayBuffer()).byteLength).toBe(10)
	})
})

describe('content client', () => {
	const client = () =>
		createCmsClient({ apiUrl: cms.url, projectUuid: project, apiKey: key, timeoutMs: 300, retries: 1 })

	it('says the locale of each field that falls back apart from the title (decision 0012)', async () => {
		// Introduction to the Web has its title in six locales, everything else in en and es.
		const zh = (await (await raw('acme/courses/intro-to-web?locale=zh')).json()).data
		expect([zh.locale, zh.summaryLocale, zh.descriptionLocale]).toEqual(['zh', 'en', 'en'])
		expect(zh.modules.map((m: { locale: string }) => m.locale)).toEqual(['en', 'en'])
		expect(
			new Set(zh.modules.flatMap((m: { entries: { locale: string }[] }) => m.entries.map((e) => e.locale))),
		).toEqual(new Set(['en']))
		const es = (await (await raw('acme/courses/intro-to-web?locale=es')).json()).data
		expect([es.locale, es.summaryLocale, es.descriptionLocale, es.modules[0].locale]).toEqual(['es', 'es', 'es', 'es'])
		const quiz = (await (await raw('acme/courses/intro-to-web/entries/basics-quiz?locale=zh')).json()).data
		expect([quiz.locale, quiz.bodyLocale, quiz.quiz.questions[0].locale]).toEqual(['en', 'en', 'en'])
		const site = (await (await raw('acme/site?locale=zh')).json()).data
		expect([site.locale, site.descriptionLocale]).toEqual(['zh', 'en'])
		// The client keeps them through validation.
		const course = await client().course('acme', 'intro-to-web', 'zh')
		expect([course!.locale, course!.descriptionLocale, course!.modules[0].locale]).toEqual(['zh', 'en', 'en'])
	})

	it('pages through every course and validates them', async () => {
		const courses = await client().courses('acme', 'en')
		expect(courses.map((c) => c.slug).sort()).toEqual([
			'advanced-css',
			'draft-course',
			'intro-to-web',
			'retired-course',
		])
		expect(courses.find((c) => c.slug === 'advanced-css')!.price).toEqual({ amount: 4900, currency: 'USD' })
	})

	it('sends the locale and the key on every request', async () => {
		const before = (await cms.stats()).total
		const course = await client().course('acme', 'intro-to-web', 'es')
		expect(course!.title).toBe('Introducción a la Web')
		expect((await cms.stats()).total).toBe(before + 1)
	})

	it('returns null for unknown documents', async () => {
		expect(await client().course('acme', 'no-such-course', 'en')).toBeNull()
	})

	it('rewrites asset URLs to the same-origin proxies and leaks no content-service address', async () => {
		const entry = await client().entry('acme', 'intro-to-web', 'what-is-http', 'en')
		expect(entry!.body).toContain('](/api/cms/courses/intro-to-web/assets/http-diagram)')
		const site = await client().site('acme', 'en')
		expect(site!.icon).toBe('/api/cms/site/assets/acme-icon')
		// A course's picture, in the list as on the course: under the course (decision 0082).
		const listed = (await client().courses('acme', 'en')).find((c) => c.slug === 'intro-to-web')
		const course = await client().course('acme', 'intro-to-web', 'en')
		expect([listed!.image, course!.image]).toEqual(Array(2).fill('/api/cms/courses/intro-to-web/assets/http-diagram'))
		expect(JSON.stringify([entry, site, listed, course])).not.toContain(cms.url)
	})

	it('keeps answers in the server Quiz and strips them from QuizPublic', async () => {
		const entry = await client().entry('acme', 'intro-to-web', 'basics-quiz', 'en')
		const quiz = entry!.quiz!
		expect(quiz.maxAttempts).toBe(3)
		// When the learner sees the answers (decision 0022): carried through, kept on the server.
		expect(quiz.revealAnswers).toBe('after_pass_or_last_attempt')
		expect(quiz.questions.map((q) => q.type)).toEqual(['multiple_choice', 'true_false', 'short_answer'])
		const serialized = JSON.stringify(toQuizPublic(quiz))
		for (const secret of [
			'correctOptionId',
			'acceptedAnswers',
			'"correct"',
			'explanation',
			'form element',
			'revealAnswers',
		]) {
			expect(serialized).not.toContain(secret)
		}
		expect(serialized).toContain('Which method should a form use')
	})

	it('turns a failing, slow or garbled service into ContentUnavailableError', async () => {
		try {
			for (const faults of [{ mode: 'error' }, { mode: 'garbage' }, { mode: 'ok', delayMs: 1000 }]) {
				await cms.setFaults(faults as object)
				await expect(client().courses('acme', 'en')).rejects.toBeInstanceOf(ContentUnavailableError)
			}
		} finally {
			await cms.setFaults({ mode: 'ok', delayMs: 0 })
		}
	})
})

describe('content cache', () => {
	const setup = () => {
		let clock = 1_000_000
		const tags = createTagStore()
		const cache = createContentCache(
			createCmsClient({ apiUrl: cms.url, projectUuid: project, apiKey: key, timeoutMs: 300, retries: 0 }),
			tags,
			{ ttlMs: 60_000, now: () => clock },
		)
		return { cache, tags, advance: (ms: number) => (clock += ms) }
	}
	const calls = async () =>
		(await cms.stats()).byPath[`/api/v1/projects/${project}/sites/acme/courses/intro-to-web`] ?? 0
	const settle = () => new Promise((r) => setTimeout(r, 50))

	it('serves a value older than 60 seconds stale while exactly one background refresh runs', async () => {
		const { cache, advance } = setup()
		const start = await calls()
		await cache.course('acme', 'intro-to-web', 'en')
		advance(30_000)
		await cache.course('acme', 'intro-to-web', 'en')
		expect(await calls()).toBe(start + 1)
		advance(31_000)
		await cms.setFaults({ delayMs: 100 })
		const stale = await Promise.all(Array.from({ length: 10 }, () => cache.course('acme', 'intro-to-web', 'en')))
		expect(stale.every((c) => c?.slug === 'intro-to-web')).toBe(true)
		await new Promise((r) => setTimeout(r, 200))
		await cms.setFaults({ delayMs: 0 })
		expect(await calls()).toBe(start + 2)
		await cache.course('acme', 'intro-to-web', 'en')
		expect(await calls()).toBe(start + 2)
	})

	it('keeps serving the last good value while the service fails, asking again at most every 5 seconds', async () => {
		const { cache, tags, advance } = setup()
		await cache.course('acme', 'intro-to-web', 'en')
		const start = await calls()
		await cms.setFaults({ mode: 'error' })
		try {
			tags.revalidate(['course:intro-to-web'])
			expect((await cache.course('acme', 'intro-to-web', 'en'))?.slug).toBe('intro-to-web')
			expect((await cache.course('acme', 'intro-to-web', 'en'))?.slug).toBe('intro-to-web')
			expect(await calls()).toBe(start + 1)
			advance(5_001)
			await cache.course('acme', 'intro-to-web', 'en')
			expect(await calls()).toBe(start + 2)
			await expect(cache.course('acme', 'advanced-css', 'en')).rejects.toBeInstanceOf(ContentUnavailableError)
		} finally {
			await cms.setFaults({ mode: 'ok' })
			await settle()
		}
	})

	it('asks again 5 seconds after a failed background refresh, not before and not a minute later', async () => {
		const { cache, advance } = setup()
		await cache.course('acme', 'intro-to-web', 'en')
		advance(61_000)
		const start = await calls()
		await cms.setFaults({ mode: 'error' })
		try {
			expect((await cache.course('acme', 'intro-to-web', 'en'))?.slug).toBe('intro-to-web')
			await settle()
			expect(await calls()).toBe(start + 1)
			advance(4_000)
			expect((await cache.course('acme', 'intro-to-web', 'en'))?.slug).toBe('intro-to-web')
			await settle()
			expect(await calls()).toBe(start + 1)
			advance(1_001)
			expect((await cache.course('acme', 'intro-to-web', 'en'))?.slug).toBe('intro-to-web')
			await settle()
			expect(await calls()).toBe(start + 2)
		} finally {
			await cms.setFaults({ mode: 'ok' })
			await settle()
		}
	})

	it('starts a new flight when a tag is revalidated during a fetch', async () => {
		const { cache, tags } = setup()
		const start = await calls()
		await cms.setFaults({ delayMs: 100 })
		const first = cache.course('acme', 'intro-to-web', 'en')
		tags.revalidate(['course:intro-to-web'])
		const second = cache.course('acme', 'intro-to-web', 'en')
		await Promise.all([first, second])
		await cms.setFaults({ delayMs: 0 })
		expect(await calls()).toBe(start + 2)
	})
})
