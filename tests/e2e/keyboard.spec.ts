import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { hashPassword } from '#app/accounts/password.server.ts'
import { acmeAccount, at, DEMO_PASSWORD, e2eDatabase, signInAs, uniqueEmail } from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/** What has focus: its accessible text and whether a focus indicator is drawn. */
function focused(page: Page) {
	return page.evaluate(() => {
		const el = document.activeElement as HTMLElement | null
		if (!el || el === document.body) return { text: '', tag: '', outline: 'none' }
		const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null
		return {
			text: (label ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
			tag: el.tagName.toLowerCase(),
			outline: getComputedStyle(el).outlineStyle,
		}
	})
}

/** Presses Tab until the focused control's text matches, failing after `limit` presses; every stop must show focus. */
async function tabTo(page: Page, name: string | RegExp, limit = 40) {
	const wanted = typeof name === 'string' ? new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : name
	for (let i = 0; i < limit; i++) {
		await page.keyboard.press('Tab')
		const now = await focused(page)
		if (now.tag) expect(now.outline, `visible focus on "${now.text}"`).not.toBe('none')
		if (wanted.test(now.text)) return
	}
	throw new Error(`Tab never reached ${wanted}`)
}

test('a learner signs in, enrolls and completes a lesson with the keyboard alone', async ({ page }, info) => {
	const email = uniqueEmail(info, 'keys')
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	await createUser(db, {
		tenant_id: acme.id,
		email,
		name: 'Kim Keys',
		role: 'student',
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()

	await page.goto(at(ACME, '/learn/sign-in'))
	await tabTo(page, 'Email')
	await page.keyboard.type(email)
	await tabTo(page, 'Password')
	await page.keyboard.type(DEMO_PASSWORD)
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))

	await tabTo(page, 'Courses')
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(at(ACME, '/learn'))
	await tabTo(page, 'Introduction to the Web')
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(at(ACME, '/learn/course/intro-to-web'))
	await tabTo(page, 'Enroll for free')
	await page.keyboard.press('Space')
	await expect(page.getByText('You are enrolled. Welcome to the course!')).toBeVisible()

	await tabTo(page, /What is HTTP/)
	await page.keyboard.press('Enter')
	await expect(page.getByRole('heading', { name: 'What is HTTP', level: 1 })).toBeVisible()
	await tabTo(page, 'Mark as complete')
	await page.keyboard.press('Enter')
	// A new document, with JavaScript too (learner pages ship none, decision 0106): reading starts at its top.
	await expect(page.getByRole('heading', { name: 'HTML forms', level: 1 })).toBeVisible()
})

// Both on the invitation form, a page that ships JavaScript (the sign-in page ships none: with
// JavaScript on it behaves as it does off, which the no-js run covers).
async function openInvite(page: Page, info: TestInfo) {
	await signInAs(page, ACME, await acmeAccount(info, 'inviter', { role: 'tenant_admin' }), '/admin')
	await page.goto(at(ACME, '/admin/users/invite'))
	await page.getByLabel('Role').selectOption('course_admin')
}

test('after a refused submission, focus lands on the error (JavaScript) or the page starts afresh (no JavaScript)', async ({
	page,
}, info) => {
	await openInvite(page, info)
	await tabTo(page, 'Email')
	await page.keyboard.type(uniqueEmail(info, 'refused'))
	await page.keyboard.press('Enter')
	await expect(page.getByText('A course admin needs a course')).toBeVisible()
	if (info.project.name === 'js') await expect.poll(async () => (await focused(page)).text).toMatch(/^Course/)
})

test('a submit button says it is working while its form is on its way', async ({ page }, info) => {
	await openInvite(page, info)
	// Hold the submission for a moment, as a slow link would.
	await page.route('**/admin/users/invite**', async (route) => {
		if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 800))
		await route.continue()
	})
	await page.getByLabel('Email').fill(uniqueEmail(info, 'pending'))
	await page.getByRole('button', { name: 'Send invitation' }).click({ noWaitAfter: true })
	if (info.project.name === 'js') await expect(page.getByRole('button', { name: 'Working…' })).toBeVisible()
	await expect(page.getByText('A course admin needs a course')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Send invitation' })).toBeVisible()
})
