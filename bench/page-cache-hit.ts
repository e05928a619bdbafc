// A page-cache hit against raw node:http sending the same bytes (issue 47: a hit at ≥ 0.8 of raw),
// side by side in one run: each build given (label=dir of a build snapshot with server.js and
// build/, as bench/support.ts's snapshotBuild makes; default the current build) and
// bench/raw-server.mjs, each in its own process, in alternating rounds of the same autocannon load
// on the same path, headers and connections. Two figures: throughput over raw's (what the issue
// names, but on a shared machine it moves with everyone else's load) and raw's CPU time an answer
// over the build's (each server process's own user and system time: the cost of a hit, which others' load barely moves).
//
//   npm run build && npx tsx bench/page-cache-hit.ts [label=dir …]
//
// Settings: PC_PATH (/learn), PC_SECONDS per run (4), PC_ROUNDS (4), PC_CONNECTIONS (32); PC_PROFILE=1
// also prints the self time of the first build's hottest functions (a V8 CPU profile of its process).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { startCms } from '#cms/server.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import {
	APP_DIR,
	appVariables,
	get,
	load,
	median,
	snapshotBuild,
	spawnApp,
	spawnRawServer,
	summarizeProfile,
	cpuSeconds,
	type AppProcess,
} from './support.ts'

process.env.NODE_ENV = 'production'
const PATH = process.env.PC_PATH ?? '/learn'
const SECONDS = Number(process.env.PC_SECONDS ?? 4)
const ROUNDS = Number(process.env.PC_ROUNDS ?? 4)
const CONNECTIONS = Number(process.env.PC_CONNECTIONS ?? 32)
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en' }
const TMP = '.tmp/bench'

const builds = process.argv.slice(2).map((arg) => {
	const [label, dir] = arg.split('=')
	return { label, dir }
})
if (builds.length === 0) {
	await snapshotBuild()
	builds.push({ label: 'current', dir: APP_DIR })
}

mkdirSync(TMP, { recursive: true })
const db = await createTestDatabase('sqlite')
await seedDemoData(db, DEMO_PASSWORD)
const cms = await startCms({ apiKey: TEST_SECRETS.CMS_API_UUID, projectUuid: TEST_SECRETS.CMS_PROJECT_UUID })
const variables = appVariables({ DATABASE_URL: db.url, CMS_API_URL: cms.url })
const apps: Array<{ label: string; app: AppProcess }> = []
const PROFILE_DIR = join(TMP, 'page-cache-hit-profile')
rmSync(PROFILE_DIR, { recursive: true, force: true })
for (const [i, b] of builds.entries()) {
	const cpuProfDir = i === 0 && process.env.PC_PROFILE === '1' ? PROFILE_DIR : undefined
	apps.push({ label: b.label, app: await spawnApp(variables, { appDir: b.dir, cpuProfDir }) })
}

// Every build's hit, checked; the first one's bytes are what the raw server sends.
let recorded: { status: number; headers: Record<string, string>; body: string } | null = null
for (const { label, app } of apps) {
	await get(app.port, PATH, BROWSER)
	const res = await get(app.port, PATH, BROWSER)
	if (res.status !== 200 || res.headers['x-page-cache'] !== 'hit') throw new Error(`${label}: ${PATH} is not a hit`)
	if (recorded) {
		if (res.body.length !== Buffer.from(recorded.body, 'base64').length)
			console.log(`note: ${label} sends ${res.body.length} bytes for ${PATH}, the raw server ${recorded.body.length}`)
		continue
	}
	const headers: Record<string, string> = {}
	for (const [name, value] of Object.entries(res.headers))
		if (value !== undefined && !['date', 'connection', 'keep-alive', 'content-length'].includes(name))
			headers[name] = Array.isArray(value) ? value.join(', ') : value
	recorded = { status: res.status, headers, body: res.body.toString('base64') }
}
const file = join(TMP, 'page-cache-hit.json')
writeFileSync(file, JSON.stringify({ [PATH]: recorded }))
const raw = await spawnRawServer(file)

const subjects = [
	...apps.map(({ label, app }) => ({ label, port: app.port, pid: app.pid })),
	{ label: 'raw', port: raw.port, pid: raw.pid },
]
const rps = new Map<string, number[]>(subjects.map((s) => [s.label, []]))
/** The server process's CPU microseconds per answer, each run. */
const cpu = new Map<string, number[]>(subjects.map((s) => [s.label, []]))
const run = (port: number, duration: number) =>
	load({ port, path: PATH, headers: BROWSER, connections: CONNECTIONS, duration })
for (const s of subjects) await run(s.port, 1)
for (let round = 0; round < ROUNDS; round++) {
	// Each round in another order, so no subject always follows the same one.
	const order = round % 2 ? [...subjects].reverse() : subjects
	for (const s of order) {
		const before = cpuSeconds(s.pid)
		const r = await run(s.port, SECONDS)
		if (r.errors) throw new Error(`${s.label}: ${r.errors} errors`)
		rps.get(s.label)!.push(r.rps)
		cpu.get(s.label)!.push(((cpuSeconds(s.pid) - before) / r.total) * 1e6)
	}
}
const rawMedian = median(rps.get('raw')!)
const rawCpu = median(cpu.get('raw')!)
console.log(
	`page-cache hit ${PATH} (${Buffer.from(recorded!.body, 'base64').length} bytes ${recorded!.headers['content-encoding'] ?? 'identity'}), ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, load average ${loadavg()[0].toFixed(2)}`,
)
for (const s of subjects) {
	const runs = rps.get(s.label)!
	// Per round too: each against the raw run next to it.
	const perRound = runs.map((r, i) => (r / rps.get('raw')![i]).toFixed(2)).join(' ')
	const us = cpu.get(s.label)!
	console.log(
		`  ${s.label}: median ${Math.round(median(runs))} req/s = ${(median(runs) / rawMedian).toFixed(2)} of raw (per round ${perRound}; runs ${runs.map(Math.round).join(' ')}); ` +
			`CPU ${median(us).toFixed(0)} µs an answer, raw's cost over its = ${(rawCpu / median(us)).toFixed(2)} (runs ${us.map((u) => u.toFixed(0)).join(' ')})`,
	)
}

for (const { app } of apps) await app.stop()
if (process.env.PC_PROFILE === '1') {
	const [name] = readdirSync(PROFILE_DIR)
	console.log(`  ${builds[0].label}'s process, self time (the whole run, idle included):`)
	for (const f of summarizeProfile(JSON.parse(readFileSync(join(PROFILE_DIR, name), 'utf8')), 25))
		console.log(`    ${f.selfPct}% ${f.fn}`)
}
await raw.stop()
await cms.close()
await db.drop()
