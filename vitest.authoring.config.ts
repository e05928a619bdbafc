import { defineConfig } from 'vitest/config'

// The authoring suite runs against a running Strapi (cms/strapi): scripts/test-authoring.sh
// starts it and sets STRAPI_URL, CONTENT_SERVICE_URL and the ports its webhooks go to. One file at
// a time: they share those ports.
export default defineConfig({
	test: {
		include: ['tests/authoring/**/*.test.ts', 'tests/integration/content-service.test.ts'],
		pool: 'forks',
		fileParallelism: false,
		testTimeout: 60_000,
		hookTimeout: 60_000,
		reporters: ['default', 'json'],
		outputFile: { json: '.tmp/authoring/vitest.json' },
	},
})
