import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { hashPassword } from '#app/accounts/password.server.ts'
import { at, DEMO_PASSWORD, e2eDatabase, signInAs, uniqueEmail } from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'

/**
 * The JavaScript-off run is the seeded newbie@acme.test; the JavaScript-on run
 * of the same flow uses a fresh student, because both projects share one
 * database and run at the same time.
 */
async function learnerFor(info: TestInfo, name: string) {
	if (info.project.name === 'no-js' && name === 'newbie') return 'newbie@acme.test'
	const email = uniqueEmail(info, name)
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	await createUser(db, {
		tenant_id: acme.id,
		email,
		name: 'Second Learner',
		role: 'student',
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()
	return email
}

async function enroll(page: Page) {
	await page.goto(at(ACME, '/learn'))
	await page.getByRole('link', { name: 'Introduction to the Web' }).click()
	await expect(page).toHaveURL(at(ACME, COURSE))
	await page.getByRole('button', { name: 'Enroll for free' }).click()
	await expect(page.getByText('You are enrolled. Welcome to the course!')).toBeVisible()
}

async function completeLessons(page: Page) {
	await page.goto(at(ACME, `${COURSE}/entry/what-is-http`))
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'HTML forms', level: 1 })).toBeVisible()
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'Basics quiz', level: 1 })).toBeVisible()
}

async function answer(page: Page, right: boolean) {
	await page.getByLabel(right ? 'POST' : 'GET', { exact: true }).check()
	await page.getByLabel(right ? 'True' : 'False', { exact: true }).check()
	await page.getByLabel('Your answer').fill(right ? ' Form ' : 'div')
	await page.getByRole('button', { name: /Submit answers/ }).click()
}

test('a learner enrolls, meets a locked entry, completes lessons, fails then passes the quiz, and sees the dashboard', async ({
	page,
}, info) => {
	await signInAs(page, ACME, await learnerFor(info, 'newbie'), '/learn/dashboard')
	await enroll(page)
	await expect(page.getByText('0 of 5 entries complete')).toBeVisible()

	// A deep link to a locked entry lands on the first open one, saying why.
	await page.goto(at(ACME, `${COURSE}/entry/basics-quiz`))
	await expect(page).toHaveURL(at(ACME, `${COURSE}/entry/what-is-http?notice=complete_previous_in_module`))
	await expect(page.getByText('That entry is locked')).toBeVisible()

	await completeLessons(page)
	await answer(page, false)
	await expect(page.getByText('Attempt 1: 0% · 0 of 3 correct · Not passed')).toBeVisible()
	await answer(page, true)
	await expect(page.getByText('Attempt 2: 100% · 3 of 3 correct · Passed')).toBeVisible()

	await page.getByRole('link', { name: 'Progressive enhancement →' }).click()
	await expect(page.getByRole('heading', { name: 'Progressive enhancement', level: 1 })).toBeVisible()

	await page.goto(at(ACME, '/learn/dashboard'))
	const course = page.getByRole('list', { name: 'My courses' })
	await expect(course.getByText('3 of 5 entries complete')).toBeVisible()
	// Said once: the bar is hidden from assistive technology, the text beside it is not.
	await expect(course.getByRole('progressbar')).toHaveCount(0)
	await expect(page.getByRole('link', { name: 'Progressive enhancement' })).toBeVisible()
	await expect(page.getByRole('cell', { name: '100% (passed)' })).toBeVisible()
	await expect(page.getByRole('cell', { name: '0% (not passed)' })).toBeVisible()

	// The course home offers to continue where the learner left off.
	await page.goto(at(ACME, COURSE))
	await page.getByRole('link', { name: 'Continue where you left off' }).click()
	await expect(page).toHaveURL(at(ACME, `${COURSE}/entry/progressive-enhancement`))
})

test('a second learner uses every attempt and the quiz becomes review-only', async ({ page }, info) => {
	await signInAs(page, ACME, await learnerFor(info, 'second'), '/learn/dashboard')
	await enroll(page)
	await completeLessons(page)
	for (let i = 1; i <= 3; i++) {
		await answer(page, false)
		await expect(page.getByText(`Attempt ${i}: 0% · 0 of 3 correct · Not passed`)).toBeVisible()
	}
	await expect(page.getByText('This quiz is now review-only')).toBeVisible()
	await expect(page.getByRole('button', { name: /Submit answers/ })).toHaveCount(0)
	// The last allowed attempt completed the entry: the next module is open.
	await page.goto(at(ACME, '/learn/dashboard'))
	await expect(page.getByText('3 of 5 entries complete')).toBeVisible()
})
