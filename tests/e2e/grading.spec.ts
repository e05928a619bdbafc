import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { recordSubmissionSteps } from '#db/submissions.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserByEmail } from '#db/users.ts'
import { acmeAccount, e2eDatabase, mailedLink, signInAs } from './support.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const QUEUE = '/admin/courses/intro-to-web/submissions'

// A course admin grades on a phone, with JavaScript on and off (the js and no-js projects).
test.use({ viewport: { width: 360, height: 780 } })
test.describe.configure({ timeout: 90_000 })

/** A learner of this run with one hand-in of the demo's graded assignment (the hand-in form is the learner suite's). */
async function learnerWithHandIn(info: Parameters<typeof acmeAccount>[0]) {
	const email = await acmeAccount(info, 'grading-learner', { enrolledIn: 'intro-to-web', locale: 'es' })
	const db = e2eDatabase()
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		const user = (await findUserByEmail(db, acme.id, email))!
		await inTransaction(db, (tx) =>
			recordSubmissionSteps(tx, { tenantId: acme.id, userId: user.id }, 'intro-to-web', 'build-a-form', {
				text: 'My form has a label for every field.\n<script>alert(1)</script>',
				link: 'https://example.test/my-form',
				fileIds: [],
			}),
		)
	} finally {
		await db.close()
	}
	return email
}

async function expectAccessible(page: Page, label: string) {
	const results = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
		.analyze()
	const summary = results.violations.map(
		(v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
	)
	expect(summary, label).toEqual([])
}

async function expectNoSidewaysScroll(page: Page, label: string) {
	const width = await page.evaluate(() => document.documentElement.scrollWidth)
	expect(width, label).toBeLessThanOrEqual(360)
}

test('a course admin opens the queue from the dashboard and grades with feedback', async ({
	page,
	javaScriptEnabled,
}, info) => {
	const learner = await learnerWithHandIn(info)
	await signInAs(page, ACME, 'author@acme.test', '/admin/courses/intro-to-web/dashboard')
	await page.getByRole('link', { name: 'Submissions', exact: true }).click()
	await expect(page).toHaveURL(new RegExp(`${QUEUE}$`))
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Submissions · Introduction to the Web')
	await expectNoSidewaysScroll(page, 'queue')
	if (javaScriptEnabled) await expectAccessible(page, 'queue')

	// Only what awaits grading, through the GET filter form.
	await page.getByLabel('Status').selectOption('submitted')
	await page.getByRole('button', { name: 'Filter' }).click()
	await expect(page).toHaveURL(/status=submitted/)
	const row = page.getByRole('row').filter({ hasText: learner })
	await expect(row).toContainText('awaiting grading')
	await row.getByRole('link').click()

	await expect(page.getByRole('heading', { level: 1 })).toContainText('Build a sign-up form')
	// The hand-in is shown as text: the script is words on the page, not an element.
	await expect(page.getByText('<script>alert(1)</script>')).toBeVisible()
	await expect(page.getByRole('link', { name: 'https://example.test/my-form' })).toHaveAttribute(
		'rel',
		'noopener noreferrer nofollow ugc',
	)
	await expectNoSidewaysScroll(page, 'grading page')
	if (javaScriptEnabled) await expectAccessible(page, 'grading page')

	// Out of range first: the field says so and keeps the feedback typed.
	await page.getByLabel('Score (0 to 10)').fill('11')
	await page.getByLabel('Feedback to the learner').fill('Clear labels. Add a submit button next time.')
	await page.getByRole('button', { name: 'Grade', exact: true }).click()
	await expect(page.getByText('Enter a whole number from 0 to the maximum score.')).toBeVisible()
	await expect(page.getByLabel('Feedback to the learner')).toHaveValue('Clear labels. Add a submit button next time.')
	if (javaScriptEnabled) await expectAccessible(page, 'grading page with an error')

	await page.getByLabel('Score (0 to 10)').fill('8')
	await page.getByRole('button', { name: 'Grade', exact: true }).click()
	await expect(page).toHaveURL(new RegExp(`${QUEUE}\\?notice=graded$`))
	await expect(page.getByText('Graded. The learner is being emailed.')).toBeVisible()
	const graded = page.getByRole('row').filter({ hasText: learner })
	await expect(graded).toContainText('graded')
	await expect(graded).toContainText('8 / 10')

	// The learner hears of it in their language, with a link to the entry.
	expect(await mailedLink(learner, '/es/learn/')).toBe('/es/learn/course/intro-to-web/entry/build-a-form')

	// The graded submission reads as graded, with no form left.
	await graded.getByRole('link').click()
	await expect(page.getByText('8 / 10 · passed')).toBeVisible()
	await expect(page.getByText('Clear labels. Add a submit button next time.')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Grade', exact: true })).toHaveCount(0)
})
