import { expect, test, type Page } from '@playwright/test'
import { acmeAccount, at, signInAs } from './support.ts'

const ACME = 'acme.localhost'

/** Every Content-Security-Policy violation the page reports, as "directive: blocked URI". */
function recordViolations(page: Page) {
	const seen: string[] = []
	page.on('console', (message) => {
		if (/Content Security Policy/i.test(message.text())) seen.push(message.text())
	})
	return seen
}

/** A page that ships scripts hydrates; one that ships none (the JavaScript policy) runs none. */
async function expectScripts(page: Page, ships: boolean) {
	const wanted = ships ? { context: 'object', router: 'object' } : { context: 'undefined', router: 'undefined' }
	// The client entry hydrates after loading the route modules, which may finish after the load event.
	await expect
		.poll(() =>
			page.evaluate(() => ({
				context: typeof (window as any).__reactRouterContext,
				router: typeof (window as any).__reactRouterDataRouter,
			})),
		)
		.toEqual(wanted)
}

test('pages run under the Content-Security-Policy without a single violation, fresh and from the page cache', async ({
	page,
}) => {
	const violations = recordViolations(page)
	// Message catalogues are chunks named by part and locale, fetched only by pages that hydrate:
	// a learner's pages fetch none (decisions 0046, 0106).
	const catalogues = new Set<string>()
	page.on('request', (request) => {
		const part = /\/assets\/((?:learner|course|admin|audit)-(?:en|es|fr|de|pt|zh))-[\w-]+\.js$/.exec(
			new URL(request.url()).pathname,
		)?.[1]
		if (part) catalogues.add(part)
	})
	// /blog twice: the second answer comes from the page cache, with hashes instead of a nonce.
	for (const path of ['/blog', '/blog', '/learn/course/intro-to-web', '/learn/sign-in']) {
		await page.goto(at(ACME, path))
		await expectScripts(page, false)
	}
	// Learner pages ship no React (decision 0106): the dashboard's one script is its own, from 'self'.
	await signInAs(page, ACME, 'learner@acme.test', '/learn/dashboard')
	for (const path of [
		'/learn/dashboard',
		'/learn/course/intro-to-web',
		'/learn/course/intro-to-web/entry/what-is-http',
		'/learn/account',
	]) {
		await page.goto(at(ACME, path))
		await expectScripts(page, false)
	}
	expect([...catalogues]).toEqual([])
	// A client-side navigation from a staff page to a public one writes its description too (JSON-LD
	// data blocks run no code).
	await signInAs(page, ACME, 'admin@acme.test', '/admin')
	await expectScripts(page, true)
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Courses' }).click()
	await expect(page).toHaveTitle('Courses · Acme Academy')
	await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', /\/learn$/)
	await expect(page.locator('head meta[name="robots"]')).toHaveCount(0)
	const types = await page
		.locator('head script[type="application/ld+json"]')
		.evaluateAll((scripts) => scripts.map((s) => JSON.parse(s.textContent ?? '{}')['@type']))
	expect(types).toEqual(['BreadcrumbList', 'ItemList'])
	await expectScripts(page, true)
	expect(violations).toEqual([])
})

test("staff pages fetch the catalogue's parts they read: a course's pages the course staff's, the rest the administration's too", async ({
	page,
}, info) => {
	const catalogues = new Set<string>()
	page.on('request', (request) => {
		const part = /\/assets\/((?:learner|course|admin|audit)-en)-[\w-]+\.js$/.exec(new URL(request.url()).pathname)?.[1]
		if (part) catalogues.add(part)
	})
	const admin = await acmeAccount(info, 'catalogue-parts', { role: 'tenant_admin' })
	await signInAs(page, ACME, admin, '/admin/courses/intro-to-web/dashboard')
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	await expectScripts(page, true)
	expect([...catalogues].sort()).toEqual(['course-en', 'learner-en'])
	// A client-side navigation to the admin home: the page waits for the administration's part and the audit labels.
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click()
	await expect(page).toHaveURL(/\/admin$/)
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	// Polled: the course dashboard's heading also matches above, and the parts' requests may still be
	// going out when the URL has changed (one CI run read the set a moment before them).
	await expect.poll(() => [...catalogues].sort()).toEqual(['admin-en', 'audit-en', 'course-en', 'learner-en'])
})
