import { load } from 'cheerio'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogueKeys, type Messages } from '#app/i18n/index.ts'
import { LOCALES, localePath, type Locale } from '#app/i18n/locales.ts'
import de from '#app/i18n/catalogues/de.ts'
import en from '#app/i18n/catalogues/en.ts'
import es from '#app/i18n/catalogues/es.ts'
import fr from '#app/i18n/catalogues/fr.ts'
import pt from '#app/i18n/catalogues/pt.ts'
import zh from '#app/i18n/catalogues/zh.ts'
import { escapeHtml } from '#app/platform/html.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import type { Tenant } from '#db/tenants.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

const CATALOGUES: Record<Locale, Messages> = { en, es, fr, de, pt, zh }

function leaves(messages: object): Map<string, string> {
	const out = new Map<string, string>()
	for (const key of catalogueKeys(messages)) {
		const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages)
		out.set(key, String(value))
	}
	return out
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

// The same in some languages as in English: the product's name and loanwords.
const SAME_AS_ENGLISH = new Set([
	'Open LMS',
	'Blog',
	'Quiz',
	'Page',
	'Email',
	'Status',
	'Slug',
	'Total',
	'Audit',
	'Actions',
	'Action',
	'Description',
	'Module',
	'Modules',
	'Type',
	'Date',
	'Score',
	'Code',
	'Instructions',
	'Version',
	'Position',
	'Dashboard',
])

describe('message catalogues', () => {
	// Every catalogue has exactly English's keys: `satisfies typeof en` in each file, checked by tsc.
	it.each(LOCALES.filter((l) => l !== 'en'))('%s is a translation, not a copy of English', (locale) => {
		const english = leaves(en)
		const copied = [...leaves(CATALOGUES[locale])].filter(
			([key, text]) => text === english.get(key) && !SAME_AS_ENGLISH.has(text) && /[a-z]{3}/i.test(text),
		)
		// A handful of loanwords and names may coincide; whole messages may not.
		const words = (text: string) => text.replace(/\{\w+\}/g, '').match(/\p{L}{2,}/gu)?.length ?? 0
		expect(copied.filter(([, text]) => words(text) > 2)).toEqual([])
		expect(copied.length / english.size).toBeLessThan(0.03)
	})

	it.each(LOCALES.filter((l) => l !== 'en'))('%s keeps every placeholder of the English text', (locale) => {
		const english = leaves(en)
		for (const [key, text] of leaves(CATALOGUES[locale]))
			expect(placeholders(text), key).toEqual(placeholders(english.get(key)!))
	})
})

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'
const ENTRY = `${COURSE}/entry/what-is-http`

describe.each(DIALECTS)('six locales on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	const lang = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1]
	const has = (html: string, text: string) => html.includes(escapeHtml(text))

	let counter = 0
	async function learner(locale: Locale) {
		const email = `polyglot-${dialect}-${++counter}@acme.test`
		await createUser(stack.db, {
			tenant_id: acme.id,
			email,
			name: `Polyglot ${counter}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
			locale,
		})
		const b = stack.browser(ACME)
		expect((await b.post('/learn/sign-in', { email, password: DEMO_PASSWORD })).status).toBe(302)
		return { b, email }
	}

	it('/es/learn/course/intro-to-web shows the Spanish course, read from the content service with locale=es', async () => {
		const before = { ...stack.cms.stats.byLocale }
		const res = await stack.request(ACME, `/es${COURSE}`)
		expect(res.status).toBe(200)
		expect(lang(res.text)).toBe('es')
		expect(res.text).toContain('Introducción a la Web')
		expect(res.text).not.toContain('Introduction to the Web')
		const grew = Object.entries(stack.cms.stats.byLocale).filter(([locale, n]) => n > (before[locale] ?? 0))
		// The course's picture is read for its size without a locale (a file has none, decision 0082):
		// what has one was asked in es only.
		expect(grew.map(([locale]) => locale).filter((locale) => locale !== 'none')).toEqual(['es'])
	})

	it('marks a header link from content with its own language when the page has no translation', async () => {
		const about = async (locale: 'zh' | 'es') => {
			const $ = load((await stack.request(ACME, localePath(locale, '/learn'))).text)
			const link = $(`header nav a[href="${localePath(locale, '/about')}"]`)
			return [link.text(), link.attr('lang')]
		}
		expect(await about('zh')).toEqual(['About Acme Academy', 'en'])
		expect(await about('es')).toEqual(['Sobre la Academia Acme', undefined])
	})

	// Alternates are on the canonical origin: Acme's custom domain (tests/integration/seo.test.ts).
	const CANONICAL = () => `http://learn.acme.test:${stack.port}`
	it.each(LOCALES)('the catalogue in %s: translated chrome, lang, hreflang alternates', async (locale) => {
		const m = CATALOGUES[locale]
		const res = await stack.request(ACME, localePath(locale, '/learn'))
		expect(res.status).toBe(200)
		expect(lang(res.text)).toBe(locale)
		for (const text of [
			m.common.skipToContent,
			m.common.nav.courses,
			m.common.nav.signIn,
			m.common.switcher.label,
			m.learning.catalogue.title,
		])
			expect(has(res.text, text), text).toBe(true)
		if (locale !== 'en') expect(has(res.text, en.common.skipToContent)).toBe(false)
		for (const other of LOCALES)
			expect(res.text).toContain(
				`<link rel="alternate" hrefLang="${other}" href="${CANONICAL()}${localePath(other, '/learn')}"/>`,
			)
		expect(res.text).toContain(`hrefLang="x-default" href="${CANONICAL()}/learn"`)
	})

	it.each(LOCALES)('an entry page for a learner whose locale is %s', async (locale) => {
		const m = CATALOGUES[locale]
		const { b } = await learner(locale)
		expect((await b.post(`${COURSE}/enroll`, {})).status).toBe(302)
		const res = await b.get(localePath(locale, ENTRY))
		expect(res.status).toBe(200)
		expect(lang(res.text)).toBe(locale)
		for (const text of [
			m.common.nav.dashboard,
			m.common.nav.account,
			m.common.nav.signOut,
			m.learning.entry.markComplete,
			m.learning.entry.navLabel,
		])
			expect(has(res.text, text), text).toBe(true)
		if (locale !== 'en') expect(has(res.text, en.learning.entry.markComplete)).toBe(false)
		// The same page without the prefix (or another locale's) sends the user to their own.
		if (locale !== 'en') {
			const unprefixed = await b.get(ENTRY)
			expect(unprefixed.status).toBe(302)
			expect(unprefixed.headers.location).toBe(localePath(locale, ENTRY))
		}
	})

	it('negotiates a visitor: prefix, then cookie, then Accept-Language, then en', async () => {
		expect(lang((await stack.request(ACME, '/learn')).text)).toBe('en')
		expect(
			lang((await stack.request(ACME, '/learn', { headers: { 'accept-language': 'de-CH, fr;q=0.8' } })).text),
		).toBe('de')
		expect(
			lang((await stack.request(ACME, '/learn', { headers: { 'accept-language': 'ja, pt-BR;q=0.5' } })).text),
		).toBe('pt')
		expect(
			lang(
				(await stack.request(ACME, '/learn', { headers: { 'accept-language': 'de', cookie: 'lms_locale=zh' } })).text,
			),
		).toBe('zh')
		expect(
			lang(
				(await stack.request(ACME, '/fr/learn', { headers: { 'accept-language': 'de', cookie: 'lms_locale=zh' } }))
					.text,
			),
		).toBe('fr')
	})

	it('keeps static platform paths unprefixed', async () => {
		for (const path of [
			'/es/api/health',
			'/es/robots.txt',
			'/fr/.well-known/security.txt',
			'/de/sitemap.xml',
			'/zh/openapi.yaml',
		]) {
			expect((await stack.request(ACME, path)).status, path).toBe(404)
		}
		expect((await stack.request(ACME, '/api/health')).status).toBe(200)
		// The home page and the blog have their prefixed variants like the learner and admin pages.
		expect(lang((await stack.request(ACME, '/es')).text)).toBe('es')
		expect(lang((await stack.request(ACME, '/zh/blog')).text)).toBe('zh')
	})

	it('answers errors in the page locale: field errors, the 404 page, the branded 503', async () => {
		const signIn = await stack.browser(ACME).post('/es/learn/sign-in', { email: 'not-an-address', password: 'x' })
		expect(signIn.status).toBe(400)
		expect(lang(signIn.text)).toBe('es')
		expect(has(signIn.text, es.common.validation.emailInvalid)).toBe(true)
		// The key travels in the hydration data; the reader never sees it.
		expect(signIn.text.replace(/<script[\s\S]*?<\/script>/g, '')).not.toContain('common.validation')

		const missing = await stack.request(ACME, '/de/learn/course/no-such-course')
		expect(missing.status).toBe(404)
		expect(has(missing.text, de.common.errors.notFoundTitle)).toBe(true)

		const suspended = await stack.request('initech.localhost', '/learn', {
			headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
		})
		expect(suspended.status).toBe(503)
		expect(lang(suspended.text)).toBe('fr')
		expect(has(suspended.text, fr.common.status.suspendedTitle)).toBe(true)
		expect(has((await stack.request('nowhere.example', '/zh/learn')).text, zh.common.status.siteNotFoundTitle)).toBe(
			true,
		)
	})

	it('says which language content is shown in when it is missing in the page locale', async () => {
		// Advanced CSS exists in English and Spanish only.
		const res = await stack.request(ACME, '/fr/learn/course/advanced-css')
		expect(res.status).toBe(200)
		expect(lang(res.text)).toBe('fr')
		expect(res.text).toContain('Advanced CSS')
		expect(
			has(res.text, fr.common.contentLanguage.replace('{requested}', 'français').replace('{served}', 'anglais')),
		).toBe(true)
		expect(res.text).toMatch(/\slang="en"/)
		const spanish = await stack.request(ACME, '/es/learn/course/advanced-css')
		expect(spanish.text).toContain('CSS avanzado')
		expect(has(spanish.text, es.common.contentLanguage.split('{')[0])).toBe(false)
	})

	it('the switcher form remembers a visitor choice in a cookie and returns to the page in the new locale', async () => {
		const b = stack.browser(ACME)
		const res = await b.post('/learn/locale', { locale: 'de', redirectTo: '/learn/course/intro-to-web?x=1' })
		expect(res.status).toBe(303)
		expect(res.headers.location).toBe('/de/learn/course/intro-to-web?x=1')
		expect(b.jar.get('lms_locale')).toBe('de')
		expect(lang((await b.get('/learn')).text)).toBe('de')
		// Another site's address is never a destination.
		expect((await b.post('/learn/locale', { locale: 'fr', redirectTo: '//evil.test/x' })).headers.location).toBe('/fr')
		expect((await b.post('/learn/locale', { locale: 'xx', redirectTo: '/learn' })).headers.location).toBe('/learn')
	})

	it('the switcher and the account preference update users.locale', async () => {
		const { b, email } = await learner('en')
		const localeOf = async () =>
			(await stack.db.orm.select().from(stack.db.t.users).where(eq(stack.db.t.users.email, email)))[0]!.locale
		expect((await b.post('/learn/locale', { locale: 'pt', redirectTo: '/learn/dashboard' })).headers.location).toBe(
			'/pt/learn/dashboard',
		)
		expect(await localeOf()).toBe('pt')
		const dashboard = await b.get('/pt/learn/dashboard')
		expect(lang(dashboard.text)).toBe('pt')

		const saved = await b.post('/pt/learn/account', { intent: 'locale', locale: 'zh' })
		expect(saved.status).toBe(302)
		expect(saved.headers.location).toBe('/zh/learn/account?notice=locale-changed')
		expect(await localeOf()).toBe('zh')
		expect(lang((await b.get('/learn')).text)).toBe('zh')
		expect((await b.post('/zh/learn/account', { intent: 'locale', locale: 'klingon' })).status).toBe(400)
		expect(await localeOf()).toBe('zh')
	})
})
