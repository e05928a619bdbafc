import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'
import LongestFirst from './tests/support/sequencer.ts'

// Three groups (VITEST_GROUP; scripts/test.js runs them, decision 0075). `timed`: suites that bound
// answers in milliseconds (a cached page within 50 ms while the database stalls, readiness within
// 500 ms while it is frozen): one file at a time, with nothing beside them but the type check at the lowest
// CPU priority (scripts/test.js), so no other suite's load shows in what they measure. `beside`: suites that time things loosely or by statistics (the enumeration suite compares
// interleaved samples and the app's own CPU time; the fault runs that wait out outages, restarts and
// drains assert seconds, memory and what is stored): two files at a time, beside the `parallel` group,
// since they mostly wait (the machine was 2 % busy running them alone; and, for now, the two suites
// named below). `parallel`: everything else, three files at a time (decision 0097). Without VITEST_GROUP,
// `npx vitest run` runs every file.
const TIMED = [
	'tests/faults/{database,freeze,load,redis,serving,stalls}.test.ts',
	// Bounds each query's settling in milliseconds; in a worker shared with other files it missed once.
	'tests/integration/postgres-driver.test.ts',
]
const BESIDE = [
	'tests/faults/{drain,hand-ins,mail,queue,reminders,webhooks}.test.ts',
	'tests/hostile/enumeration.test.ts',
	'tests/integration/faults.test.ts',
	// The suites whose app calls the test identity provider on http://localhost: in a worker shared with
	// other files that call failed ("Failed to send request": every sign-in of tests/integration/oauth.test.ts
	// in one CI run, the external sign-in of tests/faults/actions.test.ts with three workers), for a reason
	// not found yet. Each runs in a process of its own until it is.
	'tests/integration/oauth.test.ts',
	'tests/faults/actions.test.ts',
]
const ALL = ['tests/**/*.test.ts', 'app/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts']
const group = process.env.VITEST_GROUP as 'timed' | 'beside' | 'parallel' | undefined
const ONE_AT_A_TIME = { timed: TIMED, beside: BESIDE } as const
// Files at a time. The parallel group's files wait on each other's timers and sockets as much as on the two
// cores (the machine was 44 % idle running them two at a time alone): three finish it sooner (decision 0097).
const WORKERS = group ? { parallel: 3, beside: 2, timed: 1 }[group] : 1

export default defineConfig({
	// The root tsconfig.json for every file, given rather than looked up per file: a test of a module of the
	// Strapi app (cms/strapi/src) would otherwise read cms/strapi/tsconfig.json, which extends a package of
	// the Strapi install, and fail while CI's background install (.ci/run) has not made it yet.
	esbuild: { tsconfigRaw: readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8') },
	test: {
		include: group === 'timed' || group === 'beside' ? ONE_AT_A_TIME[group] : ALL,
		// tests/authoring runs against Strapi: scripts/test-authoring.sh (vitest.authoring.config.ts).
		exclude: [
			'tests/e2e/**',
			'tests/authoring/**',
			'node_modules/**',
			'cms/strapi/**',
			...(group === 'parallel' ? [...TIMED, ...BESIDE] : []),
		],
		// React's production code in every test process, as users get it (decision 0081): React and
		// react-dom choose theirs by NODE_ENV when first loaded, and a test that imports an app module
		// before the build would otherwise pair development React with production react-dom. The app's
		// own test mode is the env the tests give it (testEnv), not this.
		env: { NODE_ENV: 'production' },
		// The app's info log lines stay out of the output (TEST_LOG=info brings them back).
		setupFiles: ['tests/support/quiet-logs.ts'],
		pool: 'forks',
		sequence: { sequencer: LongestFirst },
		// The parallel group's files share their worker's modules (the built server, the test helpers):
		// each file in a fresh process spent about 3.5 s of a core before its first test, 137 files.
		// Every file makes its own stack, database and content service, and restores what it changes.
		isolate: group !== 'parallel',
		maxWorkers: WORKERS,
		// As many kept as started: with fewer, the pool ended a worker it had shrunk away at the end of the
		// run ("Terminating worker thread", an unhandled rejection that failed a run whose tests all passed).
		minWorkers: WORKERS,
		testTimeout: 30_000,
		hookTimeout: 60_000,
		reporters: [
			'default',
			['json', { outputFile: `.tmp/vitest${group && group !== 'parallel' ? `-${group}` : ''}.json` }],
		],
	},
})
