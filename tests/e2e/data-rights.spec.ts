import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import { findUserByEmail } from '#db/users.ts'
import { acmeAccount, e2eDatabase, signInAs } from './support.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

// Issue 40, data rights (decision 0044), on a phone-sized screen, with JavaScript on and off (the two projects).
test.use({ viewport: { width: 360, height: 800 } })

const ACME = 'acme.localhost'
const SHOTS = '/work/notes/shots/data-rights'
const shot = (name: string, project: string) => `${SHOTS}/${name}-${project}.png`

async function idOf(email: string) {
	const db = e2eDatabase()
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		return (await findUserByEmail(db, acme.id, email))!.id
	} finally {
		await db.close()
	}
}

test('a learner downloads their data as one zip from the account page and stays there', async ({ page }, info) => {
	const email = await acmeAccount(info, 'archive', { enrolledIn: 'intro-to-web', completed: ['what-is-http'] })
	await signInAs(page, ACME, email, '/learn/account')
	const button = page.getByRole('button', { name: 'Download my data' })
	await button.scrollIntoViewIfNeeded()
	await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible()
	await page.screenshot({ path: shot('account-data', info.project.name), fullPage: true })
	const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
	expect(download.suggestedFilename()).toMatch(/^acme-my-data-\d{4}-\d\d-\d\d\.zip$/)
	const entries = unzipSync(new Uint8Array(readFileSync((await download.path())!)))
	expect(JSON.parse(strFromU8(entries['tables/users.json']))[0].email).toBe(email)
	expect(JSON.parse(strFromU8(entries['tables/enrollments.json']))[0].course_slug).toBe('intro-to-web')
	expect(JSON.parse(strFromU8(entries['tables/entry_progress.json']))).toHaveLength(1)
	await expect(page).toHaveURL(/\/learn\/account$/)
	await expect(button).toBeVisible()
})

test('an admin erases a person after a confirmation', async ({ page }, info) => {
	const victim = await acmeAccount(info, 'erased', { enrolledIn: 'intro-to-web' })
	const admin = await acmeAccount(info, 'eraser', { role: 'tenant_admin' })
	const id = await idOf(victim)
	await signInAs(page, ACME, admin, `/admin/users/${id}`)
	await page.getByRole('link', { name: 'Erase this person…' }).click()
	await expect(page).toHaveURL(new RegExp(`/admin/users/${id}/erase$`))
	await expect(page.getByRole('heading', { name: 'Erase E2E erased' })).toBeVisible()
	await page.screenshot({ path: shot('erase-page', info.project.name), fullPage: true })
	await page.getByRole('button', { name: 'Erase…' }).click()
	await expect(page.getByText(`Erase E2E erased (${victim}) for good? This cannot be undone.`)).toBeVisible()
	await page.screenshot({ path: shot('erase-confirm', info.project.name), fullPage: true })
	await page.getByRole('button', { name: 'Erase E2E erased' }).click()
	await expect(page).toHaveURL(new RegExp(`/admin/users/${id}/erase\\?notice=erased$`))
	await expect(page.getByText('The person was erased.')).toBeVisible()
	// One message (issue 52): not also "already erased".
	await expect(page.getByText('This person was already erased.')).toHaveCount(0)
	await expect(page.getByText(victim)).toHaveCount(0)
	await page.screenshot({ path: shot('erase-done', info.project.name), fullPage: true })
})

test('a tenant admin downloads a learner’s data for them from the person’s page and stays there', async ({
	page,
}, info) => {
	const learner = await acmeAccount(info, 'archived-for', { enrolledIn: 'intro-to-web' })
	const admin = await acmeAccount(info, 'archiver', { role: 'tenant_admin' })
	const id = await idOf(learner)
	await signInAs(page, ACME, admin, `/admin/users/${id}`)
	const button = page.getByRole('button', { name: 'Download their data' })
	await button.scrollIntoViewIfNeeded()
	await page.screenshot({ path: shot('admin-archive', info.project.name), fullPage: true })
	const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
	expect(download.suggestedFilename()).toMatch(/^acme-my-data-\d{4}-\d\d-\d\d\.zip$/)
	const entries = unzipSync(new Uint8Array(readFileSync((await download.path())!)))
	expect(JSON.parse(strFromU8(entries['tables/users.json']))[0].email).toBe(learner)
	await expect(page).toHaveURL(new RegExp(`/admin/users/${id}$`))
	await expect(button).toBeVisible()
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})
