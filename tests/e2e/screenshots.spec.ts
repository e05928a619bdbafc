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
	await page.goto(at(ACME, '/learn/course/intro-to-web/entry/progressive-enhancement'))
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'Hand in your work' })).toBeVisible()
	await shoot(page, 'assignment')
	await page.getByLabel('Your answer').fill('Every field has a label, and errors show beside the field.')
	await page.getByLabel('Link to your work').fill('https://example.com/sam/sign-up-form-with-a-long-address')
	await page
		.getByLabel('Files')
		.setInputFiles({ name: 'sign-up-form.txt', mimeType: 'text/plain', buffer: Buffer.from('<form></form>') })
	await page.getByRole('button', { name: 'Hand in', exact: true }).click()
	await expect(page.getByText('Submission 1')).toBeVisible()
	await shoot(page, 'assignment-handed-in')
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
	await page.goto(at(ACME, '/admin/courses/intro-to-web/enroll'))
	await page.getByLabel('Email addresses').fill(`${email}\nnobody@acme.test\nnot-an-address`)
	await page.getByRole('button', { name: 'Enroll', exact: true }).click()
	await shoot(page, 'admin-enroll-report')
	await page.goto(at(ACME, '/admin/users/invitations'))
	await shoot(page, 'admin-invitations')
	await page.goto(at(ACME, `/admin/users?q=${encodeURIComponent(email)}`))
	await page.getByRole('link', { name: 'Sam Screens' }).first().click()
	await shoot(page, 'admin-user-learning')
	await page.goto(at(ACME, '/admin/courses/intro-to-web/submissions'))
	await shoot(page, 'grading-queue')
	await page.getByRole('row').filter({ hasText: email }).getByRole('link').click()
	await shoot(page, 'grading-page')
	await page.getByLabel('Score (0 to 10)').fill('8')
	await page.getByLabel('Feedback to the learner').fill('Clear labels. Add a submit button next time.')
	await page.getByRole('button', { name: 'Grade', exact: true }).click()
	await expect(page.getByText('Graded.')).toBeVisible()

	await page.context().clearCookies()
	await signInAs(page, ACME, email, '/learn/course/intro-to-web/entry/build-a-form')
	await shoot(page, 'assignment-graded')
	await page.goto(at(ACME, '/learn/dashboard'))
	await shoot(page, 'dashboard-graded')

	await page.context().clearCookies()
	await signInAs(page, 'localhost', 'root@platform.test', '/admin/tenants')
	await shoot(page, 'admin-tenants')
	await page.goto(at('localhost', '/admin/users'))
	await shoot(page, 'admin-users-apex')
})
