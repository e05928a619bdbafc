// Prints one closing line over the vitest and Playwright JSON reports:
// "tests: N passed, N failed, N skipped", after the hostile suite's cases per class, the fault suite's lines,
// the bytes-on-the-wire table, the authoring stage (Strapi) and Lighthouse's scores.
import { existsSync, readdirSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
// Failed tests' names, printed after the closing counts: CI shows the end of its log.
const failedNames = []
const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null)

// npm test writes three vitest reports (vitest.config.ts): the files run two at a time, the suites beside them, and the timed suites.
const vitestReports = ['.tmp/vitest.json', '.tmp/vitest-beside.json', '.tmp/vitest-timed.json']
	.map(read)
	.filter(Boolean)
const vitest = vitestReports.length
	? vitestReports.reduce((a, b) => ({
			numPassedTests: a.numPassedTests + b.numPassedTests,
			numFailedTests: a.numFailedTests + b.numFailedTests,
			numPendingTests: a.numPendingTests + b.numPendingTests,
			numTodoTests: a.numTodoTests + b.numTodoTests,
			testResults: [...a.testResults, ...b.testResults],
		}))
	: null
if (vitest) {
	passed += vitest.numPassedTests
	failed += vitest.numFailedTests
	skipped += vitest.numPendingTests + vitest.numTodoTests
	console.log(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`)
	printFailures(vitest)
} else console.log('vitest: no report')

const playwright = read('.tmp/playwright.json')
if (playwright) {
	const s = playwright.stats
	passed += s.expected
	failed += s.unexpected + s.flaky
	skipped += s.skipped
	console.log(`playwright: ${s.expected} passed, ${s.unexpected + s.flaky} failed`)
	const failures = (suite) => [
		...(suite.specs ?? []).flatMap((spec) =>
			spec.tests
				.filter((t) => t.status !== 'expected' && t.status !== 'skipped')
				.map((t) => `${spec.file} > ${spec.title} [${t.projectName}]`),
		),
		...(suite.suites ?? []).flatMap(failures),
	]
	failedNames.push(...playwright.suites.flatMap(failures))
} else console.log('playwright: no report')

// tests/hostile writes one file per class and database: .tmp/hostile/<class>.<dialect>.json
if (existsSync('.tmp/hostile')) {
	const byClass = new Map()
	for (const file of readdirSync('.tmp/hostile').sort()) {
		const { class: name, dialect, cases, failures } = read(`.tmp/hostile/${file}`)
		byClass.set(name, [...(byClass.get(name) ?? []), `${dialect} ${cases} cases, ${failures} failures`])
	}
	for (const [name, lines] of byClass) console.log(`hostile ${name}: ${lines.join('; ')}`)
} else console.log('hostile: no report')

// tests/faults writes one file per fault and database: .tmp/faults/<fault>.<dialect>.json, with
// the columns of issue 46's table (tests/faults/support.ts, FaultRow) and the fault's own figures.
if (existsSync('.tmp/faults')) {
	const faults = readdirSync('.tmp/faults')
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => read(`.tmp/faults/${f}`))
	const cell = (v, unit = '') => (v === undefined ? '–' : `${v}${unit}`)
	console.log(
		'| fault | db | requests | acknowledged writes | rows found | failed but stored | slowest answer | recovery |',
	)
	console.log('|---|---|---|---|---|---|---|---|')
	for (const { name, dialect, row } of faults)
		console.log(
			`| ${name} | ${dialect} | ${cell(row.requests)} | ${cell(row.acknowledged)} | ${cell(row.found)} | ${cell(row.failedButStored)} | ${cell(row.slowestMs, ' ms')} | ${cell(row.recoveryMs, ' ms')} |`,
		)
	for (const { line } of faults) console.log(line)
} else console.log('faults: no report')

// tests/integration/wire.test.ts: one table per database (the same bytes on both; SQLite's is printed)
for (const dialect of ['sqlite', 'pg']) {
	if (!existsSync(`.tmp/wire.${dialect}.txt`)) continue
	console.log(readFileSync(`.tmp/wire.${dialect}.txt`, 'utf8'))
	break
}
if (!existsSync('.tmp/wire.sqlite.txt') && !existsSync('.tmp/wire.pg.txt')) console.log('wire: no report')

// scripts/test-authoring.sh: the content contract, webhooks and author's day against Strapi (cms/strapi)
const authoring = ['.tmp/authoring/contract.json', '.tmp/authoring/vitest.json'].map(read)
if (authoring.every(Boolean)) {
	const [ok, bad] = authoring.reduce(([p, f], r) => [p + r.numPassedTests, f + r.numFailedTests], [0, 0])
	passed += ok
	failed += bad
	console.log(`authoring (Strapi): ${ok} passed, ${bad} failed`)
	authoring.forEach(printFailures)
	if (existsSync('.tmp/authoring/steps.txt')) console.log(readFileSync('.tmp/authoring/steps.txt', 'utf8').trimEnd())
	// The stage's own checks (a second seed created nothing, nothing reached outside loopback).
	if (existsSync('.tmp/authoring/status') && readFileSync('.tmp/authoring/status', 'utf8').trim() !== '0' && bad === 0)
		failed += 1
} else {
	console.log('authoring: no report')
	failed += 1
}

// tests/lighthouse/run.ts
const lighthouse = read('.tmp/lighthouse.json')
if (lighthouse) {
	console.log(readFileSync('.tmp/lighthouse.txt', 'utf8'))
	if (lighthouse.failures.length) failed += 1
	else passed += 1
} else {
	console.log('lighthouse: no report')
	failed += 1
}

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
for (const name of failedNames) console.log(`  failed: ${name}`)

/** A vitest JSON report's failed tests, by file and name, with the first line of why. */
function printFailures(report) {
	for (const file of report.testResults)
		for (const test of file.assertionResults.filter((t) => t.status === 'failed')) {
			const why = (test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 200)
			failedNames.push(`${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}: ${why}`)
		}
}
