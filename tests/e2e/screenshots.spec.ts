// `npm run screenshots`: the main pages at phone and desktop widths, written to
// .tmp/screenshots/ (git-ignored) for a person to look at. Not part of `npm test`.
import { hashPassword } from '#app/accounts/password.server.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { findUserByEmail } from '#db/users.ts'
import { expect, test, type Page } from '@playwright/test'
import {
	acmeAccount,
	at,
	BEFORE_QUIZ,
	DEMO_PASSWORD,
	e2eDatabase,
	mailedLink,
	passIntroQuiz,
	signInAs,
	uniqueEmail,
} from './support.ts'
import { createUser, findTenantBySlug, recordAttempt } from '#tests/support/repository.ts'

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
	await expect(page.getByRole('heading', { name: 'Enrollment report' })).toBeVisible()
	await shoot(page, 'admin-enroll-report')
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

test('screenshots of a learner’s sign-up, confirmation, account and review-only quiz', async ({ page }, info) => {
	test.setTimeout(180_000)
	const email = uniqueEmail(info, 'shots-signup')
	await page.goto(at(ACME, '/learn/sign-up'))
	await page.getByLabel('Name').fill('Robin Review')
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('first-good-secret')
	await page.getByRole('button', { name: 'Create account' }).click()
	await expect(page.getByText('Check your email')).toBeVisible()
	await shoot(page, 'sign-up-check-email')

	// The confirmation link, opened twice: the second time it is already confirmed.
	const link = await mailedLink(email, '/learn/verify/')
	await page.goto(at(ACME, link))
	await shoot(page, 'verify-confirm')
	await page.getByRole('button', { name: 'Confirm and sign in' }).click()
	await expect(page.getByText('Your email address is confirmed.')).toBeVisible()
	await page.goto(at(ACME, link))
	await expect(page.getByText('Your email address is already confirmed.')).toBeVisible()
	await shoot(page, 'verify-already-confirmed')

	// The account page: the name and password forms, then each with its error.
	await page.goto(at(ACME, '/learn/account'))
	await shoot(page, 'account')
	const nameForm = page.locator('form', { has: page.getByRole('button', { name: 'Save name' }) })
	await nameForm.getByRole('textbox').fill(' ')
	await nameForm.getByRole('button', { name: 'Save name' }).click()
	await expect(nameForm.locator('.field-error')).toBeVisible()
	const passwordForm = page.locator('form', { has: page.getByRole('button', { name: 'Save password' }) })
	await passwordForm.getByLabel('Current password').fill('not-the-password')
	await passwordForm.getByLabel('New password').fill('second-good-secret')
	await passwordForm.getByRole('button', { name: 'Save password' }).click()
	await expect(page.getByText('That is not your current password')).toBeVisible()
	await shoot(page, 'account-password-error')
	await nameForm.getByRole('textbox').fill(' ')
	await nameForm.getByRole('button', { name: 'Save name' }).click()
	await expect(nameForm.locator('.field-error')).toBeVisible()
	await shoot(page, 'account-name-error')

	// Every attempt used: the quiz is review-only, with each attempt's answers and feedback.
	await page.goto(at(ACME, '/learn/course/intro-to-web/enroll'))
	await page.getByRole('button', { name: 'Enroll for free' }).click()
	await page.goto(at(ACME, '/learn/course/intro-to-web/entry/what-is-http'))
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'HTML forms', level: 1 })).toBeVisible()
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'Basics quiz', level: 1 })).toBeVisible()
	const attempts = [
		['GET', 'False', 'div'],
		['POST', 'False', 'span'],
		['POST', 'True', 'fieldset'],
	]
	for (const [i, [method, claim, element]] of attempts.entries()) {
		await page.getByLabel(method, { exact: true }).check()
		await page.getByLabel(claim, { exact: true }).check()
		await page.getByLabel('Your answer').fill(element)
		await page.getByRole('button', { name: /Submit answers/ }).click()
		await expect(page.getByText(`Attempt ${i + 1}: `, { exact: false }).first()).toBeVisible()
	}
	await expect(page.getByText('This quiz is now review-only')).toBeVisible()
	await shoot(page, 'quiz-review-only')

	// Signed out: the home page says so.
	await page.goto(at(ACME, '/learn/sign-out'))
	await page.getByRole('button', { name: 'Sign out' }).click()
	await expect(page.getByText('You have been signed out.')).toBeVisible()
	await shoot(page, 'home-signed-out')
})

test('screenshots of staff pages: preview, confirmation steps, invitations, course admins, admin home', async ({
	page,
	browser,
}, info) => {
	test.setTimeout(180_000)
	// The course admin: their course's dashboard and a quiz tried in preview.
	await signInAs(page, ACME, 'author@acme.test', '/admin/courses/intro-to-web/dashboard')
	await shoot(page, 'course-dashboard-course-admin')
	await page.goto(at(ACME, '/learn/course/intro-to-web/entry/basics-quiz?preview=1'))
	await page.getByLabel('GET', { exact: true }).check()
	await page.getByLabel('True', { exact: true }).check()
	await page.getByLabel('Your answer').fill('form')
	await page.getByRole('button', { name: 'Check answers (nothing is saved)' }).click()
	await expect(page.getByText(/^Preview: 67%/)).toBeVisible()
	await shoot(page, 'quiz-preview-feedback')

	// A tenant admin of its own (admin mutations are limited per admin).
	await page.context().clearCookies()
	const admin = await acmeAccount(info, 'shots-admin', { role: 'tenant_admin' })
	const learner = await acmeAccount(info, 'shots-learner', { enrolledIn: 'intro-to-web' })
	const promoted = await acmeAccount(info, 'shots-tenant-admin', { role: 'tenant_admin' })
	const invitee = uniqueEmail(info, 'shots-invitee')
	// A draft course as staff preview it: read-only, marked as a draft.
	await signInAs(page, ACME, admin, '/admin/courses')
	await page.goto(at(ACME, '/learn/course/draft-course?preview=1'))
	await expect(page.getByRole('status').filter({ hasText: 'Draft.' })).toBeVisible()
	await shoot(page, 'draft-course-preview')
	await page.goto(at(ACME, '/admin/users/invite'))

	// The invite form: its error, an address that already has an account, then a pending invitation.
	await page.getByRole('button', { name: 'Send invitation' }).click()
	await expect(page.getByText('Enter the email address of the person you are inviting')).toBeVisible()
	await shoot(page, 'invite-error')
	await page.getByLabel('Email').fill(learner)
	await page.getByLabel('Role').selectOption('student')
	await page.getByRole('button', { name: 'Send invitation' }).click()
	// Inviting a learner as a learner gives nothing: no invitation, no mail, and the page says so (decision 0040).
	await expect(page.getByText('This address already has an account here with this role or a higher one')).toBeVisible()
	await shoot(page, 'invite-member-notice')
	await page.getByLabel('Email').fill(invitee)
	await page.getByLabel('Role').selectOption('course_admin')
	await page.getByLabel('Course', { exact: true }).selectOption('intro-to-web')
	await page.getByRole('button', { name: 'Send invitation' }).click()
	await expect(page.getByText(`Invitation sent to ${invitee}`)).toBeVisible()

	// The invitee's acceptance page, in a browser of their own.
	const invitation = await browser.newContext()
	const invited = await invitation.newPage()
	await invited.goto(at(ACME, await mailedLink(invitee, '/invite/')))
	await expect(invited.getByRole('button', { name: 'Accept invitation' })).toBeVisible()
	await shoot(invited, 'invitation-accept')
	await invitation.close()

	// Pending invitations, and the revoke's confirmation step.
	await page.goto(at(ACME, '/admin/users/invitations'))
	await expect(page.getByRole('cell', { name: invitee, exact: true })).toBeVisible()
	await shoot(page, 'admin-invitations')
	await page.getByRole('button', { name: `Revoke the invitation to ${invitee}` }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await shoot(page, 'admin-invitations-revoke-confirm')

	// The user page's confirmation steps: cancel an enrollment, deactivate, a lower role.
	await page.goto(at(ACME, `/admin/users?q=${encodeURIComponent(learner)}`))
	await page.getByRole('link', { name: 'E2E shots-learner' }).first().click()
	await page.getByRole('button', { name: 'Cancel enrollment in Introduction to the Web' }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await shoot(page, 'user-cancel-enrollment-confirm')
	await page.getByRole('alert').getByRole('link', { name: 'Keep enrollment' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await page.getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await shoot(page, 'user-deactivate-confirm')
	await page.goto(at(ACME, `/admin/users?q=${encodeURIComponent(promoted)}`))
	await page.getByRole('link', { name: 'E2E shots-tenant-admin' }).first().click()
	// Hydrating a server-rendered select puts back its default: choose only once the scripts have run.
	await page.waitForLoadState('networkidle')
	await page.getByLabel('Role').selectOption('student')
	await page.getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await shoot(page, 'user-lower-role-confirm')

	// The course's admins page and its revoke confirmation (asked only: nothing is revoked).
	await page.goto(at(ACME, '/admin/courses/intro-to-web/admins'))
	await shoot(page, 'course-admins')
	await page.getByRole('button', { name: 'Revoke Arthur Author' }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await shoot(page, 'course-admins-revoke-confirm')

	// The admin home with this admin's recent activity.
	await page.goto(at(ACME, '/admin'))
	await expect(page.getByRole('heading', { name: 'Recent activity' })).toBeVisible()
	await shoot(page, 'admin-home')

	// The super admin's tenants page: suspending and archiving ask first (asked only: nothing changes).
	await page.context().clearCookies()
	await signInAs(page, 'localhost', 'root@platform.test', '/admin/tenants')
	await page.getByRole('button', { name: 'Suspend Globex University' }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await shoot(page, 'admin-tenants-suspend-confirm')
	await page.goto(at('localhost', '/admin/tenants'))
	await page.getByRole('button', { name: 'Archive Globex University' }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await shoot(page, 'admin-tenants-archive-confirm')
})

test('the certificate: screenshots, its verification page, and print previews on A4 and Letter', async ({
	page,
}, info) => {
	test.setTimeout(120_000)
	const learner = await acmeAccount(info, 'screens-certified', { enrolledIn: 'intro-to-web', completed: BEFORE_QUIZ })
	await signInAs(page, ACME, learner, '/learn/dashboard')
	const mine = await passIntroQuiz(page)
	await shoot(page, 'dashboard-certificates')
	await page.goto(at(ACME, mine))
	await shoot(page, 'certificate')
	const verification = await page.goto(at(ACME, mine.replace('/learn/certificates/', '/certificates/')))
	expect(verification?.status()).toBe(200)
	await expect(page.getByText('Introduction to the Web').first()).toBeVisible()
	await shoot(page, 'certificate-verification')
	await page.goto(at(ACME, mine))
	// What a person gets from the browser's Print command (print CSS, no script), on both paper sizes.
	for (const format of ['A4', 'Letter'] as const) {
		await page.emulateMedia({ media: 'print' })
		const pdf = await page.pdf({
			path: `.tmp/screenshots/certificate-${format.toLowerCase()}.pdf`,
			format,
			printBackground: true,
		})
		// One page, with the certificate on it (a PDF of a blank page is a few hundred bytes).
		expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
		expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1)
		expect(pdf.length).toBeGreaterThan(5_000)
	}
	const admin = await acmeAccount(info, 'screens-cert-admin', { role: 'tenant_admin' })
	await page.emulateMedia({ media: 'screen' })
	await signInAs(page, ACME, admin, '/admin/courses/intro-to-web/certificates')
	await expect(page.getByRole('cell', { name: learner })).toBeVisible()
	await shoot(page, 'admin-certificates')
})

test('the staff learner page of a learner who failed every attempt, before and after a second chance', async ({
	page,
}, info) => {
	test.setTimeout(120_000)
	const email = await acmeAccount(info, 'screens-failed', { locale: 'en' })
	const db = e2eDatabase()
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		const user = (await findUserByEmail(db, acme.id, email))!
		const scope = { tenantId: acme.id, userId: user.id }
		await putEnrollment(db, scope, 'intro-to-web', 'completed')
		for (const slug of [...BEFORE_QUIZ, 'basics-quiz']) await markEntryCompleteRow(db, scope, 'intro-to-web', slug)
		for (let i = 0; i < 3; i++)
			await recordAttempt(db, scope, 'intro-to-web', 'basics-quiz', 3, {
				score: 33,
				passed: false,
				answers: {},
				feedback: [],
			})
	} finally {
		await db.close()
	}
	await signInAs(page, ACME, 'author@acme.test', '/admin/courses/intro-to-web/dashboard')
	await page.getByRole('link', { name: new RegExp(email) }).click()
	await expect(page.getByRole('heading', { level: 1 })).toContainText('in Introduction to the Web')
	await shoot(page, 'staff-learner-not-passed')
	const quizRow = page.getByRole('row').filter({ hasText: 'Basics quiz' })
	await quizRow.getByLabel('Reason').fill('The network failed twice.')
	await quizRow.getByRole('button', { name: 'Grant attempts' }).click()
	// Every attempt used, so the quiz showed its answers: staff confirm first (decision 0054).
	await shoot(page, 'staff-learner-second-chance-confirm')
	await page.locator('.confirm').getByRole('button', { name: 'Grant anyway' }).click()
	await expect(page.getByText('More attempts granted. The learner is told by email.')).toBeVisible()
	await shoot(page, 'staff-learner-second-chance')
})
