import { expect, test } from '@playwright/test'
import { acmeAccount, at, BEFORE_QUIZ, passIntroQuiz, signInAs } from './support.ts'

// The whole certificate path as people meet it, with JavaScript on (project js) and off (no-js):
// the learner passes the course's last step, finds the certificate on the dashboard, opens it and
// its public verification page; a visitor verifies it signed out; an admin revokes it with a
// reason; the page then says revoked (decision 0038).

const ACME = 'acme.localhost'

test('a learner passes, gets the certificate, anyone verifies it, an admin revokes it', async ({
	page,
	browser,
}, info) => {
	test.setTimeout(90_000)
	const email = await acmeAccount(info, 'certified', { enrolledIn: 'intro-to-web', completed: BEFORE_QUIZ })
	await signInAs(page, ACME, email, '/learn/dashboard')
	// Nothing before the course is passed.
	await expect(page.getByRole('heading', { name: 'My certificates' })).toHaveCount(0)
	await passIntroQuiz(page)
	await expect(page.getByRole('heading', { name: 'My certificates' })).toBeVisible()
	await page.getByRole('link', { name: 'View the certificate for Introduction to the Web' }).click()
	await page.waitForURL(/\/learn\/certificates\/[A-Za-z0-9_-]{22}$/)
	const certificate = page.locator('article.certificate')
	await expect(certificate.getByRole('heading', { name: 'Certificate of completion' })).toBeVisible()
	await expect(certificate.getByText(`E2E certified`, { exact: true })).toBeVisible()
	await expect(certificate.getByRole('img', { name: 'QR code of the verification address' })).toBeVisible()
	const linkedIn = await page.getByRole('link', { name: 'Add to LinkedIn profile' }).getAttribute('href')
	expect(new URL(linkedIn!).searchParams.get('name')).toBe('Introduction to the Web')
	const verifyUrl = await certificate.locator('a.certificate-url').getAttribute('href')
	expect(verifyUrl).toMatch(/\/certificates\/[A-Za-z0-9_-]{22}$/)
	const verifyPath = new URL(verifyUrl!).pathname

	// A visitor, signed out, on the tenant's host.
	const visitor = await browser.newPage({ javaScriptEnabled: info.project.name !== 'no-js' })
	await visitor.goto(at(ACME, verifyPath))
	await expect(visitor.getByRole('heading', { name: 'Certificate verification' })).toBeVisible()
	await expect(visitor.getByText('Valid certificate')).toBeVisible()
	await visitor.goto(at(ACME, `/de${verifyPath}`))
	await expect(visitor.getByText('Gültiges Zertifikat')).toBeVisible()

	// The admin revokes it: asked for a reason first, then it is done.
	const adminPage = await browser.newPage({ javaScriptEnabled: info.project.name !== 'no-js' })
	await signInAs(adminPage, ACME, 'admin@acme.test', '/admin/courses/intro-to-web/certificates')
	const row = adminPage.getByRole('row').filter({ hasText: email })
	await row.getByRole('button', { name: 'Revoke' }).click()
	await adminPage.getByLabel('Reason (recorded in the audit log)').fill('Shared the quiz answers')
	await adminPage.getByRole('button', { name: 'Revoke the certificate' }).click()
	await expect(adminPage.getByText('The certificate was revoked.')).toBeVisible()
	await expect(adminPage.getByRole('row').filter({ hasText: email })).toContainText('Shared the quiz answers')

	await visitor.goto(at(ACME, verifyPath))
	await expect(visitor.getByText('Revoked certificate')).toBeVisible()
	await page.reload()
	await expect(page.getByText(/This certificate was revoked on/)).toBeVisible()
	await visitor.close()
	await adminPage.close()
})

test('another host and a made-up address say the certificate is not theirs', async ({ page }) => {
	await page.goto(at('globex.localhost', '/certificates/AAAAAAAAAAAAAAAAAAAAAA'))
	await expect(page.getByText(/Not a certificate of/)).toBeVisible()
	await page.goto(at(ACME, '/es/certificates/not-an-id'))
	await expect(page.getByText(/No es un certificado de/)).toBeVisible()
})
