// The third baseline of scenario 2 (issue 47): the app's own routes rendered by React Router with
// their loaders' data already in memory. In a process of its own, with the app's variables:
// 1. records: starts the built app with a copy of its routes' build whose loaders keep what they
//    return, and asks it once for each page on Acme's host (argv: the cookie, then the paths);
// 2. replays: serves the same route modules through React Router's request handler, each loader
//    answering what it returned for that path, no middleware, compressed as the app compresses.
// What a page costs beyond this is the data it reads and the entry's steps (tenant, session, cache).
// Prints `listening <port>`.
import { createServer } from 'node:http'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { compressResponse } from '#server/compression.ts'
import { get } from './support.ts'

type Loader = (args: { request: Request }) => unknown
type Route = NonNullable<ServerBuild['routes'][string]>
type ServerModule = typeof import('#server/app.ts')

const [cookie, ...paths] = process.argv.slice(2)
const built: ServerModule = await import(pathToFileURL(resolve('build/server/index.js')).href)
const original = built.serverBuild as unknown as ServerBuild
const keyOf = (routeId: string, request: Request) => `${routeId} ${new URL(request.url).pathname}`

/** The build with each route's loader replaced, and its middleware kept or left out. */
function withLoaders(replace: (routeId: string, loader: Loader) => Loader, middleware: boolean): ServerBuild {
	const routes = Object.fromEntries(
		Object.entries(original.routes).map(([id, route]) => {
			const module: Record<string, unknown> = { ...route!.module }
			if (typeof module.loader === 'function') module.loader = replace(id, module.loader as Loader)
			if (!middleware) delete module.middleware
			return [id, { ...route!, module: module as unknown as Route['module'] }]
		}),
	)
	return { ...original, routes } as ServerBuild
}

const recorded = new Map<string, unknown>()
const recording = withLoaders(
	(id, loader) => async (args) => {
		const result = await loader(args)
		recorded.set(keyOf(id, args.request), result)
		return result
	},
	true,
)
process.env.PORT = '0'
const app = await built.main({ serverBuild: recording })
for (const path of paths) {
	const res = await get(app.port, path, { cookie })
	if (res.status !== 200) throw new Error(`recording ${path}: ${res.status}`)
}

const replay = withLoaders(
	(id) =>
		({ request }) => {
			const key = keyOf(id, request)
			if (!recorded.has(key)) throw new Response(null, { status: 404 })
			return recorded.get(key)
		},
	false,
)
const handle = createRequestHandler(replay, 'production')
const server = createServer(
	createRequestListener(async (request) =>
		compressResponse(await handle(request), request.method, request.headers.get('accept-encoding') ?? undefined),
	),
)
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => {
	const address = server.address()
	console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
