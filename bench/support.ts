// Shared pieces of the benchmark suite: the app as a child process of the
// production build, the load generator, side-by-side runs, medians, and the
// CPU profile summary.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Session } from 'node:inspector/promises'
import autocannon from 'autocannon'
import type { RequestContext } from '#app/context.ts'
import { parseEnv, type Env } from '#app/platform/env.server.ts'
import { commitUserSession } from '#app/accounts/session.server.ts'
import type { Database } from '#db/client.ts'
import type { User } from '#db/users.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'

export const ACME = 'acme.localhost'

/** The suite's private copy of server.js and build/: a rebuild by someone else during a run cannot pull the app from under it. */
export const APP_DIR = '.tmp/bench/app'

/** The Node flags production starts with (`npm run start:app`, e.g. the heap limit), so the figures are of that process. */
const PRODUCTION_NODE_FLAGS = (JSON.parse(readFileSync('package.json', 'utf8')).scripts['start:app'] as string)
	.split(/\s+/)
	.filter((a) => a.startsWith('--'))

/** Copies the current production build (server.js and build/) into APP_DIR. */
export async function snapshotBuild() {
	for (let waited = 0; !existsSync('build/server/index.js') || !existsSync('build/client/assets'); waited += 500) {
		if (waited > 120_000) throw new Error('build/ is missing: run `npm run build` first (npm run bench does)')
		await new Promise((r) => setTimeout(r, 500))
	}
	rmSync(APP_DIR, { recursive: true, force: true })
	cpSync('build', `${APP_DIR}/build`, { recursive: true })
	cpSync('server.js', `${APP_DIR}/server.js`)
}

/** The snapshot's server module (its listen() serves the scale scenario in this process). */
export async function loadSnapshotServer(): Promise<typeof import('#server/app.ts')> {
	return import(pathToFileURL(resolve(APP_DIR, 'build/server/index.js')).href)
}

export const SNAPSHOT_CLIENT_DIR = resolve(APP_DIR, 'build/client')

/** Variable names of .env.example: the child gets each one explicitly (empty = unset), so a developer's .env cannot leak in. */
const ENV_NAMES = readFileSync('.env.example', 'utf8')
	.split('\n')
	.map((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1])
	.filter((name): name is string => Boolean(name))

/** The production configuration of the app under test, as environment variables. */
export function appVariables(overrides: {
	DATABASE_URL: string
	CMS_API_URL: string
	PORT?: string
}): Record<string, string> {
	return {
		...Object.fromEntries(ENV_NAMES.map((name) => [name, ''])),
		NODE_ENV: 'production',
		AUTH_URL: 'http://localhost',
		AUTH_SECRET: TEST_SECRETS.AUTH_SECRET,
		CMS_PROJECT_UUID: TEST_SECRETS.CMS_PROJECT_UUID,
		CMS_API_UUID: TEST_SECRETS.CMS_API_UUID,
		CMS_WEBHOOK_SECRET: TEST_SECRETS.CMS_WEBHOOK_SECRET,
		EMAIL_FROM: 'noreply@lms.test',
		APP_BASE_DOMAIN: 'localhost',
		RATE_LIMIT_DRIVER: 'memory',
		BENCH_ROUTES: 'true',
		...overrides,
	}
}

export function appEnv(overrides: { DATABASE_URL: string; CMS_API_URL: string }): Env {
	return parseEnv(appVariables(overrides))
}

export async function freePort() {
	const server = createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	await new Promise((resolve) => server.close(resolve))
	return typeof address === 'object' && address ? address.port : 0
}

export interface Reply {
	status: number
	headers: Record<string, string | string[] | undefined>
	body: Buffer
}

/** One request to 127.0.0.1:port with an explicit Host header; the body is left as sent (compressed when it was). */
export function get(
	port: number,
	path: string,
	headers: Record<string, string> = {},
	init: { method?: string; body?: string | Buffer; agent?: false } = {},
): Promise<Reply> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: '127.0.0.1',
				port,
				path,
				method: init.method ?? 'GET',
				agent: init.agent,
				headers: {
					host: `${ACME}:${port}`,
					...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}),
					...headers,
				},
			},
			(res) => {
				const chunks: Buffer[] = []
				res.on('data', (c: Buffer) => chunks.push(c))
				res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
				res.on('error', reject)
			},
		)
		req.on('error', reject)
		if (init.body !== undefined) req.write(init.body)
		req.end()
	})
}

/** The session cookie (name=value) a sign-in of the user on ACME would set; the session is stored in `db`, as the app's are. */
export async function sessionCookie(env: Env, db: Database, port: number, user: User) {
	const ctx = {
		env,
		db,
		origin: `http://${ACME}:${port}`,
		tenant: user.tenant_id ? { id: user.tenant_id } : null,
	} as unknown as RequestContext
	const { cookie } = await commitUserSession(ctx, user)
	return cookie.split(';')[0]
}

export interface AppProcess {
	pid: number
	port: number
	/** Milliseconds from spawn to the first 200 of /learn on ACME. */
	startMs: number
	/** Resident set size and its peak, MB (from /proc). */
	memory(): { rssMb: number; peakRssMb: number }
	stderr(): string
	stop(): Promise<void>
}

/**
 * `node server.js` of the production build (the snapshot in APP_DIR, or `appDir`, run from
 * the repository root) in its own process, as `npm run start:app` runs it;
 * resolves once /learn answers 200.
 */
export async function spawnApp(
	variables: Record<string, string>,
	options: { cpuProfDir?: string; appDir?: string } = {},
): Promise<AppProcess> {
	const port = await freePort()
	const args = [
		...PRODUCTION_NODE_FLAGS,
		...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []),
		`${options.appDir ?? APP_DIR}/server.js`,
	]
	const started = performance.now()
	const child: ChildProcess = spawn(process.execPath, args, {
		env: { ...variables, PORT: String(port), PATH: process.env.PATH ?? '' },
		stdio: ['ignore', 'ignore', 'pipe'],
	})
	let stderr = ''
	child.stderr!.on('data', (c: Buffer) => {
		stderr = (stderr + c.toString()).slice(-20_000)
	})
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
	let startMs = 0
	for (;;) {
		if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}: ${stderr}`)
		const ok = await get(port, '/learn', {}, { agent: false }).then(
			(r) => r.status === 200,
			() => false,
		)
		if (ok) {
			startMs = performance.now() - started
			break
		}
		if (performance.now() - started > 30_000) throw new Error(`the app did not answer within 30 s: ${stderr}`)
		await new Promise((r) => setTimeout(r, 5))
	}
	return {
		pid: child.pid!,
		port,
		startMs,
		memory() {
			const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
			const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0)
			return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 }
		},
		stderr: () => stderr,
		async stop() {
			if (child.exitCode !== null) return
			child.kill('SIGTERM')
			const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
			await exited
			clearTimeout(timer)
		},
	}
}

/** The raw node:http baseline (bench/raw-server.mjs) in its own process, serving the recorded answers. */
export function spawnRawServer(recordedFile: string) {
	return spawnBaseline('bench/raw-server.mjs', [recordedFile])
}

/** The minimal React Router app of one route (bench/minimal-rr.mjs) in its own process. */
export function spawnMinimalRouter() {
	return spawnBaseline('bench/minimal-rr.mjs', [])
}

/**
 * The app's routes replaying their loaders' data (bench/replay-server.ts) in its own process, with the
 * app's variables: it records each path once for the cookie's person, then serves the replay.
 */
export function spawnReplay(variables: Record<string, string>, cookie: string, paths: string[]) {
	return spawnBaseline('bench/replay-server.ts', [cookie, ...paths], { ...variables, NODE_OPTIONS: '--import tsx' })
}

/** A baseline server script in its own process; it prints `listening <port>`. */
async function spawnBaseline(script: string, args: string[], variables: Record<string, string> = {}) {
	const child = spawn(process.execPath, [script, ...args], {
		stdio: ['ignore', 'pipe', 'inherit'],
		env: { ...process.env, ...variables, NODE_ENV: 'production' },
	})
	const port = await new Promise<number>((resolve, reject) => {
		child.stdout!.on('data', (c: Buffer) => {
			const m = /listening (\d+)/.exec(c.toString())
			if (m) resolve(Number(m[1]))
		})
		child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
	})
	return {
		port,
		pid: child.pid!,
		async stop() {
			const exited = new Promise((resolve) => child.on('exit', resolve))
			child.kill('SIGTERM')
			await exited
		},
	}
}

export interface LoadResult {
	rps: number
	p50: number
	p99: number
	total: number
	/** Answers of status 400 or above, connection errors and timeouts. */
	errors: number
	statuses: Record<string, number>
	/** Bytes received per second, headers included (autocannon's throughput). */
	bytesPerSecond: number
}

export interface LoadOptions {
	port: number
	path: string
	method?: 'GET' | 'POST'
	headers?: Record<string, string>
	body?: string | Buffer
	connections: number
	duration: number
	/** Called for each request: may change its path, headers (per-user cookies) and body. */
	setupRequest?: (req: { path?: string; headers?: Record<string, string>; body?: string | Buffer }) => {
		path?: string
		headers?: Record<string, string>
		body?: string | Buffer
	}
}

/** One autocannon run from this process against 127.0.0.1:port. */
export async function load(options: LoadOptions): Promise<LoadResult> {
	const headers = { host: `${ACME}:${options.port}`, ...options.headers }
	const result = await autocannon({
		url: `http://127.0.0.1:${options.port}`,
		connections: options.connections,
		duration: options.duration,
		timeout: 10,
		requests: [
			{
				method: options.method ?? 'GET',
				path: options.path,
				headers,
				body: options.body,
				...(options.setupRequest ? { setupRequest: options.setupRequest as never } : {}),
			},
		],
	})
	const statuses: Record<string, number> = {}
	let failed = 0
	for (const [code, { count }] of Object.entries(
		(result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {},
	)) {
		statuses[code] = count
		if (Number(code) >= 400) failed += count
	}
	return {
		rps: result.requests.total / (result.duration || options.duration),
		p50: result.latency.p50,
		p99: result.latency.p99,
		total: result.requests.total,
		errors: failed + result.errors + result.timeouts,
		statuses,
		bytesPerSecond: result.throughput.total / (result.duration || options.duration),
	}
}

/**
 * One wrk run (Debian's, a C load generator on its own threads) against 127.0.0.1:port, for
 * the check that autocannon, which shares this process's event loop, is not what caps a baseline.
 * null when wrk is not installed.
 */
export function wrk(options: {
	port: number
	path: string
	headers?: Record<string, string>
	connections: number
	duration: number
	/** A Lua script of requests (writeWrkRotation). */
	wrkScript?: string
}): LoadResult | null {
	// `Host`, capitalized: wrk adds its own (the socket's address) beside any other spelling.
	const headers = { Host: `${ACME}:${options.port}`, ...options.headers }
	const args = [
		'-t2',
		`-c${options.connections}`,
		`-d${options.duration}s`,
		'--latency',
		...(options.wrkScript ? ['-s', options.wrkScript] : []),
		...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
		`http://127.0.0.1:${options.port}${options.path}`,
	]
	const run = spawnSync('wrk', args, { encoding: 'utf8' })
	if (run.error || run.status !== 0) return null
	const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1] ?? 0)
	const total = Number(/(\d+) requests in/.exec(run.stdout)?.[1] ?? 0)
	const ms = (label: string) => {
		const m = new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`).exec(run.stdout)
		return m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : 0
	}
	const errors =
		Number(/Non-2xx or 3xx responses: (\d+)/.exec(run.stdout)?.[1] ?? 0) +
		Number(
			/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
				.exec(run.stdout)
				?.slice(1)
				.reduce((n, v) => n + Number(v), 0) ?? 0,
		)
	const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(run.stdout)
	const bytesPerSecond = transfer
		? Number(transfer[1]) * { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[transfer[2] as 'B']
		: 0
	return { rps, p50: ms('50'), p99: ms('99'), total, errors, statuses: {}, bytesPerSecond }
}

/** Whether Debian's wrk is on the PATH. */
export function hasWrk() {
	return !spawnSync('wrk', ['-v']).error
}

/** A wrk script that asks for the given requests in turn (paths with their own headers, e.g. each with its owner's cookie). */
export function writeWrkRotation(file: string, requests: Array<{ path: string; headers: Record<string, string> }>) {
	const lua = (v: string) => JSON.stringify(v)
	const entries = requests.map(
		(r) =>
			`{ ${lua(r.path)}, { ${Object.entries(r.headers)
				.map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
				.join(', ')} } }`,
	)
	writeFileSync(
		file,
		`local requests = {\n${entries.join(',\n')}\n}
local i = math.random(#requests)
request = function()
  i = i % #requests + 1
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  for k, v in pairs(requests[i][2]) do headers[k] = v end
  return wrk.format(nil, requests[i][1], headers)
end
`,
	)
}

/** The load of a side-by-side comparison by wrk instead of autocannon (its options' wrkScript names the requests). */
export async function wrkLoad(options: LoadOptions & { wrkScript?: string }): Promise<LoadResult> {
	const result = wrk(options)
	if (!result) throw new Error('wrk failed or is not installed')
	return result
}

export function median(values: number[]) {
	const sorted = [...values].sort((a, b) => a - b)
	const mid = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function percentile(values: number[], p: number) {
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

/**
 * Subject and baseline side by side: a short warm-up of each, then
 * `rounds` alternating runs (subject, baseline, subject, baseline, …).
 */
export async function sideBySide<O extends LoadOptions>(
	subject: Omit<O, 'duration'>,
	baseline: Omit<O, 'duration'>,
	duration: number,
	rounds: number,
	run: (options: O) => Promise<LoadResult> = load,
) {
	await run({ ...subject, duration: 1 } as O)
	await run({ ...baseline, duration: 1 } as O)
	const a: LoadResult[] = []
	const b: LoadResult[] = []
	for (let i = 0; i < rounds; i++) {
		a.push(await run({ ...subject, duration } as O))
		b.push(await run({ ...baseline, duration } as O))
	}
	const summary = (runs: LoadResult[]) => ({
		rps: Math.round(median(runs.map((r) => r.rps))),
		p50: median(runs.map((r) => r.p50)),
		p99: median(runs.map((r) => r.p99)),
		errors: runs.reduce((n, r) => n + r.errors, 0),
		runs: runs.map((r) => Math.round(r.rps)),
		mbPerSecond: Number((median(runs.map((r) => r.bytesPerSecond)) / 1e6).toFixed(1)),
	})
	return { subject: summary(a), baseline: summary(b), ratio: median(a.map((r) => r.rps)) / median(b.map((r) => r.rps)) }
}

interface CpuProfile {
	nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>
	samples: number[]
	timeDeltas: number[]
}

/** The functions with the most self time in a V8 CPU profile (.cpuprofile JSON), leaving out the first `skipMs`. */
export function summarizeProfile(profile: CpuProfile, top = 12, skipMs = 0) {
	const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
	const self = new Map<string, number>()
	let total = 0
	let elapsedUs = 0
	profile.samples.forEach((id, i) => {
		elapsedUs += profile.timeDeltas[i] ?? 0
		if (elapsedUs < skipMs * 1000) return
		const frame = frames.get(id)!
		const file = frame.url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '')
		const key = file ? `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}` : frame.functionName
		const us = profile.timeDeltas[i] ?? 0
		self.set(key, (self.get(key) ?? 0) + us)
		total += us
	})
	return [...self]
		.sort((x, y) => y[1] - x[1])
		.slice(0, top)
		.map(([fn, us]) => ({ fn, selfMs: Math.round(us / 1000), selfPct: Number(((us / total) * 100).toFixed(1)) }))
}

/**
 * CPU seconds (user and system) a process has used so far, from /proc: per request, a server's cost
 * that another process's load on a shared machine barely moves, where its throughput does.
 */
export function cpuSeconds(pid: number) {
	// The fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks.
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
	return (Number(fields[11]) + Number(fields[12])) / 100
}

/** CPU profile of this process while `work` runs (the in-process server of scenario 5). */
export async function profileHere(work: () => Promise<void>) {
	const session = new Session()
	session.connect()
	await session.post('Profiler.enable')
	await session.post('Profiler.start')
	let profile: CpuProfile
	try {
		await work()
	} finally {
		profile = ((await session.post('Profiler.stop')) as unknown as { profile: CpuProfile }).profile
		session.disconnect()
	}
	return summarizeProfile(profile)
}
