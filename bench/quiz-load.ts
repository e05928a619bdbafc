// `npm run bench:load`: the mixed load of issue 46 (tests/faults/quiz-load.ts) at LOAD_CLIENTS clients
// (default 40, twice the load that failed) for LOAD_SECONDS (default 20) on PostgreSQL
// (TEST_DATABASE_URL) with two app processes of the production build. Prints one line and the
// first failures; exits non-zero on any 5xx or acknowledged write not stored.
import { describeLoad, runQuizLoad } from '#tests/faults/quiz-load.ts'

if (!process.env.TEST_DATABASE_URL) throw new Error('bench:load runs on PostgreSQL: set TEST_DATABASE_URL')
const figures = await runQuizLoad({
	clients: Number(process.env.LOAD_CLIENTS ?? 40),
	seconds: Number(process.env.LOAD_SECONDS ?? 20),
})
console.log(describeLoad(figures))
for (const f of figures.failures) console.log(`  failure: ${f}`)
for (const l of [...new Set(figures.serverErrors.map((l) => l.replace(/"(time|at|requestId)":"[^"]*",?/g, '')))].slice(
	0,
	8,
))
	console.log(`  server: ${l.slice(0, 400)}`)
process.exit(figures.fiveHundreds === 0 && figures.found === figures.acknowledged ? 0 : 1)
