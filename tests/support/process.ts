import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DEMO_PASSWORD, TEST_SECRETS } from './env.ts'
import { freePort, request } from './http.ts'

export interface AppProcess {
	port: number
	child: ChildProcess
	/** Everything the process wrote to stdout and stderr. */
	output: string[]
	exited: Promise<number | null>
}

/**
 * The built app in a process of its own, as a client outside sees it: its
 * event loop is not the test's, so timings and faults are the server's alone.
 * `start-prod` runs `npm run start:prod`'s script (migrations under the
 * advisory lock, then serve); otherwise the build's main() is started directly
 * (no .env is read). Resolves once /api/health answers 200.
 */
export async function startAppProcess(
	env: Record<string, string | undefined>,
	options: { script?: 'start-prod' } = {},
): Promise<AppProcess> {
	const entry = resolve('build/server/index.js')
	if (!existsSync(entry)) throw new Error('build/server/index.js is missing: run `npm run build` first')
	const port = Number(env.PORT ?? (await freePort()))
	const args =
		options.script === 'start-prod'
			? ['scripts/start-prod.js']
			: [
					'--input-type=module',
					'-e',
					// React's production code, as users get it (loadBuiltServer says why); then the app's own
					// mode from the env below, read by main().
					`const mode = process.env.NODE_ENV; process.env.NODE_ENV = 'production'; const { main } = await import(${JSON.stringify(pathToFileURL(entry).href)}); process.env.NODE_ENV = mode; await main({ clientDir: ${JSON.stringify(resolve('build/client'))} })`,
				]
	const child = spawn(process.execPath, args, {
		// A variable given as undefined is left out (a process started without it).
		env: {
			PATH: process.env.PATH,
			NODE_ENV: 'test',
			PORT: String(port),
			AUTH_URL: `http://localhost:${port}`,
			EMAIL_FROM: 'noreply@lms.test',
			APP_BASE_DOMAIN: 'localhost',
			RATE_LIMIT_DRIVER: 'memory',
			SEED_DEMO_PASSWORD: DEMO_PASSWORD,
			JOB_POLL_SECONDS: '0.5',
			// As testEnv: no scheduled reminder sweep unless the test asks for one.
			REMINDER_SWEEP_SECONDS: '0',
			...TEST_SECRETS,
			...env,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	const output: string[] = []
	child.stdout!.on('data', (d) => output.push(String(d)))
	child.stderr!.on('data', (d) => output.push(String(d)))
	const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
	const deadline = Date.now() + 60_000
	for (;;) {
		if (Date.now() > deadline || child.exitCode !== null) {
			child.kill('SIGKILL')
			throw new Error(`the app on port ${port} did not start:\n${output.join('')}`)
		}
		try {
			if ((await request(port, 'localhost', '/api/health')).status === 200) break
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 200))
	}
	return { port, child, output, exited }
}
