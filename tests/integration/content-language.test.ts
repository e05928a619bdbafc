import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localePath, type Locale } from '#app/i18n/locales.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import type { Tenant } from '#db/tenants.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'

/**
 * Each field of a document says the language it was served in (decision 0012, 2026-11-25).
 * Introduction to the Web has its title in all six locales but its summary, description,
 * module and entry titles and bodies in en and es only; Acme's site name is in all six, its
 * description in en and es. So in zh the title is Chinese and the rest English, and every
 * element carries the language it is really in.
 */
describe.each(DIALECTS)('each content field carries its own language on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let passwordHash: string
	let counter = 0
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	async function learner(locale: Locale) {
		const email = `field-lang-${dialect}-${++counter}@acme.test`
		await createUser(stack.db, {
			tenant_id: acme.id,
			email,
			name: `Field ${counter}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
			locale,
		})
		const b = stack.browser(ACME)
		expect((await b.post('/learn/sign-in', { email, password: DEMO_PASSWORD })).status).toBe(302)
		return b
	}

	const page = async (path: string) => {
		const res = await stack.request(ACME, path)
		expect(res.status, path).toBe(200)
		return load(res.text)
	}

	/** The nearest `lang` of an element: its own or its closest ancestor's. */
	const langOf = ($el: ReturnType<ReturnType<typeof load>>) => $el.closest('[lang]').attr('lang')

	it('the course landing page in zh: Chinese title, English description, module and entry titles', async () => {
		const $ = await page(localePath('zh', COURSE))
		expect($('html').attr('lang')).toBe('zh')
		expect($('h1').text()).not.toBe('Introduction to the Web')
		expect(langOf($('h1'))).toBe('zh')
		const description = $('article.course .prose').first()
		expect(description.text()).toMatch(/[A-Za-z]{4,}/)
		expect(langOf(description)).toBe('en')
		const modules = $('ol.outline > li > strong')
		expect(modules.length).toBeGreaterThan(0)
		modules.each((_, el) => expect(langOf($(el)), $(el).text()).toBe('en'))
		const entries = $('ol.outline ul li > span:first-child')
		expect(entries.length).toBeGreaterThan(0)
		entries.each((_, el) => expect(langOf($(el)), $(el).text()).toBe('en'))
	})

	it('the course landing page in es: everything is Spanish', async () => {
		const $ = await page(localePath('es', COURSE))
		expect(langOf($('h1'))).toBe('es')
		expect(langOf($('article.course .prose').first())).toBe('es')
		$('ol.outline > li > strong, ol.outline ul li > span:first-child').each((_, el) =>
			expect(langOf($(el)), $(el).text()).toBe('es'),
		)
	})

	it('the catalogue: the summary says its own language apart from the title', async () => {
		const zh = await page(localePath('zh', '/learn'))
		const card = zh(`a[href="${localePath('zh', COURSE)}"]`).closest('li')
		expect(langOf(card.find('h2'))).toBe('zh')
		expect(langOf(card.find('p').first())).toBe('en')
		const es = await page(localePath('es', '/learn'))
		const esCard = es(`a[href="${localePath('es', COURSE)}"]`).closest('li')
		expect(langOf(esCard.find('h2'))).toBe('es')
		expect(langOf(esCard.find('p').first())).toBe('es')
	})

	it('the home page: the site description in English under a Chinese name', async () => {
		const zh = await page(localePath('zh', '/'))
		expect(langOf(zh('.hero h1'))).toBe('zh')
		expect(langOf(zh('.hero .lead'))).toBe('en')
		const es = await page(localePath('es', '/'))
		expect(langOf(es('.hero h1'))).toBe('es')
		expect(langOf(es('.hero .lead'))).toBe('es')
	})

	it('the course home and an entry page for a learner in zh: module and entry titles in English, the course title in Chinese', async () => {
		const b = await learner('zh')
		expect((await b.post(`${COURSE}/enroll`, {})).status).toBe(302)
		const home = load((await b.get(localePath('zh', COURSE))).text)
		expect(langOf(home('h1'))).toBe('zh')
		const headings = home('section h2[id^="module-"]')
		expect(headings.length).toBeGreaterThan(0)
		headings.each((_, el) => expect(langOf(home(el))).toBe('en'))
		home('ol.entries li > :first-child').each((_, el) => expect(langOf(home(el)), home(el).text()).toBe('en'))

		const entry = load((await b.get(localePath('zh', `${COURSE}/entry/what-is-http`))).text)
		expect(langOf(entry(`a[href="${localePath('zh', COURSE)}"]`).first())).toBe('zh')
		expect(langOf(entry('h1'))).toBe('en')
		expect(langOf(entry('.prose').first())).toBe('en')
		// The breadcrumb's module title, and the next entry's title (locked: this course is sequential).
		expect(entry('nav.hint span[lang]').text()).toBe('Foundations')
		expect(entry('nav.hint span[lang]').attr('lang')).toBe('en')
		const next = entry('.entry-nav a[rel="next"], .entry-nav .entry-next-locked > span')
		expect(next.length).toBe(1)
		expect(langOf(next)).toBe('en')
	})
})
