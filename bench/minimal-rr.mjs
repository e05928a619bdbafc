// The second baseline of scenario 2 (signed-in pages): the smallest React
// Router app there is, in a process of its own. One route, no middleware, no
// data access, no session, rendering `?bytes=N` of HTML through the same
// react-router, React and @remix-run/node-fetch-server as the app, in
// production mode and streamed as the app streams. What a signed-in page costs
// beyond it is the app's own work (tenant, session, queries, its components).
// Prints its port.
import { createServer } from 'node:http'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { createElement as h } from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import { createRequestHandler, Links, Meta, Outlet, Scripts, ServerRouter, useLoaderData } from 'react-router'

process.env.NODE_ENV = 'production'

function Root() {
	const { padding } = useLoaderData()
	return h(
		'html',
		{ lang: 'en' },
		h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, 'Baseline'), h(Meta), h(Links)),
		h('body', null, h('main', null, h('p', null, padding), h(Outlet)), h(Scripts)),
	)
}

const root = {
	default: Root,
	loader: ({ request }) => ({
		padding: 'x'.repeat(Math.min(Number(new URL(request.url).searchParams.get('bytes')) || 0, 1_000_000)),
	}),
}

function handleDocumentRequest(request, status, headers, context) {
	return new Promise((resolve, reject) => {
		const { pipe } = renderToPipeableStream(h(ServerRouter, { context, url: request.url }), {
			onShellReady() {
				const body = new PassThrough()
				headers.set('content-type', 'text/html; charset=utf-8')
				resolve(new Response(createReadableStreamFromReadable(body), { status, headers }))
				pipe(body)
			},
			onShellError: reject,
		})
	})
}

const build = {
	entry: { module: { default: handleDocumentRequest } },
	routes: { root: { id: 'root', path: '', module: root } },
	assets: {
		entry: { module: '/entry.js', imports: [] },
		routes: {
			root: {
				id: 'root',
				path: '',
				module: '/root.js',
				imports: [],
				hasLoader: true,
				hasAction: false,
				hasClientLoader: false,
				hasClientAction: false,
				hasClientMiddleware: false,
				hasErrorBoundary: false,
			},
		},
		url: '/manifest.js',
		version: '1',
	},
	publicPath: '/',
	assetsBuildDirectory: 'build/client',
	future: { v8_middleware: false },
	ssr: true,
	isSpaMode: false,
	prerender: [],
	routeDiscovery: { mode: 'initial', manifestPath: '/__manifest' },
	basename: '/',
}

const handle = createRequestHandler(build, 'production')
const server = createServer(createRequestListener((request) => handle(request)))
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
