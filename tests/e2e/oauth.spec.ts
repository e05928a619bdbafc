import { expect, test, type Page } from '@playwright/test'
import { updateUser } from '#db/users.ts'
import { at, e2eDatabase, uniqueEmail } from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/** Clicks the provider button and fills the test identity provider's consent page. */
async function continueWith(
	page: Page,
	provider: 'Google' | 'GitHub',
	profile: { email: string; verified?: boolean; name?: string; sub?: string },
) {
	await page.goto(at(ACME, '/learn/sign-in'))
	await page.getByRole('button', { name: `Continue with ${provider}` }).click()
	await expect(page.getByRole('heading', { name: /Test identity provider/ })).toBeVisible()
	expect(new URL(page.url()).host).toBe(`localhost:${new URL(at(ACME)).port}`)
	await page.getByLabel('Subject').fill(profile.sub ?? `sub-${profile.email}`)
	await page.getByLabel('Email', { exact: true }).fill(profile.email)
	await page.getByLabel('Name').fill(profile.name ?? 'Ext Learner')
	if (profile.verified === false) await page.getByLabel('Email verified').uncheck()
	await page.getByRole('button', { name: 'Allow' }).click()
}

const refusal = (reason: string) => at(ACME, `/learn/sign-in/error?error=${reason}`)

test('external sign-in creates a student and lands on the dashboard', async ({ page }, info) => {
	const email = uniqueEmail(info, 'oauth')
	await continueWith(page, 'Google', { email, name: 'Olga Auth' })
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { name: 'Welcome, Olga Auth' })).toBeVisible()
	// Signing in again with the same identity reaches the same account.
	await page.context().clearCookies()
	await continueWith(page, 'Google', { email, name: 'Olga Auth' })
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
})

test('external sign-in refuses an unverified email', async ({ page }, info) => {
	await continueWith(page, 'GitHub', { email: uniqueEmail(info, 'unverified'), verified: false })
	await expect(page).toHaveURL(refusal('oauth_email_unverified'))
	await expect(page.getByRole('alert')).toContainText('no verified email address')
})

test('external sign-in refuses a missing email', async ({ page }) => {
	await continueWith(page, 'GitHub', { email: '', sub: '31337' })
	await expect(page).toHaveURL(refusal('oauth_email_missing'))
	await expect(page.getByRole('alert')).toContainText('did not share an email address')
})

test('external sign-in refuses a deactivated account', async ({ page }, info) => {
	const email = uniqueEmail(info, 'deactivated')
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const user = await createUser(db, {
		tenant_id: acme.id,
		email,
		name: 'Dee Activated',
		role: 'student',
		email_verified_at: new Date(),
	})
	await updateUser(db, user.id, { deactivated_at: new Date() })
	await db.close()
	await continueWith(page, 'Google', { email })
	await expect(page).toHaveURL(refusal('oauth_account_deactivated'))
	await expect(page.getByRole('alert')).toContainText('deactivated')
})

test('external sign-in is refused on the apex and on a suspended tenant', async ({ page }) => {
	await page.goto(at('localhost', '/learn/sign-in'))
	await expect(page.getByRole('button', { name: /Continue with/ })).toHaveCount(0)
	await page.goto(at('localhost', '/api/auth/callback/google?code=x&state=y'))
	await expect(page).toHaveURL(at('localhost', '/learn/sign-in/error?error=oauth_tenant_unknown'))
	await expect(page.getByRole('alert')).toContainText('only on a school or company learning site')

	await page.goto(at('initech.localhost', '/api/auth/callback/google?code=x&state=y'))
	await expect(page).toHaveURL(at('initech.localhost', '/learn/sign-in/error?error=oauth_tenant_suspended'))
	await expect(page.getByRole('alert')).toContainText('paused')
})
