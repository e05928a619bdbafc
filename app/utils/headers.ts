import type { HeadersFunction } from 'react-router'

/** Lets an action's headers (Retry-After on 429) reach the rendered document. */
export const actionHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
	const headers = new Headers(loaderHeaders)
	actionHeaders.forEach((value, key) => headers.set(key, value))
	return headers
}
