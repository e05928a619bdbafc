import { defineConfig } from 'vitest/config'

export default defineConfig({
	test: {
		include: ['tests/**/*.test.ts', 'app/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts'],
		// tests/authoring runs against Strapi: scripts/test-authoring.sh (vitest.authoring.config.ts).
		exclude: ['tests/e2e/**', 'tests/authoring/**', 'node_modules/**', 'cms/strapi/**'],
		pool: 'forks',
		testTimeout: 30_000,
		hookTimeout: 60_000,
		reporters: ['default', ['json', { outputFile: '.tmp/vitest.json' }]],
	},
})
