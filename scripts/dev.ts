// `npm run dev`: the app from source through Vite, with hot module reload. The same server entry
// (server/app.ts) as production, loaded by Vite's SSR loader: an edited route or component is
// hot-swapped in the browser on pages that ship JavaScript and re-rendered on the next request;
// an edited server module makes a new app (new caches) on the next request, on the same database.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import { createServer as createViteServer } from 'vite'
import { parseEnv } from '#app/platform/env.server.ts'
import { openDatabase } from '#db/client.ts'

type ServerModule = typeof import('../server/app.ts')

const env = parseEnv()
const db = openDatabase(env.DATABASE_URL)

let current: {
	module: ServerModule
	listener: (req: IncomingMessage, res: ServerResponse) => void
	jobs: ReturnType<ServerModule['startJobs']>
} | null = null

/** The app of the server entry as it is now: a new one (with its own job worker) once Vite has reloaded the module. */
async function app() {
	const module = (await vite.ssrLoadModule('/server/app.ts')) as ServerModule
	if (current?.module !== module) {
		await current?.jobs.stop(1_000)
		// Files of public/ come from there: a fresh clone has no build/client, and Vite serves the rest.
		const created = module.createApp({ env, db, clientDir: resolve('public') })
		current = { module, listener: created.listener, jobs: module.startJobs(created, env) }
	}
	return current.listener
}

const server = createHttpServer((req, res) => {
	// Vite answers for the modules, the HMR client and /app/… sources; everything else is the app's.
	vite.middlewares(req, res, () => {
		app().then(
			(listener) => listener(req, res),
			(error: unknown) => {
				vite.ssrFixStacktrace(error as Error)
				console.error(error)
				res.statusCode = 500
				res.end('The server entry failed to load; see the terminal.')
			},
		)
	})
})
// The HMR socket shares the app's server, so the page's own origin reaches it (CSP connect-src 'self').
const vite = await createViteServer({ server: { middlewareMode: true, hmr: { server } }, appType: 'custom' })
server.listen(env.PORT, () => console.log(`dev server on ${env.AUTH_URL} (Vite, hot module reload)`))
// The app (and its job worker, so mail queued before a restart goes out) from the start, not the first request.
app().catch(() => {})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		server.close()
		void (current?.jobs.stop(1_000) ?? Promise.resolve())
			.then(() => vite.close())
			.then(() => db.close().finally(() => process.exit(0)))
	})
}
