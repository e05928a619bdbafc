// Screenshots of the CMS admin at 1280 px for docs/authoring.md (run by hand, not in CI): Strapi
// with its admin panel on STRAPI_URL (npm run start:authoring), signed in as Acme's demo author.
// The course form in English and in Spanish (the admin's language, as an author picks it in their
// profile; the course shown in that locale too).
//   STRAPI_URL=http://127.0.0.1:1337 npx tsx scripts/authoring-screenshots.ts
import { chromium, type Page } from '@playwright/test'
import sharp from 'sharp'

const base = process.env.STRAPI_URL ?? 'http://127.0.0.1:1337'
const out = 'docs/authoring'
const course = 'api::course.course'

async function shot(page: Page, name: string) {
	await page.waitForTimeout(800)
	const png = await page.screenshot({ fullPage: false })
	// Small files: a palette PNG of the 1280 px capture.
	await sharp(png).png({ palette: true, quality: 80, compressionLevel: 9 }).toFile(`${out}/${name}.png`)
	console.log(`${out}/${name}.png`)
}

/** Scrolls the form so that `text` is at the top, less `above` pixels. */
async function top(page: Page, text: string, above = 0) {
	await page
		.getByText(text, { exact: true })
		.first()
		.evaluate((el) => el.scrollIntoView({ block: 'start' }))
	await page.mouse.wheel(0, -above)
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' })
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
await page.goto(`${base}/admin/auth/login`)
await page.getByLabel(/email/i).fill('author@acme.test')
await page.getByLabel(/password/i).fill(process.env.CMS_DEMO_PASSWORD || 'Authoring-demo-2026')
await page.getByRole('button', { name: /login|log in|sign in/i }).click()
await page.waitForURL(/\/admin(\/)?$/)

const lang = { en: 'en', es: 'es' } as const
for (const [suffix, locale] of Object.entries(lang)) {
	const name = (n: string) => (suffix === 'en' ? n : `${n}-${suffix}`)
	// The admin's language (what an author's profile sets), then the course list in that locale.
	await page.evaluate((l) => localStorage.setItem('strapi-admin-language', l), locale)
	await page.goto(
		`${base}/admin/content-manager/collection-types/${course}?page=1&pageSize=10&sort=slug:ASC&plugins[i18n][locale]=${locale}`,
	)
	const title = locale === 'es' ? 'Introducción a la Web' : 'Introduction to the Web'
	await page.getByText(title).first().waitFor()
	// Strapi's "new Media Library" banner: closed, it is not what the pictures are about.
	await page
		.getByRole('button', { name: /close|cerrar/i })
		.first()
		.click({ timeout: 2000 })
		.catch(() => {})
	if (suffix === 'en') await shot(page, 'courses')
	await page.getByText(title).first().click()
	await page.locator('input[name="title"]').waitFor()
	await shot(page, name('course-edit'))
	// Strapi's Preview: the app's page of the course in its pane, through a link made for this author
	// (decision 0100), in the locale being edited.
	await page.locator('a[href*="/preview"]').first().click()
	await page.frameLocator('iframe').first().locator('.banner-preview').waitFor({ timeout: 30_000 })
	await shot(page, name('preview'))
	await page.goBack()
	await page.locator('input[name="title"]').waitFor()
	await top(page, locale === 'es' ? 'Media necesaria para aprobar (%)' : 'Average needed to pass (%)', 120)
	await shot(page, name('course-settings'))
	// The site's categories and tags, picked from its lists (decision 0098).
	await page
		.getByText(locale === 'es' ? /^Categorías/ : /^Categories/)
		.first()
		.evaluate((el) => el.scrollIntoView({ block: 'start' }))
	await page.mouse.wheel(0, -200)
	await shot(page, name('course-categories'))
	const module = locale === 'es' ? 'Fundamentos' : 'Foundations'
	await page.getByText(module, { exact: true }).first().click()
	const quiz = locale === 'es' ? 'Cuestionario básico' : 'Basics quiz'
	await page.getByText(quiz, { exact: true }).first().waitFor()
	await top(page, module, 60)
	await shot(page, name('outline'))
	await page.getByText(quiz, { exact: true }).first().click()
	// The due date, in the school's time zone, named beside the field (decision 0095).
	const due = page.locator('[name="modules.0.entries.2.dueAt"]')
	await due.waitFor()
	// After the entry's text editor has grown to its height, which moves the field down.
	await page.waitForTimeout(1500)
	await due.evaluate((el) => el.scrollIntoView({ block: 'center' }))
	await shot(page, name('due-date'))
	const first = page.locator('[name="modules.0.entries.2.quiz.questions.0.prompt"]')
	await page
		.getByRole('button', { name: /Which method should|Qué método debe/ })
		.first()
		.click()
		.catch(() => {})
	await first.waitFor()
	await first.evaluate((el) => el.scrollIntoView({ block: 'start' }))
	await page.mouse.wheel(0, -260)
	await shot(page, name('quiz'))
	// One of the site's categories (decision 0098): its name in each language on one form.
	await page.goto(`${base}/admin/content-manager/collection-types/api::category.category?page=1&pageSize=10`)
	await page.getByText('Web development', { exact: true }).first().click()
	await page.locator('input[name="nameEs"]').waitFor()
	await shot(page, name('category'))
}

await page.goto(`${base}/admin/plugins/upload`)
await page.getByText('acme', { exact: true }).last().waitFor()
await page.locator('main').getByText('acme', { exact: true }).first().dblclick()
await page.getByText('intro-to-web', { exact: true }).first().waitFor()
await shot(page, 'media')
await browser.close()
