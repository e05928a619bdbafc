import { readFileSync } from 'node:fs'
import { expect, test, type TestInfo } from '@playwright/test'
import { hashPassword } from '#app/accounts/password.server.ts'
import { at, DEMO_PASSWORD, e2eDatabase, signInAs, uniqueEmail } from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/** A fresh Acme user for this test and project (the js and no-js runs share one database). */
async function acmeUser(info: TestInfo, name: string, role: 'student' | 'course_admin' = 'student') {
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const user = await createUser(db, {
		tenant_id: acme.id,
		email: uniqueEmail(info, name),
		name: `Target ${name} ${info.project.name}`,
		role,
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()
	return user
}

test('a tenant admin finds a user and changes role, deactivates, reactivates, signs out and sends a reset link', async ({
	page,
}, info) => {
	const target = await acmeUser(info, 'managed')
	await signInAs(page, ACME, 'admin@acme.test', '/admin')
	await page.getByRole('link', { name: 'Users' }).click()
	await page.getByLabel('Search').fill(target.email)
	await page.getByRole('button', { name: 'Filter' }).click()
	await expect(page).toHaveURL(/[?&]q=/)
	await page.getByRole('link', { name: target.name }).click()
	// With JavaScript the user's page opens client-side: the list's own Role filter is still there until it has.
	await expect(page.getByRole('heading', { name: target.name, level: 1 })).toBeVisible()

	await page.getByLabel('Role').selectOption('course_admin')
	// A course admin administers a course: the role comes with one (decision 0026).
	await page.getByLabel('Course (for a course admin)').selectOption({ label: 'Introduction to the Web' })
	await page.getByRole('button', { name: 'Change role' }).click()
	// A higher role asks first too (issue 40).
	await expect(page.getByRole('alert')).toContainText('from student to course admin?')
	await page.getByRole('alert').getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByText('The role was changed.')).toBeVisible()
	// Destructive actions ask first: cancelling changes nothing, confirming does it.
	await page.getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByRole('alert')).toContainText(`Deactivate ${target.name}?`)
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0)
	await expect(page.getByRole('button', { name: 'Deactivate' })).toBeVisible()
	await page.getByRole('button', { name: 'Deactivate' }).click()
	await page.getByRole('alert').getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByText('The account was deactivated')).toBeVisible()
	await page.getByRole('button', { name: 'Reactivate' }).click()
	await expect(page.getByText('The account was reactivated')).toBeVisible()
	await page.getByRole('button', { name: 'Sign out everywhere' }).click()
	await page.getByRole('alert').getByRole('button', { name: 'Sign out everywhere' }).click()
	await expect(page.getByText('Every session of this user was signed out.')).toBeVisible()
	await page.getByRole('button', { name: 'Send password-reset link' }).click()
	await expect(page.getByText('A password-reset link is on its way.')).toBeVisible()

	await page.goto(at(ACME, '/admin/audit?action=user.'))
	await expect(page.getByRole('cell', { name: 'user.role_changed' }).first()).toBeVisible()
})

test('a tenant admin invites a course admin, with the error beside the course field first', async ({ page }, info) => {
	await signInAs(page, ACME, 'admin@acme.test', '/admin')
	await page.goto(at(ACME, '/admin/users/invite'))
	const email = uniqueEmail(info, 'invitee')
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Role').selectOption('course_admin')
	await page.getByRole('button', { name: 'Send invitation' }).click()
	await expect(page.getByText('A course admin needs a course')).toBeVisible()
	await page.getByLabel('Course', { exact: true }).selectOption('intro-to-web')
	await page.getByRole('button', { name: 'Send invitation' }).click()
	await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible()
})

test('a course admin sees the dashboard, downloads the CSV and changes settings; admins are assigned and revoked', async ({
	page,
}, info) => {
	await signInAs(page, ACME, 'author@acme.test', '/admin/courses/intro-to-web/dashboard')
	await expect(page.getByRole('heading', { name: 'Introduction to the Web' })).toBeVisible()
	await expect(page.getByRole('cell', { name: /Lena Learner/ })).toBeVisible()
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('link', { name: /Download roster and results/ }).click(),
	])
	expect(download.suggestedFilename()).toBe('intro-to-web-roster.csv')
	expect(readFileSync(await download.path(), 'utf8')).toContain('learner@acme.test')
	await page.getByRole('link', { name: 'Settings' }).click()
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByText('Settings saved.')).toBeVisible()

	const helper = await acmeUser(info, 'helper', 'course_admin')
	await page.context().clearCookies()
	await signInAs(page, ACME, 'admin@acme.test', '/admin')
	await page.goto(at(ACME, '/admin/courses/advanced-css/admins'))
	await page.getByLabel('Email of a course admin').fill(helper.email)
	await page.getByRole('button', { name: 'Assign' }).click()
	await expect(page.getByText('Assigned.')).toBeVisible()
	await page.getByRole('button', { name: `Revoke ${helper.name}` }).click()
	await page
		.getByRole('alert')
		.getByRole('button', { name: `Revoke ${helper.name}` })
		.click()
	await expect(page.getByText('Revoked.')).toBeVisible()
})

test('the super admin creates and suspends a tenant, enters Acme and impersonates a learner', async ({
	page,
}, info) => {
	await signInAs(page, 'localhost', 'root@platform.test', '/admin')
	await page.getByRole('link', { name: 'Tenants' }).click()
	const slug = `e2e-${info.project.name}-${Date.now() % 100000}`
	await page.getByLabel('Slug (the subdomain)').fill(slug)
	await page.getByLabel('Name').fill(`Tenant ${slug}`)
	const domain = `${slug}.school.test`
	await page.getByLabel('Custom domain (optional)').fill(domain)
	await page.getByLabel('Email of its first administrator (they get an invitation)').fill(`head-${slug}@example.test`)
	await page.getByRole('button', { name: 'Create tenant' }).click()
	await expect(page.getByText('The tenant was created.')).toBeVisible()
	// Its domain is not live until marked (decision 0062): links name the subdomain meanwhile.
	await expect(page.getByText(`${domain} (not live yet: links name the subdomain)`)).toBeVisible()
	await page.getByRole('button', { name: `Mark ${domain} live` }).click()
	await expect(page.getByText('The custom domain is live')).toBeVisible()
	await expect(page.getByText(`${domain} (live)`)).toBeVisible()
	await page.getByRole('button', { name: `Suspend Tenant ${slug}` }).click()
	await page
		.getByRole('alert')
		.getByRole('button', { name: `Suspend Tenant ${slug}` })
		.click()
	await expect(page.getByText('The tenant was suspended')).toBeVisible()
	const suspended = await page.goto(at(`${slug}.localhost`, '/learn'))
	expect(suspended?.status()).toBe(503)
	await page.goto(at('localhost', '/admin/tenants'))

	const target = await acmeUser(info, 'impersonated')
	await page.getByRole('button', { name: 'Open Acme Academy' }).click()
	// The link lands on Acme's host and asks; its button signs in there (decision 0032).
	await expect(page.getByRole('heading', { name: 'Open a tenant’s site' })).toBeVisible()
	await expect(page.getByText('Open Acme Academy as root@platform.test?')).toBeVisible()
	await page.getByRole('button', { name: 'Open Acme Academy' }).click()
	await expect(page).toHaveURL(at(ACME, '/admin'))
	await page.goto(at(ACME, `/admin/users/${target.id}`))
	await page.getByRole('button', { name: 'Impersonate' }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { name: `Welcome, ${target.name}` })).toBeVisible()
	await page.getByRole('button', { name: 'Stop impersonating' }).click()
	await expect(page).toHaveURL(at(ACME, `/admin/users/${target.id}`))
	await expect(page.getByRole('button', { name: 'Stop impersonating' })).toHaveCount(0)
})

test('a tenant admin pages through a search of the users list: next, previous and first page', async ({
	page,
}, info) => {
	// 55 matches of one search: a page of 50 and a page of 5.
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const tag = `pager-${info.project.name}-${Date.now()}`
	for (let i = 1; i <= 55; i++)
		await createUser(db, { tenant_id: acme.id, email: `${tag}-${i}@acme.test`, name: `Pager ${i}`, role: 'student' })
	await db.close()
	const rows = page.locator('tbody tr')

	await signInAs(page, ACME, 'admin@acme.test', '/admin')
	await page.goto(at(ACME, '/admin/users'))
	await page.getByLabel('Search').fill(tag)
	await page.getByRole('button', { name: 'Filter' }).click()
	await expect(page.getByText('55 users')).toBeVisible()
	await expect(rows).toHaveCount(50)
	await expect(page.getByRole('link', { name: '← Previous' })).toHaveCount(0)

	await page.getByRole('link', { name: 'Next →' }).click()
	await expect(page).toHaveURL(/[?&]after=/)
	await expect(rows).toHaveCount(5)
	await expect(page.getByRole('link', { name: 'Next →' })).toHaveCount(0)

	await page.getByRole('link', { name: '← Previous' }).click()
	await expect(page).toHaveURL(/[?&]before=/)
	await expect(rows).toHaveCount(50)
	await page.getByRole('link', { name: '« First page' }).click()
	await expect(page).not.toHaveURL(/after=|before=/)
	await expect(page).toHaveURL(new RegExp(`q=${tag}`))
	await expect(rows).toHaveCount(50)
})

test.describe('on a 360 px phone', () => {
	test.use({ viewport: { width: 360, height: 780 } })

	test('admin tables scroll inside their own named region, with a cue, and no page scrolls sideways', async ({
		page,
	}) => {
		let regions = 0
		const fits = async (path: string) => {
			const sizes = await page.evaluate(() => ({
				page: document.documentElement.scrollWidth,
				screen: window.innerWidth,
				loose: [...document.querySelectorAll('table')].filter((t) => !t.parentElement?.matches('.table-scroll')).length,
				cues: [...document.querySelectorAll('.table-scroll')].map((r) => getComputedStyle(r).backgroundImage),
			}))
			expect(sizes.page, path).toBeLessThanOrEqual(sizes.screen)
			expect(sizes.loose, path).toBe(0)
			for (const cue of sizes.cues) expect(cue, path).toContain('gradient')
			regions += sizes.cues.length
		}
		await signInAs(page, ACME, 'admin@acme.test', '/admin/users')
		for (const path of ['/admin/users', '/admin/audit', '/admin/courses', '/admin/courses/intro-to-web/dashboard']) {
			await page.goto(at(ACME, path))
			await fits(path)
		}
		// An email is never cut letter by letter: its column is as wide as a whole address part.
		await page.goto(at(ACME, '/admin/users'))
		for (const email of await page.locator('td.break').all())
			expect((await email.boundingBox())!.width).toBeGreaterThan(120)

		await signInAs(page, 'localhost', 'root@platform.test', '/admin/tenants')
		await fits('/admin/tenants')
		await page.goto(at('localhost', '/admin/users'))
		await fits('/admin/users (apex)')
		// Users (twice), courses, the course's entries and roster, tenants; the audit log may be empty.
		expect(regions).toBeGreaterThanOrEqual(6)
	})

	test('no action of an admin table is cut off: the table fits its region, every link and button inside it', async ({
		page,
	}) => {
		// Issue 52: the courses table cut its actions to "Dashb" and "Submi", behind the region's edge.
		const whole = async (path: string) => {
			await page.goto(at(new URL(page.url()).hostname, path))
			const found = await page.evaluate(() =>
				[...document.querySelectorAll('.table-scroll')].map((region) => {
					const box = region.getBoundingClientRect()
					const actions = [...region.querySelectorAll('tbody a, tbody button')].map((el) => {
						const r = el.getBoundingClientRect()
						return { text: el.textContent, left: r.left, right: r.right, width: r.width }
					})
					return {
						scroll: region.scrollWidth,
						client: region.clientWidth,
						left: box.left,
						right: box.right,
						screen: window.innerWidth,
						actions,
					}
				}),
			)
			expect(found.length, path).toBeGreaterThan(0)
			for (const region of found) {
				expect(region.scroll, `${path}: the table is wider than its region`).toBeLessThanOrEqual(region.client)
				expect(region.right, path).toBeLessThanOrEqual(region.screen)
				for (const a of region.actions) {
					expect(a.width, `${path}: ${a.text}`).toBeGreaterThan(0)
					expect(a.left, `${path}: ${a.text}`).toBeGreaterThanOrEqual(region.left - 0.5)
					expect(a.right, `${path}: ${a.text}`).toBeLessThanOrEqual(region.right + 0.5)
				}
			}
			return found.reduce((n, r) => n + r.actions.length, 0)
		}
		await signInAs(page, ACME, 'admin@acme.test', '/admin/courses')
		// Five actions a course, with JavaScript and without (the js and no-js projects).
		expect(await whole('/admin/courses')).toBeGreaterThanOrEqual(10)
		await whole('/admin/users')
		await signInAs(page, 'localhost', 'root@platform.test', '/admin/tenants')
		await whole('/admin/tenants')
		await whole('/admin/users')
	})

	test('header links and choices are touch targets of at least 44 and 24 px', async ({ page }) => {
		await signInAs(page, ACME, 'learner@acme.test', '/learn/dashboard')
		for (const link of await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all())
			expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44)
		// A quiz as staff preview it: nothing is written, and every choice is there.
		await signInAs(page, ACME, 'admin@acme.test', '/admin')
		await page.goto(at(ACME, '/learn/course/intro-to-web/entry/basics-quiz?preview=1'))
		const radios = page.getByRole('radio')
		expect(await radios.count()).toBeGreaterThan(1)
		for (const radio of await radios.all()) {
			const box = (await radio.boundingBox())!
			expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24)
		}
	})
})
