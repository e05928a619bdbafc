import { isIP } from 'node:net'
import { hostOf, refusedAddress, RefusedTarget, resolvePublic } from '#app/platform/public-address.server.ts'

/*
 * Where an outgoing webhook may go (decision 0072): a public address only, by the server's one
 * address check (app/platform/public-address.server.ts). The check is made on the address a name
 * resolves to at delivery time, and the connection is then made to that very address
 * (webhook-send.server.ts pins it), so DNS rebinding is never followed.
 */

export interface CheckedTarget {
	url: URL
	/** The address the connection must be made to (checked). */
	address: string
	family: 4 | 6
}

/**
 * A webhook URL's scheme and syntax, without resolving it: https (or, outside production, http), no
 * credentials, and, when the host is an address literal (in any spelling the URL parser accepts:
 * decimal, octal, hexadecimal IPv4, IPv6), a public one. The message says why not, else null.
 */
export function refusedUrl(raw: string, options: { production: boolean; allowLoopback: boolean }): string | null {
	let url: URL
	try {
		url = new URL(raw)
	} catch {
		return 'not a URL'
	}
	if (url.protocol !== 'https:' && (options.production || url.protocol !== 'http:')) return 'not https'
	if (url.username || url.password) return 'credentials in the URL'
	const host = hostOf(url)
	if (isIP(host)) {
		const why = refusedAddress(host, options.allowLoopback)
		if (why) return `${why} address`
	}
	return null
}

/**
 * The URL resolved and checked at delivery time: every address its name resolves to must be
 * allowed (a name with one private address among public ones is refused), and the first is the
 * one to connect to. Throws RefusedTarget with the reason.
 */
export async function checkTarget(
	raw: string,
	options: { production: boolean; allowLoopback: boolean },
	resolve?: Parameters<typeof resolvePublic>[2],
): Promise<CheckedTarget> {
	const why = refusedUrl(raw, options)
	if (why) throw new RefusedTarget(`refused: ${why}`)
	const url = new URL(raw)
	const [first] = await resolvePublic(hostOf(url), options.allowLoopback, resolve)
	return { url, address: first.address, family: first.family === 6 ? 6 : 4 }
}
