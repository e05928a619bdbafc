import { expect, test } from '@playwright/test'
import { acmeAccount, signInAs } from './support.ts'

const ACME = 'acme.localhost'

test('an admin reads the API documentation: Swagger UI with JavaScript, the server-rendered list without', async ({
	page,
}, info) => {
	// Its own tenant admin: sign-ins are limited per address, and other suites sign in as admin@acme.test.
	await signInAs(page, ACME, await acmeAccount(info, 'api-docs', { role: 'tenant_admin' }), '/admin')
	await page.getByRole('link', { name: 'API documentation' }).click()
	await expect(page.getByRole('heading', { name: 'API documentation' })).toBeVisible()
	if (info.project.name === 'no-js') {
		await expect(page.getByRole('cell', { name: 'GET /api/health', exact: true })).toBeVisible()
		await expect(page.getByRole('cell', { name: 'POST /api/cms/revalidate' })).toBeVisible()
	} else {
		await expect(
			page.locator('#swagger-ui .opblock-summary-path', { hasText: '/api/cms/revalidate' }).first(),
		).toBeVisible({ timeout: 15_000 })
		await expect(page.locator('#api-fallback')).toBeHidden()
	}
})
