import { expect, test } from '@playwright/test'
import { findUserByEmail, updateUser } from '#db/users.ts'
import { at, DEMO_PASSWORD, e2eDatabase, mailedLink, signIn, signUpAndVerify, uniqueEmail } from './support.ts'
import { createInvitation, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

test('sign up, verify by email, use the sign-out page', async ({ page }, info) => {
	const email = uniqueEmail(info, 'signup')
	await page.goto(at(ACME, '/learn/sign-up'))
	await page.getByLabel('Name').fill('Sam Signup')
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('short')
	await page.getByRole('button', { name: 'Create account' }).click()
	await expect(page.getByText('Use at least 8 characters')).toBeVisible()
	await page.getByLabel('Password').fill('a-good-long-secret')
	await page.getByRole('button', { name: 'Create account' }).click()
	await expect(page.getByText('Check your email')).toBeVisible()

	await page.goto(at(ACME, await mailedLink(email, '/learn/verify/')))
	// Opening the link asks; its button confirms and signs in (decision 0032).
	await expect(page.getByText(`Confirm ${email} as your address and sign in?`)).toBeVisible()
	await page.getByRole('button', { name: 'Confirm and sign in' }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard?notice=email-confirmed'))
	await expect(page.getByText('Your email address is confirmed.')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Welcome, Sam Signup' })).toBeVisible()

	await page.getByRole('link', { name: 'Sign out' }).click()
	await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Back to my dashboard' })).toHaveAttribute('href', '/learn/dashboard')
	await expect(page.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/')
	await page.getByRole('button', { name: 'Sign out' }).click()
	await expect(page).toHaveURL(at(ACME, '/?notice=signed-out'))
	await expect(page.getByText('You have been signed out.')).toBeVisible()
	await page.goto(at(ACME, '/learn/dashboard'))
	await expect(page).toHaveURL(/\/learn\/sign-in\?callbackUrl=%2Flearn%2Fdashboard/)
})

test('sign in shows errors on the form, then lands by role and honours callbackUrl', async ({ page }) => {
	await signIn(page, ACME, 'learner@acme.test', 'wrong-password')
	await expect(page.getByRole('alert')).toContainText('Email or password is incorrect.')
	await signIn(page, ACME, 'gone@acme.test')
	await expect(page.getByRole('alert')).toContainText('deactivated')
	await page.goto(at(ACME, '/learn/account'))
	await expect(page).toHaveURL(/callbackUrl=%2Flearn%2Faccount/)
	await page.getByLabel('Email').fill('learner@acme.test')
	await page.getByLabel('Password').fill(DEMO_PASSWORD)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/account'))
})

test('a platform account on a tenant host is sent to the apex sign-in', async ({ page }) => {
	await signIn(page, ACME, 'root@platform.test')
	await expect(page.getByRole('alert')).toContainText('platform account')
	await expect(page.getByRole('link', { name: 'Go to the platform sign-in' })).toHaveAttribute(
		'href',
		`http://localhost:${process.env.E2E_PORT ?? 3210}/learn/sign-in`,
	)
	await signIn(page, 'localhost', 'root@platform.test')
	await expect(page).toHaveURL(at('localhost', '/admin'))
})

test('forgot password, then reset through the emailed link', async ({ page }, info) => {
	const email = uniqueEmail(info, 'reset')
	const db = e2eDatabase()
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		const { hashPassword } = await import('#app/accounts/password.server.ts')
		const { createUser } = await import('#tests/support/repository.ts')
		await createUser(db, {
			tenant_id: acme.id,
			email,
			name: 'Rita Reset',
			role: 'student',
			password_hash: await hashPassword('old-secret-value'),
			email_verified_at: new Date(),
		})
	} finally {
		await db.close()
	}
	await page.goto(at(ACME, '/learn/sign-in'))
	await page.getByRole('link', { name: 'Forgot your password?' }).click()
	await page.getByLabel('Email').fill(email)
	await page.getByRole('button', { name: 'Send reset link' }).click()
	await expect(page.getByText('If an account with a password exists')).toBeVisible()
	await page.goto(at(ACME, await mailedLink(email, '/learn/reset/')))
	await page.getByLabel('New password', { exact: true }).fill('new-secret-value')
	await page.getByLabel('New password again').fill('new-secret-value')
	await page.getByRole('button', { name: 'Save password' }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
})

test('magic link signs in once', async ({ page }, info) => {
	await page.goto(at(ACME, '/learn/sign-in'))
	await page.getByRole('link', { name: 'Email me a sign-in link' }).click()
	const email = info.project.name === 'js' ? 'newbie@acme.test' : 'author@acme.test'
	await page.getByLabel('Email').fill(email)
	await page.getByRole('button', { name: 'Email me a link' }).click()
	await expect(page.getByText('If an account exists for that address')).toBeVisible()
	const link = await mailedLink(email, '/learn/magic/')
	// Opening the link asks first: another site, or a mail scanner, cannot sign anyone in with it.
	await page.goto(at(ACME, link))
	await expect(page.getByText(`Continue as ${email}?`)).toBeVisible()
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page).toHaveURL(
		info.project.name === 'js' ? at(ACME, '/learn/dashboard') : at(ACME, '/admin/courses/intro-to-web/dashboard'),
	)
	await page.context().clearCookies()
	await page.goto(at(ACME, link))
	await expect(page.getByRole('heading', { name: 'This link was already used' })).toBeVisible()
	// Globex turned magic links off: no link, and the route redirects.
	await page.goto(at('globex.localhost', '/learn/sign-in'))
	await expect(page.getByRole('link', { name: 'Email me a sign-in link' })).toHaveCount(0)
	await page.goto(at('globex.localhost', '/learn/magic'))
	await expect(page).toHaveURL(at('globex.localhost', '/learn/sign-in'))
})

test('email change is confirmed by a control, not by opening the link', async ({ page }, info) => {
	const email = uniqueEmail(info, 'mover')
	const newEmail = uniqueEmail(info, 'moved')
	await signUpAndVerify(page, ACME, 'Mo Mover', email)
	await page.goto(at(ACME, '/learn/account'))
	// The page has a password form too: the address form's own field.
	const emailForm = page.locator('form', { has: page.getByRole('button', { name: 'Send confirmation link' }) })
	await emailForm.getByLabel('New email address').fill(newEmail)
	await emailForm.getByLabel('Current password').fill('a-good-long-secret')
	await page.getByRole('button', { name: 'Send confirmation link' }).click()
	await expect(page.getByText('We sent a confirmation link')).toBeVisible()
	await page.goto(at(ACME, await mailedLink(newEmail, '/learn/account/email/')))
	await expect(page.getByRole('heading', { name: 'Confirm your new email address' })).toBeVisible()
	await page.goto(at(ACME, '/learn/account'))
	await expect(page.getByText(`Mo Mover · ${email}`)).toBeVisible()
	await page.goBack()
	await page.getByRole('button', { name: 'Confirm new address' }).click()
	await expect(page.getByText('Your email address has been changed.')).toBeVisible()
	await expect(page.getByText(`Mo Mover · ${newEmail}`)).toBeVisible()
})

test('an invitation creates the account with its role', async ({ page }, info) => {
	const email = uniqueEmail(info, 'invitee')
	const db = e2eDatabase()
	let raw: string
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		// Accepted only while its inviter may still grant it (decision 0032).
		const inviter = (await findUserByEmail(db, acme.id, 'admin@acme.test'))!
		raw = (
			await createInvitation(
				{ db },
				{ tenantId: acme.id, email, role: 'course_admin', courseSlug: 'intro-to-web', invitedBy: inviter.id },
			)
		).raw
	} finally {
		await db.close()
	}
	await page.goto(at(ACME, `/invite/${raw}`))
	await expect(page.getByText('course admin')).toBeVisible()
	await page.getByLabel('Your name').fill('Ivy Invitee')
	await page.getByLabel('Choose a password').fill('teaching-is-fun-1')
	await page.getByRole('button', { name: 'Accept invitation' }).click()
	await expect(page).toHaveURL(at(ACME, '/admin/courses/intro-to-web/dashboard'))
	await page.goto(at(ACME, `/invite/${raw}`))
	await expect(page.getByRole('heading', { name: 'This link was already used' })).toBeVisible()
})

test('the 11th sign-in attempt is refused with 429', async ({ page }, info) => {
	const email = uniqueEmail(info, 'bruteforce')
	for (let i = 0; i < 10; i++) {
		await signIn(page, ACME, email, `guess-${i}`)
		await expect(page.getByRole('alert')).toContainText('Email or password is incorrect.')
	}
	const response = page.waitForResponse((r) => r.request().method() === 'POST')
	await signIn(page, ACME, email, 'guess-10')
	expect((await response).status()).toBe(429)
	await expect(page.getByRole('alert')).toContainText('Too many attempts')
})

test("a deactivated user's live session is rejected on its next request", async ({ page }, info) => {
	const email = uniqueEmail(info, 'doomed')
	await signUpAndVerify(page, ACME, 'Dee Doomed', email)
	await expect(page.getByRole('heading', { name: 'Welcome, Dee Doomed' })).toBeVisible()
	const db = e2eDatabase()
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		const user = (await findUserByEmail(db, acme.id, email))!
		await updateUser(db, user.id, { deactivated_at: new Date() }, { bumpTokenVersion: true })
	} finally {
		await db.close()
	}
	await page.goto(at(ACME, '/learn/dashboard'))
	await expect(page).toHaveURL(/\/learn\/sign-in\?callbackUrl=/)
})

test('a session from one tenant is refused on another', async ({ page }) => {
	await signIn(page, ACME, 'shared@example.test')
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	await page.goto(at('globex.localhost', '/learn/dashboard'))
	await expect(page).toHaveURL(/globex\.localhost.*\/learn\/sign-in\?callbackUrl=/)
})
