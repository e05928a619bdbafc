import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server'
import { ServerRouter, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from 'react-router'
import { isDatabaseUnavailable } from '#db/client.ts'
import { getRequestContext } from './context.ts'
import './i18n/catalogues.server.ts'
import { contentSecurityPolicy } from './platform/csp.ts'
import { describeError, log } from './platform/log.server.ts'

export const streamTimeout = 5_000

/**
 * React Router's Node entry with one addition: every rendered page gets a
 * fresh nonce, written into its Content-Security-Policy and onto the inline
 * scripts React Router emits (ServerRouter passes it to Scripts, Links and
 * ScrollRestoration). The page cache swaps the nonce for hashes when it
 * stores a page (server/page-cache.ts).
 */
export default function handleRequest(request: Request, status: number, headers: Headers, routerContext: EntryContext) {
	if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status, headers })
	const nonce = randomBytes(16).toString('base64')
	headers.set('content-security-policy', contentSecurityPolicy(`'nonce-${nonce}'`))
	const userAgent = request.headers.get('user-agent')
	// Crawlers and SPA mode get the whole document at once.
	const readyOption: keyof RenderToPipeableStreamOptions =
		(userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)
		const { pipe, abort } = renderToPipeableStream(
			<ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
			{
				nonce,
				[readyOption]() {
					shellRendered = true
					const body = new PassThrough({
						final(callback) {
							clearTimeout(timeoutId)
							timeoutId = undefined
							callback()
						},
					})
					headers.set('content-type', 'text/html; charset=utf-8')
					pipe(body)
					resolve(new Response(createReadableStreamFromReadable(body), { headers, status }))
				},
				onShellError(error: unknown) {
					reject(error)
				},
				onError(error: unknown) {
					status = 500
					// Errors in the shell are logged by React Router; these come later in the stream.
					if (shellRendered) console.error(error)
				},
			},
		)
	})
}

/**
 * Every Error a loader, action or middleware throws.
 * A database out of reach is remembered on the request so that the server
 * entry answers the branded 503, as it does when the outage shows before
 * routing; the log line carries the message, never the stack.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
	// Thrown `data()` and error responses are answers a route chose, not failures.
	if (request.signal.aborted || !(error instanceof Error)) return
	if (isDatabaseUnavailable(error)) getRequestContext(context as RouterContextProvider).databaseUnavailable = true
	log.error('request/route-error', { path: new URL(request.url).pathname, error: describeError(error) })
}
