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

test('a list’s name and language reach the invitee; a paid course’s seats are set and counted', async ({
	page,
	browser,
}, info) => {
	// Issue 52 (decision 0065): the CSV's name and language columns.
	const admin = await acmeAccount(info, 'languages', { role: 'tenant_admin' })
	await signInAs(page, ACME, admin, '/admin/users/invite')
	const [spanish, unknown] = [uniqueEmail(info, 'es-invitee'), uniqueEmail(info, 'xx-invitee')]
	const csv = `email,name,language\r\n${spanish},Lucía Pérez,es\r\n${unknown},Nobody,klingon\r\n`
	await page.getByLabel('CSV file').setInputFiles({ name: 'langs.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
	await page.getByRole('button', { name: 'Upload and invite' }).click()
	const report = page.getByRole('region', { name: 'Invitation report' })
	await expect(report.getByRole('row', { name: spanish })).toContainText('Invited')
	await expect(report.getByRole('row', { name: unknown })).toContainText('No supported language')
	await fitsThePhone(page, 'report with a language')

	const invitee = await browser.newContext({
		javaScriptEnabled: info.project.name === 'js',
		viewport: { width: 360, height: 780 },
	})
	const invited = await invitee.newPage()
	const link = await mailedLink(spanish, '/es/invite/')
	await invited.goto(at(ACME, link))
	await expect(invited.getByRole('heading', { name: 'Tienes una invitación' })).toBeVisible()
	await expect(invited.getByLabel('Tu nombre')).toHaveValue('Lucía Pérez')
	await fitsThePhone(invited, 'acceptance in Spanish')
	await invitee.close()

	// Seats: the settings page takes a limit and shows the count; the dashboard shows it too.
	await page.goto(at(ACME, '/admin/courses/advanced-css/settings'))
	await page.getByLabel('Seats').fill('abc')
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByText('Enter a whole number of seats')).toBeVisible()
	await page.getByLabel('Seats').fill('100000')
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByText('Settings saved.')).toBeVisible()
	await expect(page.getByLabel('Seats')).toHaveValue('100000')
	await fitsThePhone(page, 'course settings with seats')
	await page.goto(at(ACME, '/admin/courses/advanced-css/dashboard'))
	await expect(page.getByText(/^Seats in use: \d+ of 100,000\.$/)).toBeVisible()
	// No limit again, for the other specs sharing this course.
	await page.goto(at(ACME, '/admin/courses/advanced-css/settings'))
	await page.getByLabel('Seats').fill('')
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByText('Settings saved.')).toBeVisible()
})
