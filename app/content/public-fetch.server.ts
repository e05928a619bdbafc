import { lookup, type LookupAddress } from 'node:dns'
import { request } from 'node:https'
import { BlockList, isIP } from 'node:net'

// Addresses that are not the public internet: this host, private and carrier networks, link-local
// (cloud metadata at 169.254.169.254), multicast, reserved, documentation, IPv4 mapped into IPv6.
const NOT_PUBLIC = new BlockList()
for (const [network, prefix] of [
	['0.0.0.0', 8],
	['10.0.0.0', 8],
	['100.64.0.0', 10],
	['127.0.0.0', 8],
	['169.254.0.0', 16],
	['172.16.0.0', 12],
	['192.0.0.0', 24],
	['192.0.2.0', 24],
	['192.168.0.0', 16],
	['198.18.0.0', 15],
	['198.51.100.0', 24],
	['203.0.113.0', 24],
	['224.0.0.0', 4],
	['240.0.0.0', 4],
] as const)
	NOT_PUBLIC.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
	['::', 127],
	['::ffff:0:0', 96],
	['64:ff9b::', 96],
	['100::', 64],
	['2001:db8::', 32],
	['fc00::', 7],
	['fe80::', 10],
	['ff00::', 8],
] as const)
	NOT_PUBLIC.addSubnet(network, prefix, 'ipv6')

function isPublicAddress(address: string) {
	const family = isIP(address)
	return family !== 0 && !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * GET of a URL that content gave us (a site image field), for the server
 * itself: https only, to public addresses only (checked on the address the
 * connection is made to, so a name that resolves to this network, or changes
 * what it resolves to, is refused), no redirects, `timeoutMs` and `maxBytes`
 * at most. Anything else rejects: content must not make the server reach
 * into its own network.
 */
export function fetchPublic(
	url: string,
	{ timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		let target: URL
		try {
			target = new URL(url)
		} catch {
			return reject(new Error('not a URL'))
		}
		const literal = target.hostname.replace(/^\[|\]$/g, '')
		if (target.protocol !== 'https:') return reject(new Error('only https is fetched'))
		if (isIP(literal) && !isPublicAddress(literal)) return reject(new Error('not a public address'))
		const req = request(target, {
			lookup: (hostname, options, callback) =>
				lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
					if (error) return callback(error, '', 0)
					const refused = addresses.find((a) => !isPublicAddress(a.address))
					if (refused || addresses.length === 0) return callback(new Error('not a public address'), '', 0)
					if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
					callback(null, addresses[0].address, addresses[0].family)
				}),
		})
		const timer = setTimeout(() => req.destroy(new Error('timed out')), timeoutMs)
		req.on('close', () => clearTimeout(timer))
		req.on('error', reject)
		req.on('response', (res) => {
			if (res.statusCode !== 200) {
				res.resume()
				return reject(new Error(`status ${res.statusCode}`))
			}
			const chunks: Buffer[] = []
			let size = 0
			res.on('data', (chunk: Buffer) => {
				size += chunk.length
				if (size > maxBytes) req.destroy(new Error('too large'))
				else chunks.push(chunk)
			})
			res.on('end', () => resolve(Buffer.concat(chunks)))
			res.on('error', reject)
		})
		req.end()
	})
}
