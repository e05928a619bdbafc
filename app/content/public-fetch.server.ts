import { requestPublic } from '#app/platform/public-address.server.ts'

/**
 * GET of a URL that content gave us (a site image field), for the server itself: https only, to
 * public addresses only and never loopback (the server's one address check, checked on the address
 * the connection is made to, so a name that resolves to this network, or changes what it resolves
 * to, is refused), no redirects, `timeoutMs` and `maxBytes` at most. Anything else rejects: content
 * must not make the server reach into its own network.
 */
export async function fetchPublic(
	url: string,
	{ timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
): Promise<Buffer> {
	let target: URL
	try {
		target = new URL(url)
	} catch {
		throw new Error('not a URL')
	}
	if (target.protocol !== 'https:') throw new Error('only https is fetched')
	const res = await requestPublic(target, { allowLoopback: false, timeoutMs, maxBytes })
	if (res.status !== 200) throw new Error(`status ${res.status}`)
	return res.body
}
