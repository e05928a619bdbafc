import { expect, test, type Page } from '@playwright/test'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { acmeAccount, at, mailsTo, previewToken, signInAs, uniqueEmail } from './support.ts'

// Issue 40 on a phone-sized screen, JavaScript on and off (the js and no-js projects): every role change asks
// first, staff preview a draft, the check-your-email page names the address and sends it again.
test.use({ viewport: { width: 360, height: 800 } })

const ACME = 'acme.localhost'

/** Nothing sticks out past the right edge of a 360 px screen. */
async function fitsThePhone(page: Page, label: string) {
	const { width, screen } = await page.evaluate(() => ({
		width: document.documentElement.scrollWidth,
		screen: window.innerWidth,
	}))
	expect(width, `${label}: no sideways scroll at 360 px`).toBeLessThanOrEqual(screen)
}

/** The element is on the screen as it is, without scrolling anything sideways. */
async function onScreen(page: Page, locator: ReturnType<Page['locator']>) {
	const box = await locator.boundingBox()
	expect(box, 'laid out').not.toBeNull()
	const { innerWidth } = await page.evaluate(() => ({ innerWidth: window.innerWidth }))
	expect(box!.x).toBeGreaterThanOrEqual(0)
	expect(box!.x + box!.width, 'its right edge is on the screen').toBeLessThanOrEqual(innerWidth)
}

test('a promotion asks first; cancelling an enrollment says what each button does, reachable at 360 px', async ({
	page,
}, info) => {
	const admin = await acmeAccount(info, 'i40-admin', { role: 'tenant_admin' })
	const learner = await acmeAccount(info, 'i40-learner', { enrolledIn: 'intro-to-web' })
	await signInAs(page, ACME, admin, '/admin/users')
	await page.getByLabel('Search').fill(learner)
	await page.getByRole('button', { name: 'Filter' }).click()
	// The filtered list, not the whole one still shown while it loads (the other project's learner has the same name).
	await page.waitForURL(/[?&]q=/)
	await page.getByRole('link', { name: 'E2E i40-learner' }).click()
	await expect(page.getByRole('heading', { name: 'E2E i40-learner', level: 1 })).toBeVisible()
	// Hydrating a server-rendered select puts back its default: choose only once the scripts have run.
	await page.waitForLoadState('networkidle')

	// Up to tenant admin: asked, and cancelling keeps the learner a learner.
	const alert = page.getByRole('alert')
	// Once hydrated, a re-render can put the select's default back under the choice: choose until it is asked.
	const askPromotion = () =>
		expect(async () => {
			await page.getByLabel('Role', { exact: true }).selectOption('tenant_admin')
			await page.getByRole('button', { name: 'Change role' }).click()
			await expect(alert).toContainText('Change E2E i40-learner from student to tenant admin?', { timeout: 3_000 })
		}).toPass({ timeout: 20_000 })
	await askPromotion()
	await fitsThePhone(page, 'promotion confirmation')
	await alert.getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await expect(page.locator('dl.facts')).toContainText('student')

	// The enrollment's action is on the screen at 360 px, in its table's first column.
	const cancel = page.getByRole('button', { name: 'Cancel enrollment in Introduction to the Web' })
	await onScreen(page, cancel)
	await cancel.click()
	await expect(alert).toContainText('Cancel the enrollment of E2E i40-learner in Introduction to the Web?')
	const keep = alert.getByRole('link', { name: 'Keep enrollment' })
	await expect(keep).toHaveClass(/button-secondary/)
	await expect(alert.getByRole('button', { name: 'Cancel enrollment' })).toBeVisible()
	await fitsThePhone(page, 'cancel-enrollment confirmation')
	await keep.click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await expect(page.getByRole('button', { name: 'Cancel enrollment in Introduction to the Web' })).toBeVisible()

	// Asked again and confirmed: a tenant admin.
	await page.waitForLoadState('networkidle')
	await askPromotion()
	await alert.getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByText('The role was changed. Their sessions were signed out.')).toBeVisible()
	await expect(page.locator('dl.facts')).toContainText('tenant admin')
})

test('staff preview a draft course read-only and marked; a learner and a visitor get 404', async ({ page }, info) => {
	const admin = await acmeAccount(info, 'i40-preview', { role: 'tenant_admin' })
	await signInAs(page, ACME, admin, '/admin/courses')
	const row = page.getByRole('row', { name: /Draft course/ })
	await row.getByRole('link', { name: 'Preview' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Draft.' })).toContainText(
		'This course is not published: learners cannot see it',
	)
	await fitsThePhone(page, 'draft course preview')
	await page.getByRole('link', { name: 'Secret lesson' }).first().click()
	await expect(page.getByText('Draft body.')).toBeVisible()
	await expect(page.getByRole('status').filter({ hasText: 'Draft.' })).toBeVisible()
	expect(new URL(page.url()).search).toBe('?preview=1')
	// Read-only: marking it complete is not offered as something that works.
	await expect(page.getByRole('button', { name: 'Mark as complete' })).toBeDisabled()
	await fitsThePhone(page, 'draft entry preview')
	const url = page.url()

	// A visitor: the draft's preview is not found (its entries, like every entry, first ask them to sign in).
	await page.context().clearCookies()
	expect((await page.goto(at(ACME, '/learn/course/draft-course?preview=1')))!.status()).toBe(404)
	// A learner: neither the course nor its entry.
	const learner = await acmeAccount(info, 'i40-no-preview')
	await signInAs(page, ACME, learner, '/learn/dashboard')
	expect((await page.goto(at(ACME, '/learn/course/draft-course?preview=1')))!.status()).toBe(404)
	expect((await page.goto(url))!.status()).toBe(404)
})

test('an author opens the CMS preview link with no session: the draft, its entries, a quiz tried, nothing kept', async ({
	page,
}) => {
	// As Strapi's Preview makes it for them (decision 0100); anonymous, as in the CMS's pane.
	const link = (course: string) =>
		`?${new URLSearchParams({
			preview: '1',
			token: previewToken(TEST_SECRETS.CMS_WEBHOOK_SECRET, { site: 'acme', course, sub: '3', author: 'Ana Author' }),
		})}`
	await page.goto(at(ACME, `/learn/course/draft-course${link('draft-course')}`))
	const banner = page.getByRole('status').filter({ hasText: 'Draft.' })
	await expect(banner).toContainText('Opened from the course editor for Ana Author. This link works until')
	await fitsThePhone(page, 'draft course through a preview link')
	await page.getByRole('link', { name: 'Secret lesson' }).first().click()
	await expect(page.getByText('Draft body.')).toBeVisible()
	await expect(banner).toBeVisible()
	await expect(page.getByRole('button', { name: 'Mark as complete' })).toBeDisabled()
	// A quiz of a published course, tried through its own link: the answer is checked, nothing is stored.
	const quiz = `/learn/course/intro-to-web/entry/basics-quiz${link('intro-to-web')}`
	await page.goto(at(ACME, quiz))
	await page.getByRole('radio', { name: 'GET' }).check()
	await page.getByRole('radio', { name: 'True' }).check()
	await page.getByLabel('Your answer').fill('form')
	await page.getByRole('button', { name: 'Check answers (nothing is saved)' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Preview:' })).toContainText('Preview: 67% · 2 of 3 correct')
	await expect(page).toHaveURL(at(ACME, quiz))
	// Without the link, the draft is not found.
	expect((await page.goto(at(ACME, '/learn/course/draft-course?preview=1')))!.status()).toBe(404)
})

test('a visitor creates an account from a course, is told which address was mailed, and has it sent again', async ({
	page,
}, info) => {
	const email = uniqueEmail(info, 'i40-resend')
	await page.goto(at(ACME, '/learn/course/intro-to-web'))
	// Beside "Sign in to enroll".
	await expect(page.getByRole('button', { name: 'Sign in to enroll' })).toBeVisible()
	await page.getByRole('link', { name: 'Create account' }).click()
	await expect(page).toHaveURL(/\/learn\/sign-up\?callbackUrl=%2Flearn%2Fcourse%2Fintro-to-web/)
	await page.getByLabel('Name').fill('Resend Person')
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('first-good-secret')
	await page.getByRole('button', { name: 'Create account' }).click()
	await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()
	await expect(page.getByText(`We sent an email to ${email}.`)).toBeVisible()
	await fitsThePhone(page, 'check your email')
	await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBe(1)
	await page.getByRole('button', { name: 'Send it again' }).click()
	await expect(page.getByText(`Sent again to ${email}.`)).toBeVisible()
	await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBe(2)
	const [first, second] = mailsTo(email)
	expect(second.subject).toBe(first.subject)
	// The new link keeps where the visitor was going.
	expect(second.text).toContain('callbackUrl=%2Flearn%2Fcourse%2Fintro-to-web')
})

test('the API documentation has one main landmark', async ({ page }, info) => {
	const admin = await acmeAccount(info, 'i40-docs', { role: 'tenant_admin' })
	await signInAs(page, ACME, admin, '/admin/api-docs')
	if (info.project.name === 'js')
		await expect(page.locator('#swagger-ui .opblock-summary-path').first()).toBeVisible({ timeout: 15_000 })
	await expect(page.getByRole('main')).toHaveCount(1)
})
