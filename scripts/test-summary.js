// Prints one closing line over the vitest and Playwright JSON reports:
// "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null)

const vitest = read('.tmp/vitest.json')
if (vitest) {
	passed += vitest.numPassedTests
	failed += vitest.numFailedTests
	skipped += vitest.numPendingTests + vitest.numTodoTests
	console.log(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`)
} else console.log('vitest: no report')

const playwright = read('.tmp/playwright.json')
if (playwright) {
	const s = playwright.stats
	passed += s.expected
	failed += s.unexpected + s.flaky
	skipped += s.skipped
	console.log(`playwright: ${s.expected} passed, ${s.unexpected + s.flaky} failed`)
} else console.log('playwright: no report')

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
