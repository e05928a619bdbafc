import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { hashPassword } from '#app/accounts/password.server.ts'
import { at, DEMO_PASSWORD, e2eDatabase, signInAs, uniqueEmail } from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/** A fresh Acme account of this test and project (the js and no-js runs share one database). */
async function acmeUser(info: TestInfo, name: string, role: 'student' | 'tenant_admin' = 'student') {
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const user = await createUser(db, {
		tenant_id: acme.id,
		email: uniqueEmail(info, name),
		name: `Enrollee ${name} ${info.project.name}`,
		role,
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()
	return user
}

/** The page never scrolls sideways: tables scroll inside their own region. */
async function fitsThePhone(page: Page, label: string) {
	const sizes = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }))
	expect(sizes.page, label).toBeLessThanOrEqual(sizes.screen)
}

test.describe('on a 360 px phone', () => {
	test.use({ viewport: { width: 360, height: 780 } })

	test('an admin enrolls learners by email and by CSV, reads the report, cancels (confirmed) and re-enrolls on the user page', async ({
		page,
	}, info) => {
		const [typed, uploaded] = [await acmeUser(info, 'typed'), await acmeUser(info, 'uploaded')]
		// An admin of its own: the adminMutation limit and sign-ins count per admin.
		const admin = await acmeUser(info, 'admin', 'tenant_admin')
		await signInAs(page, ACME, admin.email, '/admin/courses/intro-to-web/dashboard')
		await page.getByRole('link', { name: 'Enroll learners' }).click()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enroll learners · Introduction to the Web')

		// Nothing given: the error is beside the field.
		await page.getByRole('button', { name: 'Enroll', exact: true }).click()
		await expect(page.getByText('Enter at least one email address.')).toBeVisible()

		const nobody = `nobody-${info.project.name}@acme.test`
		await page.getByLabel('Email addresses').fill(`${typed.email}\n${nobody}, not an address`)
		await page.getByRole('button', { name: 'Enroll', exact: true }).click()
		const report = page.getByRole('region', { name: 'Enrollment report' })
		await expect(report.getByRole('row')).toHaveCount(4)
		await expect(report.getByRole('row', { name: typed.email })).toContainText('Enrolled')
		await expect(report.getByRole('row', { name: nobody })).toContainText(
			'No account yet: invited, and enrolled on accepting.',
		)
		await expect(report.getByRole('row', { name: 'not an address' })).toContainText('Not an email address.')
		await expect(page.getByText('Enrolled: 1')).toBeVisible()
		await fitsThePhone(page, 'report of the typed list')

		await page.getByLabel('CSV file').setInputFiles({
			name: 'learners.csv',
			mimeType: 'text/csv',
			buffer: Buffer.from(`\uFEFFname,email\r\n"${uploaded.name}",${uploaded.email}\r\nAgain,${typed.email}\r\n`),
		})
		await page.getByRole('button', { name: 'Upload and enroll' }).click()
		await expect(report.getByRole('row', { name: uploaded.email })).toContainText('Enrolled')
		await expect(report.getByRole('row', { name: typed.email })).toContainText('Already enrolled (active)')
		await fitsThePhone(page, 'report of the CSV file')

		// The report links each person to their page, which lists the enrollment.
		await report.getByRole('link', { name: typed.email }).click()
		await expect(page.getByRole('heading', { name: typed.name, level: 1 })).toBeVisible()
		const enrollments = page.getByRole('region', { name: 'Enrollments' })
		await expect(enrollments.getByRole('row', { name: /Introduction to the Web/ })).toContainText('active')
		await expect(enrollments).toContainText('0 of 5 entries')
		await fitsThePhone(page, 'user page')

		const cancel = page.getByRole('button', { name: 'Cancel enrollment in Introduction to the Web' })
		await cancel.click()
		await expect(page.getByRole('alert')).toContainText(
			`Cancel the enrollment of ${typed.name} in Introduction to the Web?`,
		)
		await page.getByRole('alert').getByRole('link', { name: 'Keep enrollment' }).click()
		await expect(page.getByRole('alert')).toHaveCount(0)
		await expect(enrollments.getByRole('row', { name: /Introduction to the Web/ })).toContainText('active')
		await cancel.click()
		await page.getByRole('alert').getByRole('button', { name: 'Cancel enrollment' }).click()
		await expect(page.getByText('The enrollment was cancelled.')).toBeVisible()
		await expect(enrollments.getByRole('row', { name: /Introduction to the Web/ })).toContainText('cancelled')

		await page.getByRole('button', { name: 'Enroll in Introduction to the Web again' }).click()
		await expect(page.getByText('They are enrolled again.')).toBeVisible()
		await expect(enrollments.getByRole('row', { name: /Introduction to the Web/ })).toContainText('active')

		// The audit log names the learner of each enrollment row.
		await page.goto(at(ACME, `/admin/audit?action=enrollment.&actor=${encodeURIComponent(admin.email)}`))
		for (const action of ['enrollment.admin_enrolled', 'enrollment.cancelled', 'enrollment.admin_reactivated'])
			await expect(page.getByRole('row').filter({ hasText: action }).filter({ hasText: typed.email })).toHaveCount(1)
	})
})
