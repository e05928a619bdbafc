import { expect, test } from '@playwright/test'
import { at, mailedLink, uniqueEmail } from './support.ts'

// Issue 24 on a phone-sized screen, with JavaScript on and off (the two projects).
test.use({ viewport: { width: 360, height: 800 } })

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'

test('sign up from a course landing, confirm by email, land on the course; change the password; sign out', async ({
	page,
}, info) => {
	const email = uniqueEmail(info, 'self')
	await page.goto(at(ACME, COURSE))
	await page.getByRole('button', { name: 'Sign in to enroll' }).click()
	await expect(page).toHaveURL(/\/learn\/sign-in\?callbackUrl=%2Flearn%2Fcourse%2Fintro-to-web/)
	await page.getByRole('link', { name: 'Create an account' }).click()
	await expect(page).toHaveURL(/\/learn\/sign-up\?callbackUrl=%2Flearn%2Fcourse%2Fintro-to-web/)
	await page.getByLabel('Name').fill('Pat Phone')
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('first-good-secret')
	await page.getByRole('button', { name: 'Create account' }).click()
	await expect(page.getByText('Check your email')).toBeVisible()
	// only the notice: the form is not shown again under it
	await expect(page.getByRole('button', { name: 'Create account' })).toHaveCount(0)

	const link = await mailedLink(email, '/learn/verify/')
	expect(link).toContain('callbackUrl=%2Flearn%2Fcourse%2Fintro-to-web')
	await page.goto(at(ACME, link))
	// The link asks; its button confirms, and the callbackUrl goes with it.
	await page.getByRole('button', { name: 'Confirm and sign in' }).click()
	await expect(page).toHaveURL(new RegExp(`${COURSE}(/enroll)?\\?notice=email-confirmed$`))
	await expect(page.getByText('Your email address is confirmed.')).toBeVisible()
	// the used link, clicked again: already confirmed, with a way on
	await page.goto(at(ACME, link))
	await expect(page.getByText('Your email address is already confirmed.')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', /\/learn\/course\/intro-to-web/)

	await page.goto(at(ACME, '/learn/account'))
	const passwordForm = page.locator('form', { has: page.getByRole('button', { name: 'Save password' }) })
	await passwordForm.getByLabel('Current password').fill('not-the-password')
	await passwordForm.getByLabel('New password').fill('second-good-secret')
	await page.getByRole('button', { name: 'Save password' }).click()
	await expect(page.getByText('That is not your current password')).toBeVisible()
	await passwordForm.getByLabel('Current password').fill('first-good-secret')
	await passwordForm.getByLabel('New password').fill('second-good-secret')
	await page.getByRole('button', { name: 'Save password' }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/account?notice=password-changed'))
	await expect(page.getByText('Your password was changed.')).toBeVisible()
	// still signed in on this device
	await page.goto(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { name: 'Welcome, Pat Phone' })).toBeVisible()

	await page.goto(at(ACME, '/learn/sign-out'))
	await page.getByRole('button', { name: 'Sign out' }).click()
	await expect(page).toHaveURL(at(ACME, '/?notice=signed-out'))
	await expect(page.getByText('You have been signed out.')).toBeVisible()
})
