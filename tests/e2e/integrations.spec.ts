// Issue 49, with JavaScript on and off (the js and no-js projects), on a 360 px phone: a tenant admin,
// from the sign-in page, creates an API key (shown once), adds a webhook endpoint on a loopback
// receiver and sees the delivery a call with the key caused, disables the endpoint, revokes the key,
// then makes and revokes a SCIM token; the super admin makes a platform key (decision 0087) that creates
// a tenant and is revoked. Each secret is used from outside the browser, as the other system would
// use it. Axe runs where the page can run it (the js project).
import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { request } from '#tests/support/http.ts'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'
import { acmeAccount, at, expectAccessible, fitsThePhone, PORT, signIn } from './support.ts'

const ACME = 'acme.localhost'

test.use({ viewport: { width: 360, height: 780 } })
// Axe takes 1 to 3 s a page on a 2-core machine.
test.describe.configure({ timeout: 90_000 })

let receiver: WebhookReceiver
test.beforeAll(async () => {
	receiver = await startWebhookReceiver()
})
test.afterAll(async () => {
	await receiver?.close()
})

/** A call of the other system: a bearer secret on the site's host. */
const call = (path: string, secret: string, body?: unknown) =>
	request(PORT, ACME, path, {
		method: body === undefined ? 'GET' : 'POST',
		headers: {
			authorization: `Bearer ${secret}`,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	})

/** One of the site settings' pages, reached as an admin finds it: Administration, Settings, its link. */
async function settingsPage(page: Page, link: string, heading: string) {
	await page.goto(at(ACME, '/admin'))
	await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Settings' }).click()
	await page.getByRole('link', { name: link }).click()
	await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
}

async function checked(page: Page, info: TestInfo, label: string) {
	await fitsThePhone(page, label)
	await expectAccessible(page, info, label)
}

test('a tenant admin connects other systems: an API key, a webhook endpoint with its deliveries, a SCIM token', async ({
	page,
}, info) => {
	const suffix = `${info.project.name}-${Date.now()}`
	const admin = await acmeAccount(info, 'integrator', { role: 'tenant_admin' })
	await signIn(page, ACME, admin)
	await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'))

	// An API key: the secret once, then only its first characters.
	await settingsPage(page, 'API keys', 'API keys')
	const keyName = `Warehouse ${suffix}`
	await page.getByLabel('Name').fill(keyName)
	await page.getByLabel('Access').selectOption('read_write')
	await page.getByRole('button', { name: 'Create key' }).click()
	await expect(page.getByText(`The key “${keyName}” was created`)).toBeVisible()
	const secret = (await page.getByTestId('api-key-secret').textContent())!.trim()
	expect(secret).toMatch(/^lmsk_[A-Za-z0-9_-]{32}$/)
	await checked(page, info, 'API key shown once')
	await page.goto(page.url())
	const keyRow = page.getByRole('row').filter({ hasText: keyName })
	await expect(keyRow).toContainText(secret.slice(0, 13))
	expect(await page.content()).not.toContain(secret)

	// A webhook endpoint on the receiver, for user.created: its signing secret once.
	await settingsPage(page, 'Outgoing webhooks', 'Outgoing webhooks')
	await page.getByLabel('Endpoint URL').fill(receiver.url())
	await page.getByLabel('user.created', { exact: true }).check()
	await page.getByRole('button', { name: 'Add endpoint' }).click()
	const signing = page.locator('code.webhook-secret')
	await expect(signing).toBeVisible()
	receiver.state.secrets.push((await signing.textContent())!.trim())
	const endpoint = page.locator('article.webhook-endpoint').filter({ hasText: receiver.url() })
	await expect(endpoint).toContainText('Enabled')
	await expect(endpoint).toContainText('Nothing sent yet.')
	await checked(page, info, 'webhook endpoint added')

	// The other system creates a person with the key: the receiver gets user.created, verified.
	const email = `hooked-${suffix}@acme.test`
	const made = await call('/api/v1/users', secret, { email })
	expect(made.status).toBe(201)
	await receiver.waitFor((got) =>
		got.some((d) => d.type === 'user.created' && (d.data.user as { email?: string })?.email === email),
	)
	// The page lists the delivery with the receiver's answer (204).
	await expect(async () => {
		await page.goto(page.url())
		await expect(endpoint.getByRole('row').filter({ hasText: 'user.created' }).first()).toContainText('204', {
			timeout: 500,
		})
	}).toPass({ timeout: 15_000 })
	await checked(page, info, 'webhook deliveries')
	await endpoint.getByRole('button', { name: 'Disable' }).click()
	await expect(page.getByText('The endpoint was updated.')).toBeVisible()
	await expect(endpoint).toContainText('Disabled')
	await expect(endpoint.getByRole('button', { name: 'Enable' })).toBeVisible()

	// The key revoked, asked first: the other system is refused from then on.
	await settingsPage(page, 'API keys', 'API keys')
	await keyRow.getByRole('button', { name: `Revoke ${keyName}` }).click()
	await expect(page.getByRole('alert')).toContainText(`Revoke the key “${keyName}”?`)
	await checked(page, info, 'revoke key confirmation')
	expect((await call('/api/v1/courses', secret)).status).toBe(200)
	await page.getByRole('alert').getByRole('button', { name: 'Revoke the key' }).click()
	await expect(page.getByText('The key was revoked.')).toBeVisible()
	await expect(keyRow).toContainText('Revoked')
	expect((await call('/api/v1/courses', secret)).status).toBe(401)

	// A SCIM token: shown once, works, revoked.
	await settingsPage(page, 'SCIM provisioning', 'SCIM provisioning')
	const label = `Entra ${suffix}`
	await page.getByLabel('Label', { exact: true }).fill(label)
	await page.getByRole('button', { name: 'Create token' }).click()
	const token = (await page.locator('#scim-token').textContent())!.trim()
	expect(token.length).toBeGreaterThan(20)
	await checked(page, info, 'SCIM token shown once')
	expect((await call('/scim/v2/Users?count=1', token)).status).toBe(200)
	await page.goto(page.url())
	expect(await page.content()).not.toContain(token)
	const tokenRow = page.getByRole('row').filter({ hasText: label })
	await tokenRow.getByRole('button', { name: `Revoke ${label}` }).click()
	await expect(page.getByText('The token was revoked: the identity provider can no longer use it.')).toBeVisible()
	await expect(tokenRow).toContainText('Revoked')
	expect((await call('/scim/v2/Users?count=1', token)).status).toBe(401)
})

test('the super admin makes a platform key, with which another system creates a tenant; the key revoked, it is refused', async ({
	page,
}, info) => {
	const suffix = `${info.project.name}-${Date.now()}`
	const onApex = (path: string, secret: string, body?: unknown) =>
		request(PORT, 'localhost', path, {
			method: body === undefined ? 'GET' : 'POST',
			headers: {
				authorization: `Bearer ${secret}`,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		})
	await signIn(page, 'localhost', 'root@platform.test')
	await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'))
	await page.goto(at('localhost', '/admin/tenants'))
	await page.getByRole('link', { name: 'Platform API keys' }).click()
	await expect(page.getByRole('heading', { name: 'Platform API keys', level: 1 })).toBeVisible()
	// No course to limit a platform key to.
	await expect(page.getByLabel('Limited to one course')).toHaveCount(0)
	const keyName = `Provisioning ${suffix}`
	await page.getByLabel('Name').fill(keyName)
	await page.getByLabel('Access').selectOption('read_write')
	await page.getByRole('button', { name: 'Create key' }).click()
	await expect(page.getByText(`The key “${keyName}” was created`)).toBeVisible()
	const secret = (await page.getByTestId('api-key-secret').textContent())!.trim()
	expect(secret).toMatch(/^lmsp_[A-Za-z0-9_-]{32}$/)
	await checked(page, info, 'platform key shown once')

	// The other system: a tenant with its first admin, then listed on the tenants page.
	const slug = `api-${suffix}`.toLowerCase().replace(/[^a-z0-9-]/g, '-')
	const made = await onApex('/api/v1/tenants', secret, {
		slug,
		name: `API ${suffix}`,
		adminEmail: `first@${slug}.test`,
	})
	expect(made.status).toBe(201)
	expect((await onApex('/api/v1/users', secret)).status).toBe(403)
	await page.goto(at('localhost', '/admin/tenants'))
	await expect(page.getByRole('row').filter({ hasText: `API ${suffix}` })).toContainText('active')

	await page.getByRole('link', { name: 'Platform API keys' }).click()
	const keyRow = page.getByRole('row').filter({ hasText: keyName })
	await expect(keyRow).toContainText(secret.slice(0, 13))
	expect(await page.content()).not.toContain(secret)
	await keyRow.getByRole('button', { name: `Revoke ${keyName}` }).click()
	await expect(page.getByRole('alert')).toContainText(`Revoke the key “${keyName}”?`)
	await page.getByRole('alert').getByRole('button', { name: 'Revoke the key' }).click()
	await expect(page.getByText('The key was revoked.')).toBeVisible()
	await expect(keyRow).toContainText('Revoked')
	await checked(page, info, 'platform key revoked')
	expect((await onApex('/api/v1/tenants', secret)).status).toBe(401)
})
