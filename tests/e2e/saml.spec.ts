import { expect, test } from '@playwright/test'
import { startSamlIdp, type SamlIdp } from '#tests/support/saml-idp.ts'
import { at, signIn } from './support.ts'

// SAML 2.0 sign-in through a real SAML IdP (samlify on loopback, decision 0077), with JavaScript on
// and off (the js and no-js projects), on a 360 px screen. The IdP's page posts the signed answer
// back with a button, as the HTTP-POST binding's page does without JavaScript.
const ACME = 'acme.localhost'
let idp: SamlIdp

test.beforeAll(async () => {
	// The IdP's schema validator warms up in its start (startSamlIdp): longer than a test's default.
	test.setTimeout(90_000)
	idp = await startSamlIdp()
})
test.afterAll(async () => {
	await idp?.close()
})
test.use({ viewport: { width: 360, height: 780 } })

test('a tenant admin connects a SAML provider by its metadata; a learner signs in through the IdP', async ({
	page,
}, info) => {
	const tag = `${info.project.name}-${info.workerIndex}-${Date.now()}`
	const label = `SAML ${tag}`
	const domain = `${tag}.saml.test`.toLowerCase()

	await signIn(page, ACME, 'admin@acme.test')
	await expect(page).toHaveURL(at(ACME, '/admin'))
	await page.goto(at(ACME, '/admin/settings/sign-in'))
	await page.getByRole('link', { name: 'Connect a SAML 2.0 provider instead' }).click()
	await expect(page.getByRole('heading', { name: 'Connect a SAML 2.0 provider' })).toBeVisible()
	await page.getByLabel('Button label').fill(label)
	await page.getByLabel('Identity provider metadata (XML)').fill(idp.metadata)
	await page.getByLabel('Email domains it claims').fill(domain)
	await page.getByRole('button', { name: 'Save provider' }).click()
	await expect(page.getByText('The identity provider was saved.')).toBeVisible()
	const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(label) }) })
	await expect(row.getByText('/acs')).toBeVisible()
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
	await page.context().clearCookies()

	idp.loginAs({ email: `learner@${domain}`, name: 'Sam SAML' })
	await page.goto(at(ACME, '/learn/sign-in'))
	await page.getByRole('button', { name: `Continue with ${label}` }).click()
	// The IdP's page (another site), then back to the ACS and into the app.
	await page.getByRole('button', { name: 'Continue to the site' }).click()
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { name: 'Welcome, Sam SAML' })).toBeVisible()
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

	// The admin removes the provider: its button is gone.
	await page.context().clearCookies()
	await signIn(page, ACME, 'admin@acme.test')
	await page.goto(at(ACME, '/admin/settings/sign-in'))
	await row.getByRole('button', { name: 'Remove' }).click()
	await expect(page.getByText('The identity provider was removed.')).toBeVisible()
	await page.context().clearCookies()
	await page.goto(at(ACME, '/learn/sign-in'))
	await expect(page.getByRole('button', { name: `Continue with ${label}` })).toHaveCount(0)
})
