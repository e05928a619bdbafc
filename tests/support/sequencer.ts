import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const seconds: Record<string, number> = JSON.parse(readFileSync(new URL('../durations.json', import.meta.url), 'utf8'))

/**
 * The longest files first, by the seconds a CI run recorded (tests/durations.json, written by
 * `node scripts/record-durations.js`), so that no long file starts last and ends its group alone
 * while the other workers sit idle (decision 0104). A clean clone has no vitest cache, and vitest's
 * own order without one is by file size: the two isolation suites, 37 s each, started last. Files
 * not recorded yet go first, as vitest runs unknown files first, in its own order.
 */
export default class LongestFirst extends BaseSequencer {
	override async sort(files: TestSpecification[]) {
		const known = (file: TestSpecification) =>
			seconds[relative(file.project.config.root, file.moduleId)] ?? Number.MAX_SAFE_INTEGER
		return (await super.sort(files)).sort((a, b) => known(b) - known(a))
	}
}
