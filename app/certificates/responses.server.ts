import type { RouterContextProvider } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { jsonError } from '#app/platform/errors.ts'

// The public JSON-LD files of certificates (decision 0038): the DID document, the contexts, the
// status lists and a certificate's credential. Each host answers for its own tenant only.

/** The tenant of this host, or the JSON 404 every certificate file answers on the apex. */
export function certificateHost(context: Readonly<RouterContextProvider>) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant) throw jsonNotFound()
	return { ctx, tenant: ctx.tenant }
}

export const jsonNotFound = () => jsonError(404, 'NOT_FOUND', 'Not found')

/** A JSON-LD document as text, with its media type and how long caches may keep it. */
export function jsonLd(body: string, type: string, cacheControl: string, headers: Record<string, string> = {}) {
	return new Response(body, {
		headers: {
			'content-type': `${type}; charset=utf-8`,
			'cache-control': cacheControl,
			'access-control-allow-origin': '*',
			...headers,
		},
	})
}
