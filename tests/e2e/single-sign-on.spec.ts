import { expect, test } from '@playwright/test'
import { IDP_CLIENT, startOidcProvider, type OidcIdp } from '#tests/support/oidc-idp.ts'
import { at, signIn } from './support.ts'

// Single sign-on through a real OpenID provider (oidc-provider on loopback, decision 0069), with
// JavaScript on and off (the js and no-js projects), on a 360 px screen.
const ACME = 'acme.localhost'
let idp: OidcIdp

test.beforeAll(async () => {
	idp = await startOidcProvider()
})
test.afterAll(async () => {
	await idp?.close()
})
test.use({ viewport: { width: 360, height: 780 } })

test('a tenant admin connects a provider; a learner signs in with it, by button and by the email step', async ({
	page,
}, info) => {
	const tag = `${info.project.name}-${info.workerIndex}-${Date.now()}`
	const label = `Uni ${tag}`
	const domain = `${tag}.uni.test`.toLowerCase()

	await signIn(page, ACME, 'admin@acme.test')
	await expect(page).toHaveURL(at(ACME, '/admin'))
	await page.goto(at(ACME, '/admin/settings/sign-in'))
	await page.getByLabel('Button label').fill(label)
	await page.getByLabel('Issuer URL').fill(idp.issuer)
	await page.getByLabel('Client ID').fill(IDP_CLIENT.id)
	await page.getByLabel('Client secret').fill(IDP_CLIENT.secret)
	await page.getByLabel('Email domains it claims').fill(domain)
	await page.getByRole('button', { name: 'Save provider' }).click()
	await expect(page.getByText('The identity provider was saved.')).toBeVisible()
	await expect(page.getByRole('heading', { name: new RegExp(label) })).toBeVisible()
	expect(await page.content()).not.toContain(IDP_CLIENT.secret)
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
	await page.context().clearCookies()

	idp.account({ sub: `e2e-${tag}`, email: `learner@${domain}`, email_verified: true, name: 'Sophie SSO' })
	idp.loginAs(`e2e-${tag}`)
	await page.goto(at(ACME, '/learn/sign-in'))
	await page.getByRole('button', { name: `Continue with ${label}` }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { name: 'Welcome, Sophie SSO' })).toBeVisible()

	// The email step: the address alone, its domain claimed, goes to the provider and back.
	await page.context().clearCookies()
	await page.goto(at(ACME, '/learn/sign-in'))
	await page.getByLabel('Email').fill(`learner@${domain}`)
	await page.getByRole('button', { name: 'Sign in', exact: true }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))

	// The admin removes the provider: its button is gone.
	await page.context().clearCookies()
	await signIn(page, ACME, 'admin@acme.test')
	await page.goto(at(ACME, '/admin/settings/sign-in'))
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: new RegExp(label) }) })
		.getByRole('button', { name: 'Remove' })
		.click()
	await expect(page.getByText('The identity provider was removed.')).toBeVisible()
	await page.context().clearCookies()
	await page.goto(at(ACME, '/learn/sign-in'))
	await expect(page.getByRole('button', { name: `Continue with ${label}` })).toHaveCount(0)
})
