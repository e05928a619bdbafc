// Issue 40 (decision 0040), with JavaScript on and off, on a 360 px phone: a tenant admin invites a
// class at once with a course (a pasted list, then a semicolon CSV with a byte-order mark as Excel
// saves it in fr/de/es/pt), reads the per-row report, and an invitee accepts and finds the course
// already theirs.
import { expect, test, type Page } from '@playwright/test'
import { acmeAccount, at, mailedLink, signInAs, uniqueEmail } from './support.ts'

const ACME = 'acme.localhost'

test.use({ viewport: { width: 360, height: 780 } })
test.describe.configure({ timeout: 90_000 })

/** The page never scrolls sideways on the phone: wide tables scroll inside their region. */
async function fitsThePhone(page: Page, label: string) {
	const { width, screen } = await page.evaluate(() => ({
		width: document.documentElement.scrollWidth,
		screen: window.innerWidth,
	}))
	expect(width, label).toBeLessThanOrEqual(screen)
}

test('an admin invites a class with a course; an invitee accepts and is enrolled', async ({ page, browser }, info) => {
	const admin = await acmeAccount(info, 'onboarder', { role: 'tenant_admin' })
	const member = await acmeAccount(info, 'already-here')
	const [first, second] = [uniqueEmail(info, 'class-a'), uniqueEmail(info, 'class-b')]
	await signInAs(page, ACME, admin, '/admin/users/invite')

	// A pasted list: one role and course for everyone.
	await page.getByLabel('Addresses').fill(`${first}; ${second}\n${member}\n${first}`)
	await page.getByLabel('Invite them as').selectOption('student')
	await page.getByLabel('Course for everyone').selectOption({ label: 'Introduction to the Web' })
	await page.getByRole('button', { name: 'Invite everyone' }).click()
	const report = page.getByRole('region', { name: 'Invitation report' })
	await expect(report.getByRole('row')).toHaveCount(5)
	await expect(report.getByRole('row', { name: first }).first()).toContainText('Invited')
	await expect(report.getByRole('row', { name: member })).toContainText('Already a member')
	await expect(report.getByRole('row').last()).toContainText('Repeated earlier in the list')
	await expect(page.getByText('Invited: 2')).toBeVisible()
	await fitsThePhone(page, 'report of the pasted list')

	// A CSV as Excel saves it where the list separator is a semicolon: BOM, CRLF, a quoted name.
	const third = uniqueEmail(info, 'class-c')
	const csv = Buffer.concat([
		Buffer.from([0xef, 0xbb, 0xbf]),
		Buffer.from(`email;name;role;course\r\n${third};"Núñez; José";student;intro-to-web\r\n${second};;;\r\n`),
	])
	await page.getByLabel('CSV file').setInputFiles({ name: 'classe.csv', mimeType: 'text/csv', buffer: csv })
	await page.getByRole('button', { name: 'Upload and invite' }).click()
	await expect(report.getByRole('row')).toHaveCount(3)
	await expect(report.getByRole('row', { name: third })).toContainText('Invited')
	await expect(report.getByRole('row', { name: second })).toContainText('Already invited: sent again with a new link')
	await fitsThePhone(page, 'report of the CSV')

	// The invitee accepts: the page says what comes with it, the name is the list's, the course is theirs.
	const invitee = await browser.newContext({
		javaScriptEnabled: info.project.name === 'js',
		viewport: { width: 360, height: 780 },
	})
	const invited = await invitee.newPage()
	await invited.goto(at(ACME, await mailedLink(third, '/invite/')))
	await expect(invited.getByText('You will also be enrolled in: Introduction to the Web.')).toBeVisible()
	await expect(invited.getByLabel('Your name')).toHaveValue('Núñez; José')
	await invited.getByLabel('Choose a password').fill('class-of-2026-secret')
	await invited.getByRole('button', { name: 'Accept invitation' }).click()
	await invited.goto(at(ACME, '/learn/dashboard'))
	await expect(invited.getByRole('link', { name: 'Introduction to the Web' }).first()).toBeVisible()
	await fitsThePhone(invited, 'dashboard after acceptance')
	await invitee.close()
})

test("a form answered with an error leaves the page's other forms as they were", async ({ page }, info) => {
	const admin = await acmeAccount(info, 'three-forms', { role: 'tenant_admin' })
	await signInAs(page, ACME, admin, '/admin/users/invite')
	const selects = () =>
		page
			.locator('select')
			.evaluateAll((all) => all.map((s) => `${(s as HTMLSelectElement).name}=${(s as HTMLSelectElement).value}`))
	const before = await selects()
	expect(before.length).toBeGreaterThanOrEqual(4)

	// The CSV form answered with an error beside its field: every select keeps a value, the
	// single form posts a role (not '', which the action would refuse as if none were chosen).
	// A spreadsheet saved as Windows-1252: refused beside its field.
	await page.getByLabel('CSV file').setInputFiles({
		name: 'ansi.csv',
		mimeType: 'text/csv',
		buffer: Buffer.from('email;name\r\nj@example.test;Jos\xe9\r\n', 'latin1'),
	})
	await page.getByRole('button', { name: 'Upload and invite' }).click()
	await expect(page.locator('.field-error')).toBeVisible()
	expect(await selects()).toEqual(before)
	await page.getByLabel('Email', { exact: true }).fill(uniqueEmail(info, 'after-error'))
	await page.getByRole('button', { name: 'Send invitation' }).click()
	await expect(page.getByRole('status')).toContainText('Invitation sent')
	expect(await selects()).toEqual(before)
})
