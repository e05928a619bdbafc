import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { findUserByEmail } from '#db/users.ts'
import { acmeAccount, e2eDatabase, signInAs } from './support.ts'
import { findTenantBySlug, recordAttempt } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'

// Issue 39 part A (decision 0037): course staff give the learner (every quiz attempt failed,
// the course completed but not passed) another attempt from the roster, on a phone, with JavaScript
// on and off (the js and no-js projects); the learner's course home then offers the quiz again.
test.use({ viewport: { width: 360, height: 780 } })
test.describe.configure({ timeout: 90_000 })

test('staff grant a learner who failed every attempt another one; the learner sees the quiz open again', async ({
	page,
	browser,
	javaScriptEnabled,
}, info) => {
	const email = await acmeAccount(info, 'second-chance', { locale: 'en' })
	const db = e2eDatabase()
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		const user = (await findUserByEmail(db, acme.id, email))!
		const scope = { tenantId: acme.id, userId: user.id }
		await putEnrollment(db, scope, COURSE, 'completed')
		for (const slug of ['what-is-http', 'html-forms', 'basics-quiz', 'progressive-enhancement', 'build-a-form'])
			await markEntryCompleteRow(db, scope, COURSE, slug)
		for (let i = 0; i < 3; i++)
			await recordAttempt(db, scope, COURSE, 'basics-quiz', 3, { score: 0, passed: false, answers: {}, feedback: [] })
	} finally {
		await db.close()
	}

	await signInAs(page, ACME, 'author@acme.test', `/admin/courses/${COURSE}/dashboard`)
	await page.getByRole('link', { name: new RegExp(email) }).click()
	await expect(page.getByRole('heading', { level: 1 })).toContainText('in Introduction to the Web')
	const quizRow = page.getByRole('row').filter({ hasText: 'Basics quiz' })
	await expect(quizRow).toContainText('3 of 3 attempts used')
	// Refused without a reason, beside the form, the page as it was.
	await quizRow.getByRole('button', { name: 'Grant attempts' }).click()
	await expect(page.locator('.field-error')).toHaveText('Say why, in at most 500 characters.')
	await page.getByRole('row').filter({ hasText: 'Basics quiz' }).getByLabel('Reason').fill('The network failed twice.')
	await page.getByRole('row').filter({ hasText: 'Basics quiz' }).getByRole('button', { name: 'Grant attempts' }).click()
	// Every attempt used: the quiz showed its answers. Staff are told and asked to confirm (decision 0054).
	const confirm = page.locator('.confirm')
	await expect(confirm).toContainText('has been shown the correct answers of “Basics quiz”')
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
	await confirm.getByRole('button', { name: 'Grant anyway' }).click()
	await expect(page.getByText('More attempts granted. The learner is told by email.')).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: 'Basics quiz' })).toContainText('3 of 4 attempts used')
	await expect(page.getByText('The network failed twice.')).toBeVisible()
	// The form starts afresh after the grant, with JavaScript too (no reason left over for another one).
	await expect(page.getByRole('row').filter({ hasText: 'Basics quiz' }).getByLabel('Reason')).toHaveValue('')
	const width = await page.evaluate(() => document.documentElement.scrollWidth)
	expect(width).toBeLessThanOrEqual(360)
	if (javaScriptEnabled) {
		const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
		expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
	}

	// The learner: not passed, with the quiz to pass, and the quiz taking answers again.
	const learner = await browser.newPage({ viewport: { width: 360, height: 780 } })
	await signInAs(learner, ACME, email, `/learn/course/${COURSE}`)
	await expect(learner.locator('#result-heading')).toContainText('Not passed')
	// The course's own result beside its progress (issue 52); the quiz open again, not passed yet.
	await expect(learner.locator('.progress')).toContainText('Not passed')
	await expect(learner.locator('li.entry').filter({ hasText: 'Basics quiz' })).toContainText('Quiz · Open · Not passed')
	await expect(learner.locator('.result-remaining')).toContainText('pass this quiz')
	await learner.locator('.result-remaining').getByRole('link', { name: 'Basics quiz' }).click()
	await expect(learner.getByText('3 of 4 attempts used')).toBeVisible()
	await expect(learner.locator('.quiz-standing')).toHaveText('Not passed score that counts: 0% (your best attempt)')
	await expect(learner.getByRole('button', { name: /submit/i })).toBeVisible()
	await learner.close()
})
