// What compressing a dynamic page costs and what it saves, level by level (issue 47, "compression
// that costs what it saves"; decision 0102): the signed-in pages a learner and an admin spend their
// time on, rendered by the built app (uncompressed: `accept-encoding: identity`), then compressed in
// this process with the settings server/compression.ts uses (brotli in text mode with a 256 KB
// window; gzip), level by level. For each: the compressed size, the CPU time of one compression
// (the median of many, one page after another), that time as a share of the page's own answer time
// (the median of identity GETs to the app), and what the bytes saved are worth on a 400 kbit/s link.
//
//   npm run build && npx tsx bench/compression-levels.ts [sqlite|pg]
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Dialect } from '#db/client.ts'

// The built app's React is its production build: this process says so before anything loads it
// (an import would run before this line).
process.env.NODE_ENV = 'production'
const { startStack } = await import('#tests/support/stack.ts')
const { median } = await import('./support.ts')
const dialect = (process.argv[2] ?? 'sqlite') as Dialect
const TIMES = Number(process.env.CL_TIMES ?? 50)
const ROUNDS = Number(process.env.CL_ROUNDS ?? 7)
/** The slow link the issue names: 400 kbit/s. */
const LINK_BYTES_PER_MS = 400_000 / 8 / 1000

const LEARNER_PAGES = [
	'/learn/dashboard',
	'/learn/course/intro-to-web',
	'/learn/course/intro-to-web/entry/what-is-http',
]
const ADMIN_PAGES = ['/admin/users', '/admin/courses/intro-to-web/dashboard', '/admin/courses/intro-to-web/submissions']

const brotli = (quality: number) => (html: Buffer) =>
	brotliCompressSync(html, {
		params: {
			[constants.BROTLI_PARAM_QUALITY]: quality,
			[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
			[constants.BROTLI_PARAM_LGWIN]: 18,
			[constants.BROTLI_PARAM_SIZE_HINT]: html.length,
		},
	})
const gzip = (level: number) => (html: Buffer) => gzipSync(html, { level })
const CODECS: [string, (html: Buffer) => Buffer][] = [
	...[1, 3, 4, 5, 6, 9].map((l): [string, (html: Buffer) => Buffer] => [`gzip ${l}`, gzip(l)]),
	...[1, 3, 4, 5, 6, 7, 9, 11].map((q): [string, (html: Buffer) => Buffer] => [`br ${q}`, brotli(q)]),
]

/** The median wall time of `run`, in ms, over `times` runs after a few to warm up. */
function timed(run: () => unknown, times: number) {
	for (let i = 0; i < 5; i++) run()
	const spans: number[] = []
	for (let i = 0; i < times; i++) {
		const started = process.hrtime.bigint()
		run()
		spans.push(Number(process.hrtime.bigint() - started) / 1e6)
	}
	return median(spans)
}

const stack = await startStack(dialect)
try {
	const learner = await stack.signIn('learner@acme.test')
	const admin = await stack.signIn('admin@acme.test')
	const pages: { path: string; html: Buffer; answerMs: number; sentBytes: number }[] = []
	for (const [who, paths] of [
		[learner, LEARNER_PAGES],
		[admin, ADMIN_PAGES],
	] as const) {
		for (const path of paths) {
			const first = await who.get(path, { 'accept-encoding': 'identity' })
			if (first.status !== 200) throw new Error(`${path}: ${first.status}`)
			const spans: number[] = []
			for (let i = 0; i < 30; i++) {
				const started = performance.now()
				await who.get(path, { 'accept-encoding': 'identity' })
				spans.push(performance.now() - started)
			}
			// What the app sends a browser now (server/compression.ts: the streamed page, brotli).
			const sent = await who.get(path, { 'accept-encoding': 'br' })
			if (sent.headers['content-encoding'] !== 'br') throw new Error(`${path}: not brotli`)
			pages.push({ path, html: first.body, answerMs: median(spans), sentBytes: sent.body.length })
		}
	}
	console.log(
		`dynamic pages (${dialect}); CPU: ${ROUNDS} alternating rounds of ${TIMES} compressions a page; a 400 kbit/s link moves 50 bytes a ms`,
	)
	for (const page of pages)
		console.log(`  ${page.path}: ${page.html.length} bytes uncompressed, answered in ${page.answerMs.toFixed(1)} ms`)
	console.log(
		'codec     bytes (all pages)  ratio    CPU ms a page (at the mean answer)  % of the answer  link ms saved a page  link ms saved per CPU ms',
	)
	const total = pages.reduce((n, p) => n + p.html.length, 0)
	const sent = pages.reduce((n, p) => n + p.sentBytes, 0)
	console.log(
		`${'sent now'.padEnd(9)} ${String(sent).padStart(17)} ${(sent / total).toFixed(3).padStart(6)}  (the app's streamed brotli)`,
	)
	// CPU in alternating rounds (every codec once a round, pages in turn), the median of each codec's
	// rounds: a neighbour's load on a shared machine then weighs on every codec alike.
	const rounds = new Map<string, number[]>(CODECS.map(([name]) => [name, []]))
	for (let round = 0; round < ROUNDS; round++)
		for (const [name, codec] of CODECS) {
			let ms = 0
			for (const page of pages) ms += timed(() => codec(page.html), TIMES) / page.answerMs
			rounds.get(name)!.push(ms / pages.length)
		}
	const meanAnswerMs = pages.reduce((n, p) => n + p.answerMs, 0) / pages.length
	for (const [name, codec] of CODECS) {
		const bytes = pages.reduce((n, page) => n + codec(page.html).length, 0)
		// The share of a page's answer time, and that share of the mean answer in ms.
		const share = median(rounds.get(name)!)
		const cpu = share * meanAnswerMs
		const saved = (total - bytes) / pages.length / LINK_BYTES_PER_MS
		console.log(
			[
				name.padEnd(9),
				String(bytes).padStart(17),
				(bytes / total).toFixed(3).padStart(6),
				cpu.toFixed(3).padStart(30),
				`${(share * 100).toFixed(1)} %`.padStart(16),
				saved.toFixed(0).padStart(21),
				(saved / cpu).toFixed(0).padStart(25),
			].join(' '),
		)
	}
} finally {
	await stack.close()
}
