import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { hashPassword } from '#app/utils/password.server.ts'
import { findTenantBySlug } from '#db/tenants.ts'
import { createUser } from '#db/users.ts'
import type { Role } from '#db/schema/values.ts'
import { at, DEMO_PASSWORD, e2eDatabase, uniqueEmail } from './support.ts'

// Every way into a page that needs an account, walked the way a visitor meets it: anonymous first,
// sent to sign in, and back on the page asked for, with JavaScript on (project js) and off (no-js).
// No URL a person sees may carry React Router's transport (`.data`, `_routes`).

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'

/** A fresh account of this project's run: the js and no-js runs share one database. */
async function account(info: TestInfo, name: string, role: Role = 'student') {
	const email = uniqueEmail(info, name)
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	await createUser(db, { tenant_id: acme.id, email, name: 'Gated Visitor', role, password_hash: await hashPassword(DEMO_PASSWORD), email_verified_at: new Date() })
	await db.close()
	return email
}

/** Every URL the page was at, for the check that no transport suffix ever showed. */
function recordUrls(page: Page) {
	const seen: string[] = []
	page.on('framenavigated', (frame) => {
		if (frame === page.mainFrame()) seen.push(frame.url())
	})
	return seen
}

async function signInHere(page: Page, email: string, callbackPath: string) {
	const url = new URL(page.url())
	expect(url.pathname).toBe('/learn/sign-in')
	expect(url.searchParams.get('callbackUrl')).toBe(callbackPath)
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill(DEMO_PASSWORD)
	await page.getByRole('button', { name: 'Sign in' }).click()
}

function expectNoTransport(urls: string[]) {
	for (const url of urls) {
		expect(url, url).not.toMatch(/\.data(?:[?#/]|$)|[?&]_routes=|%2F_?\.data|\.data%3F/)
	}
}

test('enrolling from a course landing, signed out', async ({ page }, info) => {
	const urls = recordUrls(page)
	const email = await account(info, 'enroll')
	await page.goto(at(ACME, COURSE))
	await page.getByRole('button', { name: 'Sign in to enroll' }).click()
	await page.waitForURL(/\/learn\/sign-in/)
	await signInHere(page, email, `${COURSE}/enroll`)
	await expect(page).toHaveURL(at(ACME, `${COURSE}/enroll`))
	await page.getByRole('button', { name: 'Enroll for free' }).click()
	await expect(page.getByText('You are enrolled. Welcome to the course!')).toBeVisible()
	expectNoTransport(urls)
})

test('a deep link to an entry, signed out', async ({ page }, info) => {
	const urls = recordUrls(page)
	const email = await account(info, 'deep')
	await page.goto(at(ACME, `${COURSE}/entry/what-is-http?from=mail`))
	await signInHere(page, email, `${COURSE}/entry/what-is-http?from=mail`)
	// Not enrolled yet: the entry sends the learner on to the course's landing, signed in now.
	await expect(page).toHaveURL(new RegExp(`${COURSE}(?:\\?|$)`))
	await expect(page.getByRole('button', { name: 'Enroll for free' })).toBeVisible()
	expectNoTransport(urls)
})

test('the dashboard, signed out', async ({ page }, info) => {
	const urls = recordUrls(page)
	const email = await account(info, 'dash')
	await page.goto(at(ACME, '/learn/dashboard'))
	await signInHere(page, email, '/learn/dashboard')
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	expectNoTransport(urls)
})

test('an admin page, signed out', async ({ page }, info) => {
	const urls = recordUrls(page)
	const email = await account(info, 'admin', 'tenant_admin')
	await page.goto(at(ACME, '/admin/users?q=gated'))
	await signInHere(page, email, '/admin/users?q=gated')
	await expect(page).toHaveURL(at(ACME, '/admin/users?q=gated'))
	await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible()
	expectNoTransport(urls)
})

test('a session that ends while an admin page is open', async ({ page, context }, info) => {
	const urls = recordUrls(page)
	const email = await account(info, 'expired', 'tenant_admin')
	await page.goto(at(ACME, '/admin'))
	await signInHere(page, email, '/admin')
	await expect(page).toHaveURL(at(ACME, '/admin'))
	// With JavaScript the next click is a client-side navigation, a data request, that meets the sign-in redirect.
	await context.clearCookies()
	await page.getByRole('link', { name: 'Users', exact: true }).first().click()
	await page.waitForURL(/\/learn\/sign-in/)
	await signInHere(page, email, '/admin/users')
	await expect(page).toHaveURL(at(ACME, '/admin/users'))
	expectNoTransport(urls)
})
