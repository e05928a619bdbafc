import { defineConfig } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3210)

// Debian's Chromium only; the suite never downloads a browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
	testDir: 'tests/e2e',
	timeout: 30_000,
	workers: 2,
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
		{ name: 'js', use: { javaScriptEnabled: true } },
		{ name: 'no-js', use: { javaScriptEnabled: false } },
	],
	webServer: {
		command: 'node --import tsx tests/e2e/serve.ts',
		url: `http://localhost:${PORT}/api/health`,
		reuseExistingServer: false,
		timeout: 60_000,
		env: { E2E_PORT: String(PORT) },
	},
})
