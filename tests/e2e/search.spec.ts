// Finding a course (issue 41, decision 0042), walked at 360 px with JavaScript on and off (the js
// and no-js projects): the catalogue's plain GET form searches and filters, the home page links the
// featured course.
import { expect, test, type Page } from '@playwright/test'
import { at } from './support.ts'

const ACME = 'acme.localhost'

test.use({ viewport: { width: 360, height: 780 } })

const titles = (page: Page) => page.locator('ul.cards h2').allTextContents()

async function fitsThePhone(page: Page, label: string) {
	const { width, screen } = await page.evaluate(() => ({
		width: document.documentElement.scrollWidth,
		screen: window.innerWidth,
	}))
	expect(width, `${label}: no sideways scroll at 360 px`).toBeLessThanOrEqual(screen)
}

test('a visitor searches and filters the catalogue on a phone', async ({ page }) => {
	await page.goto(at(ACME, '/'))
	// The home page links the course the content marks featured.
	const featured = page.getByRole('region', { name: 'Featured courses' })
	await expect(featured.getByRole('link', { name: 'Introduction to the Web' })).toBeVisible()

	await page.goto(at(ACME, '/learn'))
	await fitsThePhone(page, 'catalogue')
	const search = page.getByRole('search')
	// Capitals and an accent the title does not have: found all the same.
	await search.getByLabel('Search courses').fill('ÀDVANCED')
	await search.getByRole('button', { name: 'Search' }).click()
	// A plain GET form sends its empty fields too: the server reads them as no filter.
	await expect(page).toHaveURL(/\/learn\?q=%C3%80DVANCED&category=&tag=$/)
	expect(await titles(page)).toEqual(['Advanced CSS'])
	await expect(page.getByRole('status')).toHaveText('1 course matches “ÀDVANCED”')
	await expect(page.getByRole('search').getByLabel('Search courses')).toHaveValue('ÀDVANCED')
	await fitsThePhone(page, 'results')

	// A filter with the query cleared: every course tagged HTML.
	await page.getByRole('search').getByLabel('Search courses').fill('')
	await page.getByRole('search').getByLabel('Tag').selectOption('html')
	await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(/\/learn\?q=&category=&tag=html$/)
	expect(await titles(page)).toEqual(['Introduction to the Web'])

	// Query and filter together, with nothing to find: the page says what to try and links back.
	await page.getByRole('search').getByLabel('Search courses').fill('grid')
	await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(/\/learn\?q=grid&category=&tag=html$/)
	await expect(page.getByText('No course matches “grid”.')).toBeVisible()
	await expect(page.getByText('Check the spelling')).toBeVisible()
	await fitsThePhone(page, 'empty result')
	await page.getByRole('link', { name: 'Show all courses' }).click()
	await expect(page).toHaveURL(at(ACME, '/learn'))
	expect(await titles(page)).toEqual(['Advanced CSS', 'Introduction to the Web'])
})

test('the catalogue searches in the page’s language', async ({ page }) => {
	await page.goto(at(ACME, '/es/learn'))
	await page.getByRole('search').getByLabel('Buscar cursos').fill('introduccion')
	await page.getByRole('search').getByRole('button', { name: 'Buscar' }).click()
	await expect(page).toHaveURL(/\/es\/learn\?q=introduccion&category=&tag=$/)
	expect(await titles(page)).toEqual(['Introducción a la Web'])
	await page.getByRole('search').getByLabel('Categoría').selectOption('web-development')
	await page.getByRole('search').getByLabel('Buscar cursos').fill('')
	await page.getByRole('search').getByRole('button', { name: 'Buscar' }).click()
	expect((await titles(page)).sort()).toEqual(['CSS avanzado', 'Introducción a la Web'])
	await fitsThePhone(page, 'catálogo')
})
