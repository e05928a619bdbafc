// Screenshots of the CMS admin at 1280 px for docs/authoring.md (run by hand, not in CI): Strapi
// with its admin panel on STRAPI_URL (npm run start:authoring), signed in as Acme's demo author.
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

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' })
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
await page.goto(`${base}/admin/auth/login`)
await page.getByLabel(/email/i).fill('author@acme.test')
await page.getByLabel(/password/i).fill(process.env.CMS_DEMO_PASSWORD || 'Authoring-demo-2026')
await page.getByRole('button', { name: /login|log in|sign in/i }).click()
await page.waitForURL(/\/admin(\/)?$/)

// Strapi's "new Media Library" banner: closed, it is not what the pictures are about.
await page.goto(
	`${base}/admin/content-manager/collection-types/${course}?page=1&pageSize=10&sort=slug:ASC&plugins[i18n][locale]=en`,
)
await page.getByText('intro-to-web').first().waitFor()
await page
	.locator('button:has(svg)')
	.filter({ hasText: /^$/ })
	.first()
	.click({ timeout: 2000 })
	.catch(() => {})
await page
	.getByRole('button', { name: /close/i })
	.first()
	.click({ timeout: 2000 })
	.catch(() => {})
await shot(page, 'courses')

const top = (text: string) =>
	page
		.getByText(text, { exact: true })
		.first()
		.evaluate((el) => el.scrollIntoView({ block: 'start' }))
await page.getByText('intro-to-web').first().click()
await page.getByText('foundations', { exact: true }).first().waitFor()
await page.getByText('foundations', { exact: true }).first().click()
await page.getByText('what-is-http', { exact: true }).first().waitFor()
await top('foundations')
await page.mouse.wheel(0, -120)
await shot(page, 'course-edit')

await page.getByText('basics-quiz', { exact: true }).first().click()
await page.getByText('q-method', { exact: true }).first().waitFor()
await page.getByText('q-method', { exact: true }).first().click()
await page
	.getByText('post', { exact: true })
	.first()
	.waitFor()
	.catch(() => {})
await top('q-method')
await page.mouse.wheel(0, -420)
await shot(page, 'quiz')

await page.goto(`${base}/admin/plugins/upload`)
await page.getByText('acme', { exact: true }).last().waitFor()
await page.locator('main').getByText('acme', { exact: true }).first().dblclick()
await page.getByText('intro-to-web', { exact: true }).first().waitFor()
await shot(page, 'media')
await browser.close()
