// Issue 24, with JavaScript on and off (the js and no-js projects), on a 360 px phone: the pending
// invitations list (resend, revoke), a role change to course admin with its course, and staff
// trying a quiz in preview. Axe runs where the page can run it (the js project).
import { expect, test } from '@playwright/test'
import { hashPassword } from '#app/accounts/password.server.ts'
import { listProgress } from '#db/learning.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { findUserByEmail } from '#db/users.ts'
import {
	at,
	DEMO_PASSWORD,
	e2eDatabase,
	expectAccessible,
	fitsThePhone,
	mailedLink,
	signInAs,
	uniqueEmail,
} from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

test.use({ viewport: { width: 360, height: 780 } })
// Axe takes 1 to 3 s a page on a 2-core machine.
test.describe.configure({ timeout: 90_000 })

/** Waits for a mailed link under `prefix` to `to` other than `before`. */
async function newLink(to: string, before: string) {
	for (let i = 0; i < 50; i++) {
		const link = await mailedLink(to, '/invite/')
		if (link !== before) return link
		await new Promise((r) => setTimeout(r, 100))
	}
	throw new Error(`no new invitation link to ${to}`)
}

test('a tenant admin lists pending invitations, resends one and revokes another', async ({ page }, info) => {
	const kept = uniqueEmail(info, 'resent')
	const dropped = uniqueEmail(info, 'revoked')
	await signInAs(page, ACME, 'admin@acme.test', '/admin/users/invite')
	for (const email of [kept, dropped]) {
		await page.getByLabel('Email').fill(email)
		await page.getByLabel('Role').selectOption('student')
		await page.getByRole('button', { name: 'Send invitation' }).click()
		await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible()
	}
	const firstLink = await mailedLink(kept, '/invite/')
	const droppedLink = await mailedLink(dropped, '/invite/')

	await page.getByRole('link', { name: 'Pending invitations' }).click()
	await expect(page.getByRole('heading', { name: 'Pending invitations', level: 1 })).toBeVisible()
	const row = (email: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: email }) })
	await expect(row(kept)).toContainText('Ada Admin <admin@acme.test>')
	await expect(row(dropped)).toHaveCount(1)
	await fitsThePhone(page, 'list')
	await expectAccessible(page, info, 'pending invitations')

	await row(kept)
		.getByRole('button', { name: `Resend to ${kept}` })
		.click()
	await expect(page.getByText(`A new invitation is on its way to ${kept}`)).toBeVisible()
	const secondLink = await newLink(kept, firstLink)

	await row(dropped)
		.getByRole('button', { name: `Revoke the invitation to ${dropped}` })
		.click()
	await expect(page.getByRole('alert')).toContainText(`Revoke the invitation to ${dropped}?`)
	await fitsThePhone(page, 'confirm step')
	await expectAccessible(page, info, 'revoke confirmation')
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0)
	await expect(row(dropped)).toHaveCount(1)
	await row(dropped)
		.getByRole('button', { name: `Revoke the invitation to ${dropped}` })
		.click()
	await page.getByRole('alert').getByRole('button', { name: 'Revoke invitation' }).click()
	await expect(page.getByText(`The invitation to ${dropped} was revoked`)).toBeVisible()
	await expect(row(dropped)).toHaveCount(0)
	await expect(row(kept)).toHaveCount(1)

	// The links: the replaced and the revoked one are no longer valid, the new one opens the invitation.
	await page.context().clearCookies()
	for (const link of [firstLink, droppedLink]) {
		await page.goto(at(ACME, link))
		await expect(page.getByRole('heading', { name: 'This invitation is no longer valid' })).toBeVisible()
	}
	await expectAccessible(page, info, 'invitation no longer valid')
	await page.goto(at(ACME, secondLink))
	await expect(page.getByRole('button', { name: 'Accept invitation' })).toBeVisible()
})

test('a tenant admin changes a student to course admin of a course, told first that it needs one', async ({
	page,
}, info) => {
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const target = await createUser(db, {
		tenant_id: acme.id,
		email: uniqueEmail(info, 'promoted'),
		name: `Promoted ${info.project.name}`,
		role: 'student',
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()
	await signInAs(page, ACME, 'admin@acme.test', `/admin/users/${target.id}`)
	await page.getByLabel('Role').selectOption('course_admin')
	await page.getByRole('button', { name: 'Change role' }).click()
	const course = page.getByLabel('Course (for a course admin)')
	await expect(course).toHaveAccessibleDescription('Choose the course they will administer')
	await fitsThePhone(page, 'user page with the error')
	await expectAccessible(page, info, 'course field error')

	await page.getByLabel('Role').selectOption('course_admin')
	await course.selectOption({ label: 'Introduction to the Web' })
	await page.getByRole('button', { name: 'Change role' }).click()
	// A higher role asks first too (issue 40).
	await expect(page.getByRole('alert')).toContainText('from student to course admin?')
	await page.getByRole('alert').getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByText('The role was changed.')).toBeVisible()
	await expect(page.locator('dl.facts')).toContainText('course admin')

	// The new course admin reaches the course's dashboard.
	await page.context().clearCookies()
	await signInAs(page, ACME, target.email, '/admin/courses/intro-to-web/dashboard')
	await expect(page.getByRole('heading', { name: 'Introduction to the Web' })).toBeVisible()
})

test('staff try a quiz in preview and read its feedback, with the answers; nothing is saved', async ({
	page,
}, info) => {
	const path = '/learn/course/intro-to-web/entry/basics-quiz?preview=1'
	await signInAs(page, ACME, 'author@acme.test', '/admin/courses/intro-to-web/dashboard')
	await page.goto(at(ACME, path))
	await page.getByRole('radio', { name: 'GET' }).check()
	await page.getByRole('radio', { name: 'True' }).check()
	await page.getByLabel('Your answer').fill('form')
	await page.getByRole('button', { name: 'Check answers (nothing is saved)' }).click()
	const feedback = page.getByRole('status').filter({ hasText: 'Preview:' })
	await expect(feedback).toContainText('Preview: 67% · 2 of 3 correct · Not passed')
	await expect(feedback).toContainText('Nothing was saved')
	await expect(feedback).toContainText('Correct answer: POST.')
	// Still the preview, with the answers given kept and the wrong one marked.
	await expect(page).toHaveURL(at(ACME, path))
	await expect(page.getByRole('radio', { name: 'GET' })).toBeChecked()
	await expect(page.getByText('Incorrect', { exact: true })).toHaveCount(1)
	await fitsThePhone(page, 'preview feedback')
	await expectAccessible(page, info, 'preview quiz feedback')

	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const author = (await findUserByEmail(db, acme.id, 'author@acme.test'))!
	const scope = { tenantId: acme.id, userId: author.id }
	expect(await listAttempts(db, scope, 'intro-to-web', 'basics-quiz')).toHaveLength(0)
	expect(await listProgress(db, scope, 'intro-to-web')).toHaveLength(0)
	await db.close()
})
