// `npm run screenshots`: the main pages at phone and desktop widths, written to
// .tmp/screenshots/ (git-ignored) for a person to look at. Not part of `npm test`.
import { hashPassword } from '#app/utils/password.server.ts'
import { findTenantBySlug } from '#db/tenants.ts'
import { createUser } from '#db/users.ts'
import { expect, test, type Page } from '@playwright/test'
import { at, DEMO_PASSWORD, e2eDatabase, signInAs } from './support.ts'

const ACME = 'acme.localhost'
const WIDTHS = { phone: { width: 360, height: 800 }, desktop: { width: 1280, height: 900 } }

async function shoot(page: Page, name: string) {
	for (const [label, size] of Object.entries(WIDTHS)) {
		await page.setViewportSize(size)
		await page.screenshot({ path: `.tmp/screenshots/${name}-${label}.png`, fullPage: true })
	}
}

test('screenshots of the main pages', async ({ page }) => {
	test.setTimeout(120_000)
	await page.goto(at(ACME, '/learn'))
	await shoot(page, 'catalogue')

	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const email = `screenshots-${Date.now()}@acme.test`
	await createUser(db, {
		tenant_id: acme.id,
		email,
		name: 'Sam Screens',
		role: 'student',
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()
	await signInAs(page, ACME, email, '/learn/dashboard')
	await page.goto(at(ACME, '/learn/course/intro-to-web/enroll'))
	await page.getByRole('button', { name: 'Enroll for free' }).click()
	await shoot(page, 'course-home')
	await page.goto(at(ACME, '/learn/course/intro-to-web/entry/what-is-http'))
	await shoot(page, 'entry')
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'HTML forms', level: 1 })).toBeVisible()
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'Basics quiz', level: 1 })).toBeVisible()
	await page.getByLabel('GET', { exact: true }).check()
	await page.getByLabel('True', { exact: true }).check()
	await page.getByLabel('Your answer').fill('form')
	await page.getByRole('button', { name: /Submit answers/ }).click()
	await expect(page.getByText(/Attempt 1:/)).toBeVisible()
	await shoot(page, 'quiz-result')
	await page.goto(at(ACME, '/learn/dashboard'))
	await shoot(page, 'dashboard')

	await page.context().clearCookies()
	await signInAs(page, ACME, 'admin@acme.test', '/admin')
	await page.goto(at(ACME, '/admin/users'))
	await shoot(page, 'admin-users')
	await page.goto(at(ACME, '/admin/courses/intro-to-web/dashboard'))
	await shoot(page, 'course-dashboard')
	await page.goto(at(ACME, '/admin/audit'))
	await shoot(page, 'admin-audit')

	await page.context().clearCookies()
	await signInAs(page, 'localhost', 'root@platform.test', '/admin/tenants')
	await shoot(page, 'admin-tenants')
	await page.goto(at('localhost', '/admin/users'))
	await shoot(page, 'admin-users-apex')
})
