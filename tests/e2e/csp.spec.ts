import { expect, test, type Page } from '@playwright/test'
import { at, signIn } from './support.ts'

const ACME = 'acme.localhost'

/** Every Content-Security-Policy violation the page reports, as "directive: blocked URI". */
function recordViolations(page: Page) {
	const seen: string[] = []
	page.on('console', (message) => {
		if (/Content Security Policy/i.test(message.text())) seen.push(message.text())
	})
	return seen
}

async function expectHydrated(page: Page, javaScript: boolean) {
	// With JavaScript, the inline context script and the client entry both ran.
	if (!javaScript) return
	// The client entry hydrates after loading the route modules, which may finish after the load event.
	await expect.poll(() => page.evaluate(() => ({ context: typeof (window as any).__reactRouterContext, router: typeof (window as any).__reactRouterDataRouter }))).toEqual({ context: 'object', router: 'object' })
}

test('pages run under the Content-Security-Policy without a single violation, fresh and from the page cache', async ({ page }, info) => {
	const violations = recordViolations(page)
	const javaScript = info.project.name !== 'no-js'
	// /blog twice: the second answer comes from the page cache, with hashes instead of a nonce.
	for (const path of ['/blog', '/blog', '/learn/course/intro-to-web', '/learn/sign-in']) {
		await page.goto(at(ACME, path))
		await expectHydrated(page, javaScript)
	}
	await signIn(page, ACME, 'learner@acme.test')
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))
	for (const path of ['/learn/dashboard', '/learn/course/intro-to-web', '/learn/course/intro-to-web/entry/what-is-http', '/learn/account']) {
		await page.goto(at(ACME, path))
		await expectHydrated(page, javaScript)
	}
	expect(violations).toEqual([])
})
