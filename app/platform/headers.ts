import { errorCodeFor, jsonError } from './errors.ts'
import type { HeadersFunction } from 'react-router'

/** Lets an action's headers (Retry-After on 429) reach the rendered document. */
export const actionHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
	const headers = new Headers(loaderHeaders)
	actionHeaders.forEach((value, key) => headers.set(key, value))
	return headers
}

const MESSAGES: Record<number, string> = {
	404: 'Not found',
	410: 'This course has been archived',
	503: 'Content temporarily unavailable',
}

/**
 * A Markdown projection: text/markdown, cached briefly. A thrown 404 or 410
 * from the content checks becomes the JSON error envelope of the /api routes.
 */
export async function markdownResponse(render: () => Promise<string>) {
	try {
		return new Response(await render(), {
			headers: { 'content-type': 'text/markdown; charset=utf-8', 'cache-control': 'public, max-age=60' },
		})
	} catch (thrown) {
		if (!(thrown instanceof Response) || !(thrown.status in MESSAGES)) throw thrown
		return jsonError(thrown.status, errorCodeFor(thrown.status), MESSAGES[thrown.status])
	}
}
