import { expect, test, type Page } from '@playwright/test'
import { acmeAccount, at, BEFORE_QUIZ, DEMO_PASSWORD, passIntroQuiz, signInAs } from './support.ts'

// Every way into a page that needs an account, walked the way a visitor meets it: anonymous first,
// sent to sign in, and back on the page asked for, with JavaScript on (project js) and off (no-js).
// No URL a person sees may carry React Router's transport (`.data`, `_routes`).

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'

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
	const email = await acmeAccount(info, 'enroll')
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
	const email = await acmeAccount(info, 'deep')
	await page.goto(at(ACME, `${COURSE}/entry/what-is-http?from=mail`))
	await signInHere(page, email, `${COURSE}/entry/what-is-http?from=mail`)
	// Not enrolled yet: the entry sends the learner on to the course's landing, signed in now.
	await expect(page).toHaveURL(new RegExp(`${COURSE}(?:\\?|$)`))
	await expect(page.getByRole('button', { name: 'Enroll for free' })).toBeVisible()
	expectNoTransport(urls)
})

test('the dashboard, signed out', async ({ page }, info) => {
	const urls = recordUrls(page)
	const email = await acmeAccount(info, 'dash')
	await page.goto(at(ACME, '/learn/dashboard'))
	await signInHere(page, email, '/learn/dashboard')
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	expectNoTransport(urls)
})

test('a certificate page, signed out (a link from its mail)', async ({ page, browser }, info) => {
	const email = await acmeAccount(info, 'gated-cert', { enrolledIn: 'intro-to-web', completed: BEFORE_QUIZ })
	// The certificate is earned in another browser; this one opens its page from the mail, signed out.
	const earner = await browser.newPage({ javaScriptEnabled: info.project.name !== 'no-js' })
	await signInAs(earner, ACME, email, '/learn/dashboard')
	const mine = await passIntroQuiz(earner)
	await earner.close()
	const urls = recordUrls(page)
	await page.goto(at(ACME, mine))
	await signInHere(page, email, mine)
	await expect(page).toHaveURL(at(ACME, mine))
	await expect(page.getByRole('heading', { name: 'Certificate of completion' })).toBeVisible()
	expectNoTransport(urls)
})

test('an admin page, signed out', async ({ page }, info) => {
	const urls = recordUrls(page)
	const email = await acmeAccount(info, 'admin', { role: 'tenant_admin' })
	await page.goto(at(ACME, '/admin/users?q=gated'))
	await signInHere(page, email, '/admin/users?q=gated')
	await expect(page).toHaveURL(at(ACME, '/admin/users?q=gated'))
	await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible()
	expectNoTransport(urls)
})

test('a session that ends while an admin page is open', async ({ page, context }, info) => {
	const urls = recordUrls(page)
	const email = await acmeAccount(info, 'expired', { role: 'tenant_admin' })
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
