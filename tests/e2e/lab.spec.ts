import { expect, test, type Page } from '@playwright/test'
import { at, signInAs } from './support.ts'

const ACME = 'acme.localhost'
const ENTRY = '/learn/course/intro-to-web/entry/what-is-http'

// A Lighthouse-style lab run: a 1.6 Mbps link with 150 ms round trips (Lighthouse's
// "slow 4G" figures) and a CPU four times slower, set through the DevTools protocol.
const LINK = {
	offline: false,
	latency: 150,
	downloadThroughput: (1.6 * 1024 * 1024) / 8,
	uploadThroughput: (750 * 1024) / 8,
}
const CPU_SLOWDOWN = 4
const LCP_BUDGET_MS = 2500

/** The page's cache emptied and off, and its network throttled to `link`, through the DevTools protocol. */
async function coldCacheOn(page: Page, link: typeof LINK) {
	const cdp = await page.context().newCDPSession(page)
	await cdp.send('Network.enable')
	await cdp.send('Network.clearBrowserCache')
	await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
	await cdp.send('Network.emulateNetworkConditions', link)
	return cdp
}

test('the entry page paints its largest content within 2.5 s on a slow link and a slow CPU, cold cache', async ({
	page,
}) => {
	await signInAs(page, ACME, 'learner@acme.test', '/learn/dashboard')
	const cdp = await coldCacheOn(page, LINK)
	await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })

	await page.goto(at(ACME, ENTRY), { waitUntil: 'load' })
	const lcp = await page.evaluate(
		() =>
			new Promise<{ time: number; element: string }>((resolve) => {
				new PerformanceObserver((list) => {
					const last = list.getEntries().at(-1) as PerformanceEntry & { element?: Element }
					resolve({ time: last.startTime, element: last.element?.tagName.toLowerCase() ?? '' })
				}).observe({ type: 'largest-contentful-paint', buffered: true })
			}),
	)
	const transferred = await page.evaluate(
		() =>
			performance
				.getEntriesByType('resource')
				.reduce((sum, r) => sum + (r as PerformanceResourceTiming).transferSize, 0) +
			((performance.getEntriesByType('navigation')[0] as PerformanceResourceTiming)?.transferSize ?? 0),
	)
	console.log(
		`lab: ${ENTRY} LCP ${Math.round(lcp.time)} ms (<${lcp.element}>), ${transferred} bytes transferred, 1.6 Mbps / 150 ms / ${CPU_SLOWDOWN}x CPU`,
	)
	test.info().annotations.push({ type: 'lcp-ms', description: String(Math.round(lcp.time)) })
	expect(lcp.time).toBeGreaterThan(150) // the throttling took effect: at least one round trip
	expect(lcp.time).toBeLessThan(LCP_BUDGET_MS)
	await cdp.detach()
})

// A slow phone link (issue 47): 400 kbit/s down, 400 ms round trips, cold cache; the CPU unthrottled.
// The lesson ships no JavaScript (decision 0106): it is interactive, its links and forms working, once
// the document is parsed and painted. Hydrating React there took 3.6–3.7 s on this link (decision 0076).
const SLOW_LINK = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 }
const INTERACTIVE_BUDGET_MS = 2000

test('the entry page is interactive within 2 s on a 400 kbit/s, 400 ms link, cold cache', async ({ page }) => {
	await signInAs(page, ACME, 'learner@acme.test', '/learn/dashboard')
	const cdp = await coldCacheOn(page, SLOW_LINK)

	await page.goto(at(ACME, ENTRY), { waitUntil: 'load' })
	const timing = await page.evaluate(async () => {
		const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
		const paint = await new Promise<number>((resolve) =>
			new PerformanceObserver((list) => resolve(list.getEntries()[0].startTime)).observe({
				type: 'paint',
				buffered: true,
			}),
		)
		const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
		const scripts = resources.filter((r) => r.initiatorType === 'script' || /\.js$/.test(r.name))
		return {
			// Parsed (forms and links work) and painted, whichever comes later.
			interactive: Math.max(navigation.domContentLoadedEventEnd, paint),
			scripts: scripts.length,
		}
	})
	console.log(
		`lab: ${ENTRY} interactive at ${Math.round(timing.interactive)} ms, ${timing.scripts} scripts, 400 kbit/s / 400 ms`,
	)
	test.info().annotations.push({ type: 'interactive-ms', description: String(Math.round(timing.interactive)) })
	expect(timing.scripts).toBe(0)
	expect(timing.interactive).toBeGreaterThan(800) // the throttling took effect: at least two round trips
	expect(timing.interactive).toBeLessThan(INTERACTIVE_BUDGET_MS)
	await cdp.detach()
})
