import { expect, test } from '@playwright/test'
import { at } from './support.ts'

test('a tenant host lists its published courses', async ({ page }) => {
	const response = await page.goto(at('acme.localhost', '/learn'))
	expect(response?.status()).toBe(200)
	await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible()
	const courses = page.getByRole('list', { name: 'Courses' }).getByRole('listitem')
	await expect(courses).toHaveCount(2)
	await expect(page.getByRole('link', { name: 'Introduction to the Web' })).toHaveAttribute(
		'href',
		'/learn/course/intro-to-web',
	)
	await expect(page.getByText('Free')).toBeVisible()
	await expect(page.getByText('$49.00')).toBeVisible()
	await expect(page.getByText('Draft course')).toHaveCount(0)
	await expect(page.getByRole('banner')).toContainText('Acme Academy')
})

test('the custom domain serves the same tenant', async ({ page }) => {
	await page.goto(at('learn.acme.test', '/learn'))
	await expect(page.getByRole('link', { name: 'Introduction to the Web' })).toBeVisible()
})

test('another tenant sees only its own catalogue', async ({ page }) => {
	await page.goto(at('globex.localhost', '/learn'))
	await expect(page.getByRole('link', { name: 'Globex onboarding' })).toBeVisible()
	await expect(page.getByText('Introduction to the Web')).toHaveCount(0)
})

test('the tenant home page links to the catalogue', async ({ page }) => {
	await page.goto(at('acme.localhost', '/'))
	await page.getByRole('link', { name: 'Browse courses' }).click()
	await expect(page).toHaveURL(at('acme.localhost', '/learn'))
	await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible()
})

test('the apex host shows the public platform page', async ({ page }) => {
	const response = await page.goto(at('localhost', '/'))
	expect(response?.status()).toBe(200)
	await expect(page.getByRole('heading', { level: 1, name: 'Open LMS' })).toBeVisible()
})

test('an unknown host answers 404', async ({ page }) => {
	const response = await page.goto(at('evil.test', '/learn'))
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: 'Site not found' })).toBeVisible()
})

test('a suspended tenant answers the branded 503', async ({ page }) => {
	const response = await page.goto(at('initech.localhost', '/learn'))
	expect(response?.status()).toBe(503)
	await expect(page.getByText('Initech Learning', { exact: true })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'This site is temporarily unavailable' })).toBeVisible()
})
