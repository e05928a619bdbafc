import { defineConfig } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3210)

// Debian's Chromium only; the suite never downloads a browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
	testDir: 'tests/e2e',
	timeout: 30_000,
	// A navigation with its loaders, on two cores shared by three workers and their Chromiums, has taken
	// over 5 s (Playwright's default) in CI: a walk's notice after a confirmed role change was missed so.
	expect: { timeout: 10_000 },
	// Three: the tests mostly wait (on pages, mail, the server), a third worker fills the two cores.
	workers: 3,
	reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
	use: {
		baseURL: `http://acme.localhost:${PORT}`,
		launchOptions: {
			executablePath: CHROMIUM,
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				// Test hosts: tenant subdomains, a custom domain and a foreign host, all on loopback.
				'--host-resolver-rules=MAP *.localhost 127.0.0.1, MAP localhost 127.0.0.1, MAP learn.acme.test 127.0.0.1, MAP evil.test 127.0.0.1',
			],
		},
	},
	projects: [
		// The longest tests first, so that they do not end the run alone.
		// axe-core runs inside the page, so it needs JavaScript; the server-rendered HTML it checks is the same.
		{ name: 'a11y', use: { javaScriptEnabled: true }, testMatch: /a11y\.spec\.ts/ },
		{ name: 'js', use: { javaScriptEnabled: true }, testIgnore: /(a11y|lab|screenshots)\.spec\.ts/ },
		// The CSP test watches scripts run under the policy: with JavaScript off none run, so it would pass whatever the policy.
		{ name: 'no-js', use: { javaScriptEnabled: false }, testIgnore: /(a11y|lab|screenshots|csp)\.spec\.ts/ },
		// The throttled largest-contentful-paint check reads the paint timing in the page.
		{ name: 'lab', use: { javaScriptEnabled: true }, testMatch: /lab\.spec\.ts/ },
		// Only with `npm run screenshots`.
		...(process.env.SCREENSHOTS
			? [{ name: 'screenshots', use: { javaScriptEnabled: true }, testMatch: /screenshots\.spec\.ts/ }]
			: []),
	],
	webServer: {
		command: 'node --import tsx tests/e2e/serve.ts',
		url: `http://localhost:${PORT}/api/health`,
		reuseExistingServer: false,
		timeout: 60_000,
		env: { E2E_PORT: String(PORT) },
	},
})
