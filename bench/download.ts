// A 10 MB hand-in downloaded from the built app against the same bytes served from a file by a
// bare Node server (createReadStream piped to the response), in alternating rounds on one stack
// (decision 0083). Prints each side's MB/s, the ratio of the medians, and the process's resident
// set during the app's downloads (the app runs in this process; the client drops what it reads).
// The file route allows 120 downloads a minute per user: the rounds stay under it.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/download.ts [pg|sqlite]
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs'
import { createServer, get, type Server } from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { desc } from 'drizzle-orm'
import { HAND_IN_LIMITS } from '#app/learning/hand-in-limits.ts'
import type { Dialect } from '#db/client.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack } from '#tests/support/stack.ts'
import { median } from './support.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const dialect = (process.argv[2] ?? 'pg') as Dialect
const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'
const ASSIGNMENT = `${COURSE}/entry/build-a-form`
const ROUNDS = 3
/** Downloads per round and side, two at a time. */
const PER_ROUND = 10
const MB = 1024 * 1024

/** GETs `path` on 127.0.0.1:`port` and drops the body; resolves with its byte count. */
function download(port: number, path: string, headers: Record<string, string>) {
	return new Promise<number>((resolve, reject) => {
		get({ host: '127.0.0.1', port, path, headers }, (res) => {
			if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`))
			let bytes = 0
			res.on('data', (d: Buffer) => (bytes += d.length))
			res.on('end', () => resolve(bytes))
			res.on('error', reject)
		}).on('error', reject)
	})
}

/** MB/s of PER_ROUND downloads, two at a time, each checked whole. */
async function round(port: number, path: string, headers: Record<string, string>, size: number) {
	const started = performance.now()
	for (let i = 0; i < PER_ROUND; i += 2) {
		const got = await Promise.all([download(port, path, headers), download(port, path, headers)])
		if (got.some((n) => n !== size)) throw new Error(`short body: ${got.join(', ')} of ${size}`)
	}
	return (PER_ROUND * size) / MB / ((performance.now() - started) / 1000)
}

const stack = await startStack(dialect)
let raw: Server | undefined
try {
	const b = stack.browser(ACME)
	const ok = (status: number, what: string) => {
		if (status !== 302) throw new Error(`${what}: ${status}`)
	}
	ok((await b.post('/learn/sign-in', { email: 'newbie@acme.test', password: DEMO_PASSWORD })).status, 'sign-in')
	ok((await b.post(`${COURSE}/enroll`, {})).status, 'enroll')
	ok((await b.post(`${COURSE}/entry/progressive-enhancement`, { intent: 'complete' })).status, 'complete')
	// Text the route sends as it is (the client asks for no encoding), not all one byte.
	const bytes = Buffer.alloc(HAND_IN_LIMITS.maxFileBytes)
	for (let i = 0; i < bytes.length; i++) bytes[i] = 97 + ((i * 7919) % 26)
	ok((await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [{ name: 'big.txt', body: bytes }])).status, 'hand-in')
	const f = stack.db.t.submission_files
	const [file] = await stack.db.orm.select({ id: f.id }).from(f).orderBy(desc(f.created_at)).limit(1)
	mkdirSync('.tmp/bench', { recursive: true })
	const onDisk = '.tmp/bench/download.bin'
	writeFileSync(onDisk, bytes)
	raw = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(bytes.length) })
		createReadStream(onDisk).pipe(res)
	})
	await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r))
	const rawPort = (raw.address() as { port: number }).port
	const appHeaders = { host: ACME, cookie: b.cookieHeader() }
	const app: number[] = []
	const fromFile: number[] = []
	const rss: number[] = []
	await round(stack.port, `/api/files/${file!.id}`, appHeaders, bytes.length) // warm-up
	for (let r = 0; r < ROUNDS; r++) {
		fromFile.push(await round(rawPort, '/', {}, bytes.length))
		gc()
		const before = process.memoryUsage().rss
		let peak = before
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
		app.push(await round(stack.port, `/api/files/${file!.id}`, appHeaders, bytes.length))
		clearInterval(sampler)
		rss.push((peak - before) / MB)
	}
	const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ')
	console.log(
		`${dialect}: 10 MB download, ${ROUNDS} alternating rounds of ${PER_ROUND} (2 at a time): ` +
			`app ${fmt(app)} MB/s, file ${fmt(fromFile)} MB/s, ratio of medians ${(median(app) / median(fromFile)).toFixed(2)}; ` +
			`RSS growth during the app's round ${rss.map((x) => x.toFixed(1)).join(' / ')} MiB (peak ${Math.max(...rss).toFixed(1)})`,
	)
} finally {
	raw?.close()
	await stack.close()
}
