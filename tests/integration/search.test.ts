import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

// Finding a course (issue 41, decision 0042): the catalogue's plain GET search and filters, read
// as a browser without JavaScript reads them, over content in several locales.

const ACME = 'acme.localhost'
type Text = string | Record<string, string>
const ALL = (en: string, rest: Record<string, string> = {}) => ({ en, ...rest })

interface CourseDoc {
	slug: string
	title: Text
	summary?: Text
	description?: Text
	status?: string
	tags?: Array<{ slug: string; name: Text }>
	categories?: Array<{ slug: string; name: Text }>
	modules?: Array<{
		slug: string
		title: Text
		entries: Array<{ slug: string; type: string; title: Text; body: Text }>
	}>
	publishedAt?: string
}

const FOOD = { slug: 'food', name: ALL('Food', { fr: 'Cuisine', es: 'Comida', de: 'Essen', pt: 'Comida', zh: '美食' }) }
const HOSPITALITY = {
	slug: 'hospitality',
	name: ALL('Hospitality', { fr: 'Hôtellerie', es: 'Hostelería', de: 'Gastgewerbe', pt: 'Hotelaria', zh: '酒店服务' }),
}
const CAREERS = { slug: 'careers', name: ALL('Careers', { fr: 'Carrières', zh: '职业' }) }
const POTTERY = { slug: 'pottery', name: ALL('Pottery') }

const COURSES: CourseDoc[] = [
	{
		slug: 'cafe-culture',
		title: ALL('Café culture', {
			fr: 'La culture du café',
			es: 'Cultura del café',
			de: 'Kaffeehäuser und ihre Kultur',
			pt: 'Cultura do café',
			zh: '咖啡文化',
		}),
		summary: ALL('Espresso, milk and the people behind the counter.', { zh: '意式浓缩咖啡与吧台后的人们。' }),
		tags: [FOOD],
		categories: [HOSPITALITY],
	},
	{
		slug: 'resume-writing',
		title: ALL('Résumé writing', { fr: 'Rédiger son CV', es: 'Cómo escribir un currículum', zh: '简历写作' }),
		summary: ALL('A one-page résumé that gets read.', { fr: 'Un résumé d’une page qui se fait lire.' }),
		categories: [CAREERS],
	},
	{
		slug: 'programming-basics',
		title: ALL('Programming basics', {
			es: 'Introducción a la programación',
			pt: 'Introdução à programação',
			zh: '中国烹饪入门',
		}),
		summary: ALL('Variables, loops and functions.'),
	},
	// Ranking: "zebra" in the title, the summary, an entry's title and the description.
	{ slug: 'zz-zebra-description', title: ALL('Savanna walks'), description: ALL('We meet a zebra on day two.') },
	{
		slug: 'zz-zebra-entry',
		title: ALL('Field sketching'),
		modules: [
			{
				slug: 'm1',
				title: ALL('Outdoors'),
				entries: [{ slug: 'e1', type: 'lesson', title: ALL('Drawing a zebra crossing'), body: ALL('x') }],
			},
		],
	},
	{ slug: 'zz-zebra-summary', title: ALL('Animal patterns'), summary: ALL('Stripes of the zebra and the tiger.') },
	{ slug: 'zz-zebra-title', title: ALL('Zebra stripes explained'), summary: ALL('Why stripes?') },
	{ slug: 'zz-zebra-draft', title: ALL('Zebra draft'), status: 'draft' },
	// Paging: fourteen pottery courses.
	...Array.from({ length: 14 }, (_, i) => ({
		slug: `pottery-${String(i + 1).padStart(2, '0')}`,
		title: ALL(`Pottery class ${i + 1}`, { zh: `陶艺课 ${i + 1}` }),
		tags: [POTTERY],
	})),
]

function courseJson(c: CourseDoc) {
	return {
		slug: c.slug,
		status: c.status ?? 'published',
		listed: true,
		publishedAt: c.status === 'draft' ? null : (c.publishedAt ?? '2026-10-01T09:00:00.000Z'),
		archivedAt: null,
		updatedAt: '2026-10-01T09:00:00.000Z',
		price: null,
		estimatedMinutes: 30,
		title: c.title,
		summary: c.summary ?? ALL('A short course.'),
		description: c.description ?? ALL('More about it.'),
		...(c.tags ? { tags: c.tags } : {}),
		...(c.categories ? { categories: c.categories } : {}),
		modules: c.modules ?? [
			{
				slug: 'm',
				title: ALL('Module'),
				entries: [{ slug: 'e', type: 'lesson', title: ALL('Lesson'), body: ALL('x') }],
			},
		],
	}
}

function contentWithCourses() {
	const dir = mkdtempSync(join(tmpdir(), 'lms-cms-search-'))
	cpSync(resolve('cms/content'), dir, { recursive: true })
	for (const c of COURSES) writeFileSync(join(dir, 'acme', 'courses', `${c.slug}.json`), JSON.stringify(courseJson(c)))
	return dir
}

describe.each(DIALECTS)('finding a course on %s', (dialect) => {
	let stack: Stack
	let content: string
	beforeAll(async () => {
		content = contentWithCourses()
		stack = await startStack(dialect, {}, { cmsContentDir: content })
	})
	afterAll(async () => {
		await stack?.close()
		rmSync(content, { recursive: true, force: true })
	})

	async function catalogue(path: string) {
		const res = await stack.request(ACME, path)
		expect(res.status, path.slice(0, 120)).toBe(200)
		const $ = load(res.text)
		const slugs = $('ul.cards h2 a')
			.toArray()
			.map((a) => $(a).attr('href')!.split('/').pop()!)
		return { $, slugs, text: res.text }
	}

	it('folds accents and case in every locale', async () => {
		expect((await catalogue('/learn?q=cafe')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/learn?q=CAF%C3%89')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/fr/learn?q=Cafe')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/learn?q=resume')).slugs).toEqual(['resume-writing'])
		expect((await catalogue('/learn?q=R%C3%A9SUM%C3%89')).slugs).toEqual(['resume-writing'])
		expect((await catalogue('/es/learn?q=PROGRAMACION')).slugs).toEqual(['programming-basics'])
		expect((await catalogue('/pt/learn?q=programacao')).slugs).toEqual(['programming-basics'])
	})

	it('finds a word by its stem where the language has a stemmer', async () => {
		expect((await catalogue('/de/learn?q=Kaffeehaus')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/es/learn?q=programaciones')).slugs).toEqual(['programming-basics'])
		expect((await catalogue('/learn?q=walking')).slugs).toEqual(['zz-zebra-description'])
	})

	it('finds Chinese by its characters and pairs of them', async () => {
		expect((await catalogue('/zh/learn?q=%E7%83%B9%E9%A5%AA')).slugs).toEqual(['programming-basics']) // 烹饪
		expect((await catalogue('/zh/learn?q=%E5%92%96%E5%95%A1')).slugs).toEqual(['cafe-culture']) // 咖啡
		expect((await catalogue('/zh/learn?q=%E7%AE%80')).slugs).toEqual(['resume-writing']) // 简
		// 咖文 is two characters of one title that are not neighbours
		expect((await catalogue('/zh/learn?q=%E5%92%96%E6%96%87')).slugs).toEqual([])
	})

	it('ranks title hits above summary above outline above description, and leaves drafts out', async () => {
		expect((await catalogue('/learn?q=zebra')).slugs).toEqual([
			'zz-zebra-title',
			'zz-zebra-summary',
			'zz-zebra-entry',
			'zz-zebra-description',
		])
	})

	it('pages results and keeps the query in the page links', async () => {
		const first = await catalogue('/learn?q=pottery')
		expect(first.slugs).toHaveLength(12)
		expect(first.$('[role="status"]').text()).toContain('14 courses match “pottery”')
		const next = first.$('nav.pager a[rel="next"]').attr('href')
		expect(next).toBe('/learn?q=pottery&page=2')
		const second = await catalogue(next!)
		expect(second.slugs).toHaveLength(2)
		expect(new Set([...first.slugs, ...second.slugs]).size).toBe(14)
		expect(second.$('nav.pager a[rel="prev"]').attr('href')).toBe('/learn?q=pottery')
		// a page past the last shows the last
		expect((await catalogue('/learn?q=pottery&page=9')).slugs).toEqual(second.slugs)
	})

	it('filters by category and tag from the content service, with and without a query', async () => {
		const plain = await catalogue('/learn')
		expect(
			plain
				.$('select[name="category"] option')
				.toArray()
				.map((o) => plain.$(o).attr('value')),
		).toEqual(['', 'careers', 'hospitality', 'web-development'])
		expect((await catalogue('/learn?category=hospitality')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/learn?tag=food&q=espresso')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/learn?tag=food&q=resume')).slugs).toEqual([])
		expect((await catalogue('/learn?tag=css')).slugs).toEqual(['advanced-css'])
		expect((await catalogue('/learn?tag=pottery&page=2')).slugs).toHaveLength(2)
		const fr = await catalogue('/fr/learn?category=hospitality')
		expect(fr.$('select[name="category"] option:checked').text()).toBe('Hôtellerie (1)')
		expect(fr.slugs).toEqual(['cafe-culture'])
	})

	it('says why nothing was found and links to every course', async () => {
		const { $, slugs } = await catalogue('/learn?q=quantum+chromodynamics')
		expect(slugs).toEqual([])
		expect($('main').text()).toContain('No course matches “quantum chromodynamics”.')
		expect($('main').text()).toContain('Check the spelling')
		expect($('[role="status"]').text()).not.toContain('0 courses')
		expect($('main a[href="/learn"]').text()).toBe('Show all courses')
		const es = await catalogue('/es/learn?q=zzzz')
		expect(es.$('main').text()).toContain('Ningún curso coincide con «zzzz».')
		expect(es.$('main a[href="/es/learn"]')).toHaveLength(1)
	})

	it('reads hostile queries as plain text', async () => {
		const long = await catalogue(`/learn?q=${'zebra%20'.repeat(2000)}`)
		expect(long.slugs[0]).toBe('zz-zebra-title')
		expect(long.$('input[name="q"]').attr('value')!.length).toBeLessThanOrEqual(200)
		expect((await catalogue('/learn?q=caf%00e%01%0D%0A')).slugs).toEqual([])
		expect((await catalogue('/learn?q=%00cafe%00')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/learn?q=cafe&q=zebra')).slugs).toEqual(['cafe-culture'])
		expect((await catalogue('/learn?q=%25%25%25%2A%5C')).slugs).toEqual([])
		expect((await catalogue('/learn?category=%3Cscript%3E&tag[]=x')).slugs.length).toBeGreaterThan(0)
		const html = await catalogue('/learn?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%3E')
		expect(html.text).not.toContain('<script>alert(1)')
		expect(html.$('input[name="q"]').attr('value')).toBe('<script>alert(1)</script>">')
		expect(html.$('main').text()).toContain('No course matches “<script>alert(1)</script>">”.')
	})

	it('lets crawlers index the plain catalogue only, and follow the links of the others', async () => {
		const plain = await catalogue('/learn')
		expect(plain.$('meta[name="robots"]')).toHaveLength(0)
		expect(plain.$('link[rel="canonical"]')).toHaveLength(1)
		for (const path of ['/learn?q=cafe', '/learn?tag=food', '/learn?category=careers', '/learn?page=2']) {
			const { $ } = await catalogue(path)
			expect(
				$('meta[name="robots"]')
					.toArray()
					.map((m) => $(m).attr('content')),
				path,
			).toEqual(['noindex, follow'])
			expect($('link[rel="canonical"]'), path).toHaveLength(0)
			expect($('meta[name="description"]'), path).toHaveLength(1)
		}
	})

	it("searches only the host's own site", async () => {
		const res = await stack.request('globex.localhost', '/learn?q=cafe')
		expect(res.status).toBe(200)
		expect(load(res.text)('ul.cards h2 a')).toHaveLength(0)
		const all = load((await stack.request('globex.localhost', '/learn?q=onboarding')).text)
		expect(
			all('ul.cards h2 a')
				.toArray()
				.map((a) => all(a).attr('href')),
		).toEqual(['/learn/course/globex-onboarding'])
	})

	it('shows the featured courses on the home page', async () => {
		const res = await stack.request(ACME, '/')
		const $ = load(res.text)
		expect($('#home-courses').text()).toBe('Featured courses')
		expect(
			$('.home-courses h3 a')
				.toArray()
				.map((a) => $(a).attr('href')),
		).toEqual(['/learn/course/intro-to-web'])
		const zh = load((await stack.request(ACME, '/zh')).text)
		expect(zh('#home-courses').text()).toBe('精选课程')
	})
})
