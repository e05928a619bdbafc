import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server'
import { ServerRouter, type EntryContext } from 'react-router'
import { contentSecurityPolicy } from './utils/csp.ts'

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
	const readyOption: keyof RenderToPipeableStreamOptions = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)
		const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
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
		})
	})
}
