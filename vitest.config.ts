import { defineConfig } from 'vitest/config'

export default defineConfig({
	test: {
		include: ['tests/**/*.test.ts', 'app/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts'],
		exclude: ['tests/e2e/**', 'node_modules/**'],
		pool: 'forks',
		testTimeout: 30_000,
		hookTimeout: 60_000,
		reporters: ['default', ['json', { outputFile: '.tmp/vitest.json' }]],
	},
})
