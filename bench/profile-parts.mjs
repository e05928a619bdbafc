// Self time of a V8 CPU profile by part: each package, our code (the server build), zlib, the rest
// of Node and native code, garbage collection; idle left out. Only the last `--last` seconds (4.3,
// the measured run of bench/builds.ts) count, so start-up and warm-up do not.
//
//   node bench/profile-parts.mjs .tmp/bench/builds-prof/*/
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const args = process.argv.slice(2)
const lastAt = args.indexOf('--last')
const lastUs = (lastAt === -1 ? 4.3 : Number(args.splice(lastAt, 2)[1])) * 1e6

function part({ url, functionName }) {
	if (['(garbage collector)', '(program)', '(idle)', '(root)'].includes(functionName)) return functionName
	const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
	if (pkg) return pkg[1]
	if (url.includes('build/server')) return 'our code (server build)'
	if (url.includes('zlib')) return 'zlib (compression)'
	return 'node internals / native'
}

for (const dir of args) {
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
		const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'))
		const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
		const byPart = new Map()
		const ours = new Map()
		const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us)
		let at = profile.startTime
		profile.samples.forEach((id, i) => {
			at += profile.timeDeltas[i]
			if (at < profile.endTime - lastUs) return
			const frame = nodes.get(id)
			const name = part(frame)
			if (name === '(idle)' || name === '(root)') return
			add(byPart, name, profile.timeDeltas[i])
			if (name === 'our code (server build)') add(ours, frame.functionName || '(anonymous)', profile.timeDeltas[i])
		})
		const total = [...byPart.values()].reduce((a, b) => a + b, 0)
		const pct = (us) => `${((100 * us) / total).toFixed(1)} %`
		const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n)
		console.log(`${dir} (${Math.round(total / 1000)} ms busy)`)
		for (const [name, us] of top(byPart, 14)) console.log(`  ${pct(us).padStart(7)}  ${name}`)
		console.log(
			`  our code's top: ${top(ours, 5)
				.map(([n, us]) => `${n} ${pct(us)}`)
				.join(', ')}`,
		)
	}
}
