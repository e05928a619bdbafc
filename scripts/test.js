// `npm test` (after pretest has made sure of Chromium): every stage runs even
// when an earlier one fails, so one failure never hides the results after it;
// the exit code is non-zero if any stage failed. A step is one stage, or several
// run side by side (they neither share ports nor databases nor time each other's CPU).
import { spawn } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs'

const stage = (name, command, args) => ({ name, command, args })

// The authoring stage (Strapi, scripts/test-authoring.sh) joins when CI asks for it (.ci/run sets
// TEST_AUTHORING=1 after installing the CMS in the background): it mostly waits on Strapi and the
// network, so it runs beside Lighthouse rather than after it (issue 50). It runs at a lower CPU priority:
// Lighthouse's simulated throttling scales the main-thread tasks it observes, so CPU taken by Strapi's
// seed or the editor walk's browser while a page loads shows up as blocking time (a loaded, slower
// machine scored the signed-in pages 0.91). Lighthouse leaves most of the second core idle, which the
// authoring tests (latencies bounded at 1.5-2 s) take.
const authoring =
	process.env.TEST_AUTHORING === '1'
		? [stage('authoring', 'nice', ['-n', '10', 'bash', 'scripts/test-authoring.sh'])]
		: []

const STEPS = [
	// Every later stage needs the build.
	[stage('build', 'npm', ['run', 'build'])],
	// Three files at a time, with the suites that mostly wait (outages, restarts, drains, the enumeration
	// suite's interleaved samples) two at a time beside them (vitest.config.ts, decisions 0075 and 0097).
	[
		stage('vitest', 'sh', ['-c', 'VITEST_GROUP=parallel npx vitest run']),
		stage('vitest-beside', 'sh', ['-c', 'VITEST_GROUP=beside npx vitest run']),
	],
	// The suites that bound answers in milliseconds, one at a time. They mostly wait (alone, the two cores
	// were 58 % idle), so the type check runs beside them at the lowest CPU priority, which takes only
	// what they leave (decision 0104); the linters, the other half of that work, go beside Lighthouse
	// (below), where the cores were 21 % idle. Both halves beside the timed suites made the step twice as
	// long as the suites (246 s against 123 s).
	[
		stage('vitest (timed)', 'sh', ['-c', 'VITEST_GROUP=timed npx vitest run']),
		stage('typecheck', 'nice', ['-n', '19', 'npm', 'run', 'typecheck']),
	],
	[stage('playwright', 'npx', ['playwright', 'test'])],
	// ESLint, Prettier and knip (npm run lint), then Redocly and Spectral (npm run lint:openapi): both run,
	// so one failure never hides the other.
	[
		stage('lighthouse', 'npx', ['tsx', 'tests/lighthouse/run.ts']),
		...authoring,
		stage('lint', 'nice', [
			'-n',
			'19',
			'sh',
			'-c',
			'npm run lint; l=$?; npm run lint:openapi; o=$?; [ $l -eq 0 ] && [ $o -eq 0 ]',
		]),
	],
]

// A stage beside the first of its step writes to .tmp/<name>.log, printed when it ends, so the
// logs do not interleave. Answers [name, exit code, seconds].
function run({ name, command, args }, beside) {
	const started = Date.now()
	const log = beside ? openSync(`.tmp/${name}.log`, 'w') : null
	return new Promise((resolve) => {
		const done = (code) => {
			if (log !== null) {
				closeSync(log)
				process.stdout.write(readFileSync(`.tmp/${name}.log`))
			}
			resolve([name, code ?? 1, Math.round((Date.now() - started) / 1000), beside])
		}
		spawn(command, args, { stdio: log === null ? 'inherit' : ['ignore', log, log] })
			.on('exit', done)
			.on('error', () => done(1))
	})
}

mkdirSync('.tmp', { recursive: true })
const results = []
for (const step of STEPS) results.push(...(await Promise.all(step.map((s, i) => run(s, i > 0)))))
// The seconds per stage, so CI's budget shows where it goes.
for (const [name, status, seconds, beside] of results)
	console.log(
		`${name}: ${status === 0 ? 'passed' : `failed (exit ${status})`} in ${seconds} s${beside ? ' (beside the stage above)' : ''}`,
	)
process.exit(results.some(([, status]) => status !== 0) ? 1 : 0)
