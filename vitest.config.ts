import { defineConfig } from 'vitest/config'

// Suites that time answers (the fault runs, the enumeration suite): they run one file at a time, alone,
// so no other suite's load shows in what they measure. Everything else runs two files at a time, the
// fault suites that time nothing (a write made to fail half way: tests/faults/actions and writes) too.
// `npm test` runs the two groups one after the other (VITEST_GROUP, scripts/test.js); without it,
// `npx vitest run` runs every file.
const TIMED = [
	'tests/faults/{database,drain,freeze,hand-ins,load,mail,queue,redis,serving,stalls}.test.ts',
	'tests/hostile/enumeration.test.ts',
	'tests/integration/faults.test.ts',
]
const ALL = ['tests/**/*.test.ts', 'app/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts']
const group = process.env.VITEST_GROUP as 'timed' | 'parallel' | undefined

export default defineConfig({
	test: {
		include: group === 'timed' ? TIMED : ALL,
		// tests/authoring runs against Strapi: scripts/test-authoring.sh (vitest.authoring.config.ts).
		exclude: [
			'tests/e2e/**',
			'tests/authoring/**',
			'node_modules/**',
			'cms/strapi/**',
			...(group === 'parallel' ? TIMED : []),
		],
		pool: 'forks',
		maxWorkers: group === 'parallel' ? 2 : 1,
		minWorkers: 1,
		testTimeout: 30_000,
		hookTimeout: 60_000,
		reporters: ['default', ['json', { outputFile: `.tmp/vitest${group === 'timed' ? '-timed' : ''}.json` }]],
	},
})
