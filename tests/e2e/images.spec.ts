import { mkdirSync } from 'node:fs'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { acmeAccount, at, signInAs } from './support.ts'

const ACME = 'acme.localhost'
const HERO = '/api/cms/site/assets/welcome-hero'

/** Once the image has loaded, so that its box is final. */
async function loaded(image: Locator) {
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
}

/** The page scrolls sideways exactly when its content is wider than the window. */
async function expectNoSidewaysScroll(page: Page) {
	const { scrollWidth, innerWidth } = await page.evaluate(() => ({
		scrollWidth: document.documentElement.scrollWidth,
		innerWidth: window.innerWidth,
	}))
	expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

async function expectInside(image: Locator, width: number) {
	const box = (await image.boundingBox())!
	expect(box.x).toBeGreaterThanOrEqual(0)
	expect(box.x + box.width).toBeLessThanOrEqual(width)
}

for (const width of [320, 360]) {
	test(`the blog post fits a ${width} px screen, its hero a resized variant with its size reserved`, async ({
		page,
	}, info) => {
		await page.setViewportSize({ width, height: 740 })
		await page.goto(at(ACME, '/blog/welcome'))
		const hero = page.locator('img.hero')
		await expect(hero).toHaveAttribute('width', '1200')
		await expect(hero).toHaveAttribute('height', '630')
		await expect(hero).toHaveAttribute('srcset', new RegExp(`^${HERO}\\?w=320 320w, `))
		await loaded(hero)
		await expectNoSidewaysScroll(page)
		await expectInside(hero, width)
		// At one device pixel per CSS pixel the column (width - 32 px) picks the next larger width, never the 1200 px original.
		const chosen = await hero.evaluate((img: HTMLImageElement) => img.currentSrc)
		expect(new URL(chosen).pathname + new URL(chosen).search).toBe(`${HERO}?w=${width === 320 ? 320 : 480}`)
		if (width === 360 && info.project.name === 'js') {
			mkdirSync('.tmp/screenshots', { recursive: true })
			await page.screenshot({ path: '.tmp/screenshots/blog-post-360.png', fullPage: true })
		}
	})

	test(`a course entry with an image fits a ${width} px screen`, async ({ page }, info) => {
		await page.setViewportSize({ width, height: 740 })
		await signInAs(
			page,
			ACME,
			await acmeAccount(info, `images${width}`, { enrolledIn: 'intro-to-web' }),
			'/learn/dashboard',
		)
		await page.goto(at(ACME, '/learn/course/intro-to-web/entry/what-is-http'))
		const diagram = page.getByRole('img', { name: 'A request and its response' })
		await expect(diagram).toHaveAttribute('width', '640')
		await expect(diagram).toHaveAttribute('height', '320')
		await expect(diagram).toHaveAttribute('loading', 'lazy')
		await diagram.scrollIntoViewIfNeeded()
		await loaded(diagram)
		await expectNoSidewaysScroll(page)
		await expectInside(diagram, width)
	})
}
