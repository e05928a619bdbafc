import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { hashPassword } from '#app/accounts/password.server.ts'
import { findUserByEmail } from '#db/users.ts'
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
import { createInvitation, createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

// Each test walks a dozen pages and runs axe on each (1 to 3 s a page on a 2-core machine).
// Each test stands alone (its own accounts): they spread over the workers rather than run one after
// another in one of them, which left the suite's last minutes to a single worker.
test.describe.configure({ mode: 'parallel', timeout: 180_000 })

// Every page at a phone's width and a desktop's: reflow, target sizes and contrast change with the layout.
// The tests walk at the phone's width; each check measures the page as it stands at both widths, resized
// in place, so every page, form and state is reached once rather than once per width.
const PHONE = { width: 360, height: 800 }
const DESKTOP = { width: 1280, height: 900 }
test.use({ viewport: PHONE })

/** WCAG 2.2 AA rules of axe-core on the page as it stands, at 360 px and at 1280 px: zero violations. */
async function expectAccessible(page: Page, label: string) {
	// Styled, as a reader sees it: a heading shows before the stylesheet of a page reached by a form's
	// post to another host has loaded, and axe measured the unstyled page once (the skip link inline over
	// the site's name, target-size at 360 px).
	await page.waitForLoadState('load')
	for (const viewport of [PHONE, DESKTOP]) {
		await page.setViewportSize(viewport)
		const results = await new AxeBuilder({ page })
			.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
			.analyze()
		const summary = results.violations.map(
			(v) =>
				`${v.id} (${v.impact}): ${v.nodes
					.map((n) => n.target.join(' '))
					.slice(0, 3)
					.join(', ')}`,
		)
		expect(summary, `${label} at ${viewport.width} px`).toEqual([])
	}
	await page.setViewportSize(PHONE)
}

const PUBLIC_PAGES = [
	'/',
	'/learn',
	'/learn?q=web&tag=html',
	'/learn?q=nothing-matches-this',
	'/learn/course/intro-to-web',
	'/learn/course/advanced-css',
	'/about',
	'/blog',
	'/blog/welcome',
	'/learn/sign-in',
	'/learn/sign-up',
	'/learn/forgot',
	'/learn/magic',
	'/learn/sign-in/error?error=oauth_email_missing',
	'/learn/no-such-page',
]

test('public page types have no accessibility violations', async ({ page }) => {
	for (const path of PUBLIC_PAGES) {
		await page.goto(at(ACME, path))
		await expectAccessible(page, path)
	}
	await page.goto(at('localhost', '/'))
	await expectAccessible(page, 'apex home')
	await page.goto(at('initech.localhost', '/'))
	await expectAccessible(page, 'suspended tenant')
})

test('learner page types have no accessibility violations', async ({ page }) => {
	await signInAs(page, ACME, 'learner@acme.test', '/learn/dashboard')
	for (const path of [
		'/learn/dashboard',
		'/learn/course/intro-to-web',
		'/learn/course/intro-to-web/entry/what-is-http',
		'/learn/course/intro-to-web/entry/html-forms',
		'/learn/account',
		'/learn/sign-out',
	]) {
		await page.goto(at(ACME, path))
		await expectAccessible(page, path)
	}
	// A form with errors beside its fields.
	await page.goto(at(ACME, '/learn/account'))
	await page.getByRole('button', { name: 'Send confirmation link' }).click()
	await expect(page.locator('.field-error').first()).toBeVisible()
	await expectAccessible(page, 'account form with errors')
})

test('the assignment hand-in has no accessibility violations: the form, its errors, the hand-ins and their grade', async ({
	page,
}, info) => {
	const email = await acmeAccount(info, 'a11y-hand-in', {
		enrolledIn: 'intro-to-web',
		completed: ['progressive-enhancement'],
	})
	const path = '/learn/course/intro-to-web/entry/build-a-form'
	await signInAs(page, ACME, email, path)
	await expectAccessible(page, 'hand-in form')
	await page.getByLabel('Link to your work').fill('javascript:alert(1)')
	await page
		.getByLabel('Files')
		.setInputFiles({ name: 'x.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') })
	await page.getByRole('button', { name: 'Hand in', exact: true }).click()
	await expect(page.locator('.field-error').first()).toBeVisible()
	await expectAccessible(page, 'hand-in form with errors')
	await page.getByLabel('Link to your work').fill('https://example.com/form')
	await page.getByLabel('Your answer').fill('Labels on every field.')
	await page.getByRole('button', { name: 'Hand in', exact: true }).click()
	await expect(page.getByText('Submission 1')).toBeVisible()
	await expectAccessible(page, 'hand-in with its submission')
})

test('admin page types have no accessibility violations', async ({ page }, info) => {
	// A tenant admin of its own (sign-ins are limited per address, and the other suites use admin@acme.test).
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const email = uniqueEmail(info, 'a11y-admin')
	await createUser(db, {
		tenant_id: acme.id,
		email,
		name: 'Axe Admin',
		role: 'tenant_admin',
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()
	await signInAs(page, ACME, email, '/admin')
	for (const path of [
		'/admin',
		'/admin/users',
		'/admin/users/invite',
		'/admin/users/invitations',
		'/admin/courses',
		'/admin/courses/intro-to-web/dashboard',
		'/admin/courses/intro-to-web/settings',
		'/admin/courses/intro-to-web/admins',
		'/admin/courses/intro-to-web/announce',
		'/admin/audit',
	]) {
		await page.goto(at(ACME, path))
		await expectAccessible(page, path)
	}
})

test('enrollment pages have no accessibility violations: the form, its errors, its report, the user page and its confirmation', async ({
	page,
}, info) => {
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const passwordHash = await hashPassword(DEMO_PASSWORD)
	const account = (name: string, role: 'student' | 'tenant_admin') =>
		createUser(db, {
			tenant_id: acme.id,
			email: uniqueEmail(info, name),
			name: `Axe ${name}`,
			role,
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
	const admin = await account('a11y-enroller', 'tenant_admin')
	const learner = await account('a11y-enrollee', 'student')
	await db.close()
	await signInAs(page, ACME, admin.email, '/admin/courses/intro-to-web/enroll')
	await expectAccessible(page, 'enroll form')
	await page.getByRole('button', { name: 'Upload and enroll' }).click()
	await expect(page.locator('.field-error')).toBeVisible()
	await expectAccessible(page, 'enroll form with an error')
	await page.getByLabel('Email addresses').fill(`${learner.email}\nnobody@acme.test\n<b>x</b>`)
	await page.getByRole('button', { name: 'Enroll', exact: true }).click()
	await expect(page.getByRole('region', { name: 'Enrollment report' })).toBeVisible()
	await expectAccessible(page, 'enroll report')
	await page.goto(at(ACME, `/admin/users/${learner.id}`))
	await expectAccessible(page, 'user page with enrollments')
	await page.getByRole('button', { name: 'Cancel enrollment in Introduction to the Web' }).click()
	await expect(page.getByRole('alert')).toBeVisible()
	await expectAccessible(page, 'cancel confirmation')
})

test('account pages have no accessibility violations: the sign-up notice, already confirmed, the account forms’ errors', async ({
	page,
}, info) => {
	const email = uniqueEmail(info, 'a11y-signup')
	await page.goto(at(ACME, '/learn/sign-up'))
	await page.getByLabel('Name').fill('Axe Newcomer')
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('first-good-secret')
	await page.getByRole('button', { name: 'Create account' }).click()
	await expect(page.getByText('Check your email')).toBeVisible()
	await expectAccessible(page, 'sign-up done notice')
	const link = await mailedLink(email, '/learn/verify/')
	await page.goto(at(ACME, link))
	await expectAccessible(page, 'verify: the confirm step')
	await page.getByRole('button', { name: 'Confirm and sign in' }).click()
	await expect(page.getByText('Your email address is confirmed.')).toBeVisible()
	await page.goto(at(ACME, link))
	await expect(page.getByText('Your email address is already confirmed.')).toBeVisible()
	await expectAccessible(page, 'verify: already confirmed')

	await page.goto(at(ACME, '/learn/account'))
	const passwordForm = page.locator('form', { has: page.getByRole('button', { name: 'Save password' }) })
	await passwordForm.getByLabel('Current password').fill('not-the-password')
	await passwordForm.getByLabel('New password').fill('second-good-secret')
	await passwordForm.getByRole('button', { name: 'Save password' }).click()
	await expect(page.getByText('That is not your current password')).toBeVisible()
	await expectAccessible(page, 'account: password form with an error')
	const nameForm = page.locator('form', { has: page.getByRole('button', { name: 'Save name' }) })
	await nameForm.getByRole('textbox').fill(' ')
	await nameForm.getByRole('button', { name: 'Save name' }).click()
	await expect(nameForm.locator('.field-error')).toBeVisible()
	await expectAccessible(page, 'account: name form with an error')
})

test('quiz pages have no accessibility violations: feedback after a failed attempt, the review-only list', async ({
	page,
}, info) => {
	const email = await acmeAccount(info, 'a11y-quiz', {
		enrolledIn: 'intro-to-web',
		completed: ['what-is-http', 'html-forms'],
	})
	await signInAs(page, ACME, email, '/learn/course/intro-to-web/entry/basics-quiz')
	for (const attempt of [1, 2, 3]) {
		await page.getByLabel('GET', { exact: true }).check()
		await page.getByLabel('False', { exact: true }).check()
		await page.getByLabel('Your answer').fill('div')
		await page.getByRole('button', { name: /Submit answers/ }).click()
		await expect(page.getByText(`Attempt ${attempt}: 0% · 0 of 3 correct · Not passed`).first()).toBeVisible()
		if (attempt === 1) await expectAccessible(page, 'quiz feedback after a failed attempt')
	}
	await expect(page.getByText('This quiz is now review-only')).toBeVisible()
	await expectAccessible(page, 'review-only quiz with every attempt')
})

test('platform pages have no accessibility violations: tenants and their confirmations, users across tenants', async ({
	page,
}) => {
	await signInAs(page, 'localhost', 'root@platform.test', '/admin/tenants')
	await expectAccessible(page, '/admin/tenants')
	for (const step of ['Suspend', 'Archive']) {
		await page.goto(at('localhost', '/admin/tenants'))
		await page.getByRole('button', { name: `${step} Globex University` }).click()
		await expect(page.getByRole('alert')).toContainText(`${step} Globex University?`)
		await expectAccessible(page, `tenants: ${step.toLowerCase()} confirmation`)
	}
	await page.goto(at('localhost', '/admin/users'))
	await expect(page.getByRole('columnheader', { name: 'Tenant' })).toBeVisible()
	await expectAccessible(page, 'apex /admin/users with the tenant column')
	// The override link's page on the tenant's host: it asks before signing in (decision 0032).
	await page.goto(at('localhost', '/admin/tenants'))
	await page.getByRole('button', { name: 'Open Acme Academy' }).click()
	await expect(page.getByRole('heading', { name: 'Open a tenant’s site' })).toBeVisible()
	await expectAccessible(page, '/admin/enter: the confirm step')
})

test('the course admins’ revoke confirmation and an invitation’s acceptance page have no accessibility violations', async ({
	page,
	browser,
}, info) => {
	const admin = await acmeAccount(info, 'a11y-revoker', { role: 'tenant_admin' })
	await signInAs(page, ACME, admin, '/admin/courses/intro-to-web/admins')
	await page.getByRole('button', { name: 'Revoke Arthur Author' }).click()
	await expect(page.getByRole('alert')).toContainText('Stop Arthur Author administering this course?')
	await expectAccessible(page, 'course admins: revoke confirmation')

	const db = e2eDatabase()
	let raw: string
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		const inviter = (await findUserByEmail(db, acme.id, admin))!
		;({ raw } = await createInvitation(
			{ db },
			{
				tenantId: acme.id,
				email: uniqueEmail(info, 'a11y-invitee'),
				role: 'course_admin',
				courseSlug: 'intro-to-web',
				invitedBy: inviter.id,
			},
		))
	} finally {
		await db.close()
	}
	// A visitor of their own: axe runs in a page of a context the test made.
	const visitor = await browser.newContext({ viewport: PHONE })
	const invitee = await visitor.newPage()
	await invitee.goto(at(ACME, `/invite/${raw}`))
	await expect(invitee.getByRole('button', { name: 'Accept invitation' })).toBeVisible()
	await expectAccessible(invitee, 'a valid invitation’s acceptance page')
	await visitor.close()
})

test('certificate pages have no accessibility violations: the certificate, its verification, the admin list and revocation', async ({
	page,
	browser,
}, info) => {
	const learner = await acmeAccount(info, 'a11y-certified', { enrolledIn: 'intro-to-web', completed: BEFORE_QUIZ })
	await signInAs(page, ACME, learner, '/learn/dashboard')
	const mine = await passIntroQuiz(page)
	await expectAccessible(page, 'dashboard with a certificate')
	await page.goto(at(ACME, mine))
	await expectAccessible(page, 'the learner’s certificate')
	const verifyPath = mine.replace('/learn/certificates/', '/certificates/')
	const visitor = await browser.newContext({ viewport: PHONE })
	const anyone = await visitor.newPage()
	await anyone.goto(at(ACME, verifyPath))
	await expect(anyone.getByText('Valid certificate')).toBeVisible()
	await expectAccessible(anyone, 'verification: valid')
	await anyone.goto(at('globex.localhost', verifyPath))
	await expectAccessible(anyone, 'verification: not ours')

	const admin = await acmeAccount(info, 'a11y-cert-admin', { role: 'tenant_admin' })
	const adminPage = await visitor.newPage()
	await signInAs(adminPage, ACME, admin, '/admin/courses/intro-to-web/certificates')
	await expectAccessible(adminPage, 'admin: a course’s certificates')
	await adminPage.getByRole('row').filter({ hasText: learner }).getByRole('button', { name: 'Revoke' }).click()
	await adminPage.getByRole('button', { name: 'Revoke the certificate' }).click()
	await expect(adminPage.locator('.field-error')).toBeVisible()
	await expectAccessible(adminPage, 'admin: revoke without a reason')
	await adminPage.getByLabel('Reason (recorded in the audit log)').fill('Accessibility check')
	await adminPage.getByRole('button', { name: 'Revoke the certificate' }).click()
	await expect(adminPage.getByText('The certificate was revoked.')).toBeVisible()
	await anyone.goto(at(ACME, verifyPath))
	await expectAccessible(anyone, 'verification: revoked')
	await page.reload()
	await expectAccessible(page, 'the learner’s revoked certificate')
	await visitor.close()
})
