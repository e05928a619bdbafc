import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const ACME = 'acme.localhost'

/** The target of a single-fetch redirect (a data request's answer, JavaScript on). */
const dataRedirect = (text: string) => /"redirect","([^"]+)"/.exec(text)?.[1]

/**
 * One route table serves every locale prefix as React Router's basename
 * (server/app.ts). Redirects must land where the code says, for a document
 * request and for a data request (whose path the browser puts under its
 * basename again), and a data request leaving the prefix must load a new document.
 */
describe.each(DIALECTS)('locale prefixes as basenames on %s', (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(() => stack?.close())

	it('redirects within a prefix to the path the code names, not under the prefix twice', async () => {
		const b = stack.browser(ACME)
		const page = await b.post('/es/learn/forgot', { email: 'nobody@acme.test' })
		expect(page.status).toBe(302)
		expect(page.headers.location).toBe('/es/learn/forgot?notice=sent')
		// The browser's router puts /es before a data request's redirect itself.
		const data = await b.post('/es/learn/forgot.data', { email: 'nobody@acme.test' })
		expect(dataRedirect(data.text)).toBe('/learn/forgot?notice=sent')
		const gated = await stack.request(ACME, '/fr/learn/dashboard')
		expect(gated.headers.location).toBe('/fr/learn/sign-in?callbackUrl=%2Ffr%2Flearn%2Fdashboard')
	})

	it('sends a data request that leaves its prefix to an absolute URL: a new document', async () => {
		const b = stack.browser(ACME)
		await b.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })
		// Signed in, the sign-in page sends the learner on to the callback, here under /fr.
		const page = await b.get('/es/learn/sign-in?callbackUrl=%2Ffr%2Flearn')
		expect(page.headers.location).toBe('/fr/learn')
		const data = await b.get('/es/learn/sign-in.data?callbackUrl=%2Ffr%2Flearn')
		expect(dataRedirect(data.text)).toBe(`http://${ACME}:${stack.port}/fr/learn`)
		// And from the unprefixed table into a prefix.
		const into = await b.get('/learn/sign-in.data?callbackUrl=%2Fde%2Flearn')
		expect(dataRedirect(into.text)).toBe(`http://${ACME}:${stack.port}/de/learn`)
	})

	it('keeps platform paths out of the prefixes', async () => {
		for (const path of [
			'/es/api/health',
			'/fr/robots.txt',
			'/de/openapi.yaml',
			'/pt/learn/locale',
			'/zh/sitemap.xml',
		]) {
			expect((await stack.request(ACME, path)).status, path).toBe(404)
		}
		expect((await stack.request(ACME, '/api/health')).status).toBe(200)
	})
})
