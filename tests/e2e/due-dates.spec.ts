import { expect, test, type Page } from '@playwright/test'
import { and, eq } from 'drizzle-orm'
import { findUserByEmail } from '#db/users.ts'
import { acmeAccount, at, e2eDatabase, signInAs } from './support.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const SHOTS = '/work/notes/shots/due-dates'
const DAY = 24 * 60 * 60 * 1000

// Decision 0045 on a phone, with JavaScript on and off (the js and no-js projects): a learner
// enrolled ten days ago sees the basics quiz (due 7 days after enrolling) overdue and the
// assignment (14 days) due soon, picks a time zone and makes a calendar link; course staff extend
// the quiz's due date with a reason, and the learner's entry says it was extended.
test.use({ viewport: { width: 360, height: 780 } })
test.describe.configure({ timeout: 90_000 })

async function fitsThePhone(page: Page) {
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

test('due soon and overdue for a learner, their time zone and calendar link, and a staff extension', async ({
	page,
	browser,
}, info) => {
	const project = info.project.name
	const email = await acmeAccount(info, 'due-dates', {
		enrolledIn: COURSE,
		completed: ['what-is-http', 'html-forms'],
		locale: 'en',
	})
	const db = e2eDatabase()
	let userId: string
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		userId = (await findUserByEmail(db, acme.id, email))!.id
		const e = db.t.enrollments
		await db.orm
			.update(e)
			.set({ enrolled_at: new Date(Date.now() - 10 * DAY) })
			.where(and(eq(e.tenant_id, acme.id), eq(e.user_id, userId)))
	} finally {
		await db.close()
	}

	await signInAs(page, ACME, email, '/learn/dashboard')
	const due = page.locator('.due-dates')
	await expect(due.getByRole('heading', { name: 'Due dates' })).toBeVisible()
	await expect(due.getByRole('listitem').filter({ hasText: 'Basics quiz' })).toContainText('Overdue')
	await expect(due.getByRole('listitem').filter({ hasText: 'Build a sign-up form' })).toContainText('Due soon')
	await expect(due).toContainText('Times are in UTC.')
	await fitsThePhone(page)
	await page.screenshot({ path: `${SHOTS}/dashboard-${project}.png`, fullPage: true })

	// The time zone, then the calendar link, on the account page.
	await due.getByRole('link', { name: 'Change' }).click()
	await expect(page.getByRole('heading', { name: 'Due dates and calendar' })).toBeVisible()
	await page.getByLabel('Your time zone').selectOption('Europe/Paris')
	await page.getByRole('button', { name: 'Save time zone' }).click()
	await expect(page.getByText('Your time zone has been saved.')).toBeVisible()
	await expect(page.getByLabel('Your time zone')).toHaveValue('Europe/Paris')
	await page.getByRole('button', { name: 'Make my calendar link' }).click()
	await expect(page.getByText('New calendar link made')).toBeVisible()
	const url = await page.getByLabel('Your calendar address').inputValue()
	expect(url).toMatch(/\/learn\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
	await expect(page.getByRole('link', { name: 'Add to my calendar' })).toHaveAttribute('href', /^webcal:/)
	await fitsThePhone(page)
	await page.locator('#due-settings').screenshot({ path: `${SHOTS}/account-section-${project}.png` })
	// The feed itself is read by iCalendar parsers in tests/integration/due-dates.test.ts.

	await page.goto(`http://${ACME}:${new URL(url).port}/learn/course/${COURSE}`)
	await expect(page.locator('.due-dates')).toContainText('Times are in Europe/Paris.')
	await expect(page.locator('.entries li').filter({ hasText: 'Basics quiz' })).toContainText('Overdue')
	await fitsThePhone(page)
	await page.screenshot({ path: `${SHOTS}/course-home-${project}.png`, fullPage: true })

	// Course staff extend the quiz's due date for this learner.
	const staff = await browser.newPage({ viewport: { width: 360, height: 780 } })
	await signInAs(staff, ACME, 'author@acme.test', `/admin/courses/${COURSE}/learners/${userId}`)
	const form = staff.locator('form').filter({ has: staff.getByRole('heading', { name: 'Basics quiz' }) })
	await expect(form).toContainText('Overdue')
	await expect(form.getByLabel('New due date (Europe/Paris)')).toBeVisible()
	await form.getByLabel('New due date (Europe/Paris)').fill('2099-03-01T18:00')
	await form.getByLabel('Reason').fill('Was in hospital.')
	await form.getByRole('button', { name: 'Extend due date' }).click()
	await expect(staff.getByText('Due date extended.')).toBeVisible()
	const after = staff.locator('form').filter({ has: staff.getByRole('heading', { name: 'Basics quiz' }) })
	await expect(after).toContainText('Extended')
	await expect(after).toContainText('2099')
	await fitsThePhone(staff)
	await staff.locator('#due-dates').scrollIntoViewIfNeeded()
	await staff.screenshot({ path: `${SHOTS}/staff-extension-${project}.png`, fullPage: true })
	await staff.close()

	await page.goto(`http://${ACME}:${new URL(url).port}/learn/course/${COURSE}/entry/basics-quiz`)
	await expect(page.locator('.entry-due')).toContainText('Extended for you')
	await expect(page.locator('.entry-due')).toContainText('Due later')
	await page.screenshot({ path: `${SHOTS}/entry-${project}.png` })
})

test.describe('the device’s time zone (issue 52)', () => {
	test.use({ timezoneId: 'America/Los_Angeles' })

	test('is taken with JavaScript while the learner has chosen none; without it the tenant’s zone stays', async ({
		page,
	}, info) => {
		const scripts = info.project.use.javaScriptEnabled !== false
		const email = await acmeAccount(info, 'device-zone', { enrolledIn: COURSE, locale: 'en' })
		const taken = scripts
			? page.waitForResponse((r) => r.url().includes('/learn/account') && r.request().method() === 'POST')
			: null
		await signInAs(page, ACME, email, '/learn/dashboard')
		if (taken) expect((await taken).status()).toBe(200)
		await page.goto(at(ACME, '/learn/account'))
		const zone = page.getByLabel('Your time zone')
		await expect(zone).toHaveValue(scripts ? 'America/Los_Angeles' : 'UTC')
		// The list is grouped by region (the zone in force first): Paris under Europe.
		await expect(zone.locator('optgroup[label="Europe"] option[value="Europe/Paris"]')).toHaveText('Paris')
		await fitsThePhone(page)
		// A choice made here is the learner's: the device does not take it back.
		await zone.selectOption('Europe/Paris')
		await page.getByRole('button', { name: 'Save time zone' }).click()
		await expect(page.getByText('Your time zone has been saved.')).toBeVisible()
		await page.goto(at(ACME, '/learn/dashboard'))
		await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
		await page.goto(at(ACME, '/learn/account'))
		await expect(page.getByLabel('Your time zone')).toHaveValue('Europe/Paris')
	})
})

test('a tenant admin finds the school’s time zone in the settings, grouped by region, on a phone', async ({
	page,
}, info) => {
	const admin = await acmeAccount(info, 'zone-admin', { role: 'tenant_admin' })
	await signInAs(page, ACME, admin, '/admin')
	await page.getByRole('link', { name: 'Settings' }).click()
	await expect(page.getByRole('heading', { name: 'Site settings' })).toBeVisible()
	const zone = page.getByLabel('The school’s time zone')
	await expect(zone).toHaveValue('UTC')
	await expect(zone.locator('optgroup[label="America"] option[value="America/Los_Angeles"]')).toHaveText('Los Angeles')
	await fitsThePhone(page)
	await page.screenshot({ path: `${SHOTS}/admin-settings-${info.project.name}.png`, fullPage: true })
	// Saved as it is (other tests read Acme's dates in UTC at the same time): the form and its notice.
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByText('The settings were saved.')).toBeVisible()
	await expect(zone).toHaveValue('UTC')
})
