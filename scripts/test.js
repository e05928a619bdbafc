// `npm test` (after pretest has made sure of Chromium): every stage runs even
// when an earlier one fails, so one failure never hides the results after it;
// the exit code is non-zero if any stage failed.
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'

const STAGES = [
	// Types, then ESLint, Prettier and knip (npm run lint), then Redocly and Spectral on the OpenAPI document
	// (npm run lint:openapi): all three run, so one failure never hides another.
	// The build runs beside them (each mostly uses one core of two); every later stage needs it.
	[
		'build, typecheck and lint',
		'sh',
		[
			'-c',
			'npm run build >.tmp/build.log 2>&1 & b=$!; npm run typecheck; t=$?; npm run lint; l=$?; npm run lint:openapi; o=$?; wait $b; bs=$?; cat .tmp/build.log; [ $bs -eq 0 ] && [ $t -eq 0 ] && [ $l -eq 0 ] && [ $o -eq 0 ]',
		],
	],
	// Two files at a time, then the suites that time answers one at a time (vitest.config.ts).
	['vitest', 'sh', ['-c', 'VITEST_GROUP=parallel npx vitest run']],
	['vitest (timed)', 'sh', ['-c', 'VITEST_GROUP=timed npx vitest run']],
	['playwright', 'npx', ['playwright', 'test']],
	// Last and alone: it measures this machine's CPU (tests/lighthouse/run.ts).
	['lighthouse', 'npx', ['tsx', 'tests/lighthouse/run.ts']],
]

mkdirSync('.tmp', { recursive: true })
const results = STAGES.map(([name, command, args]) => {
	const started = Date.now()
	const { status } = spawnSync(command, args, { stdio: 'inherit' })
	return [name, status ?? 1, Math.round((Date.now() - started) / 1000)]
})
// The seconds per stage, so CI's 30-minute budget shows where it goes.
for (const [name, status, seconds] of results)
	console.log(`${name}: ${status === 0 ? 'passed' : `failed (exit ${status})`} in ${seconds} s`)
process.exit(results.some(([, status]) => status !== 0) ? 1 : 0)
