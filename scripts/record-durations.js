// `node scripts/record-durations.js`: after `npm test`, writes each vitest file's seconds from the
// three reports (.tmp/vitest*.json) into tests/durations.json, which the sequencer reads to start the
// longest files first (tests/support/sequencer.ts, decision 0104). Rerun it when files come or grow.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'

const durations = {}
for (const report of ['.tmp/vitest.json', '.tmp/vitest-beside.json', '.tmp/vitest-timed.json']) {
	if (!existsSync(report)) continue
	for (const file of JSON.parse(readFileSync(report, 'utf8')).testResults)
		durations[relative(process.cwd(), file.name)] = Math.round((file.endTime - file.startTime) / 100) / 10
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)))
writeFileSync('tests/durations.json', `${JSON.stringify(sorted, null, '\t')}\n`)
console.log(`tests/durations.json: ${Object.keys(sorted).length} files`)
