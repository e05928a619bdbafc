import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { lookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP } from 'node:net'

/*
 * Which addresses the server may connect to when a URL came from outside (a webhook endpoint, a
 * content image, a single sign-on issuer and the endpoints its discovery document names): public
 * ones only (decisions 0072, 0079). The check is made on the address the connection is made to, so a
 * name that resolves to a public address when checked and to a private one when connected (DNS
 * rebinding) is never followed. IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible,
 * NAT64, 6to4) are judged by the IPv4 address they carry. Loopback is a separate answer because
 * development and tests allow it in places (each caller says when); nothing else non-public is ever allowed.
 */

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/** Never a destination: this network, private, shared (CGNAT), link-local (the cloud metadata service), reserved. */
const BLOCKED = new BlockList()
for (const [net, prefix] of [
	['0.0.0.0', 8],
	['10.0.0.0', 8],
	['100.64.0.0', 10],
	['169.254.0.0', 16],
	['172.16.0.0', 12],
	['192.0.0.0', 24],
	['192.0.2.0', 24],
	['192.88.99.0', 24],
	['192.168.0.0', 16],
	['198.18.0.0', 15],
	['198.51.100.0', 24],
	['203.0.113.0', 24],
	['224.0.0.0', 4],
	['240.0.0.0', 4],
] as const)
	BLOCKED.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
	['::', 128],
	['100::', 64],
	['2001::', 23],
	['2001:db8::', 32],
	['fc00::', 7],
	['fe80::', 10],
	['fec0::', 10],
	['ff00::', 8],
] as const)
	BLOCKED.addSubnet(net, prefix, 'ipv6')

/** The eight 16-bit groups of an IPv6 address (any valid spelling, with or without a trailing IPv4 part). */
function ipv6Groups(address: string): number[] {
	let text = address
	const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
	if (v4) {
		const [a, b, c, d] = v4[1].split('.').map(Number)
		text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
	}
	const [head, tail] = text.includes('::') ? text.split('::') : [text, null]
	const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
	const left = part(head)
	if (tail === null) return left
	const right = part(tail)
	return [...left, ...Array(8 - left.length - right.length).fill(0), ...right]
}

/** The IPv4 address an IPv6 address carries, if it is one of the forms that carry one. */
function embeddedIpv4(address: string): string | null {
	const g = ipv6Groups(address)
	const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
	const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
	if (zero(0, 5) && g[5] === 0xffff) return v4(g[6], g[7]) // ::ffff:a.b.c.d (mapped)
	if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4(g[6], g[7]) // ::a.b.c.d (compatible)
	if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6], g[7]) // 64:ff9b::/96 (NAT64)
	if (g[0] === 0x2002) return v4(g[1], g[2]) // 2002::/16 (6to4)
	return null
}

/**
 * Why the server may not connect to this address, or null when it may: `loopback` (allowed only
 * with `allowLoopback`), `private` (every other non-public range), `invalid` (not an address).
 */
export function refusedAddress(address: string, allowLoopback: boolean): 'loopback' | 'private' | 'invalid' | null {
	const family = isIP(address)
	if (family === 0) return 'invalid'
	if (family === 6) {
		const inner = embeddedIpv4(address)
		if (inner) return refusedAddress(inner, allowLoopback)
	}
	const type = family === 4 ? 'ipv4' : 'ipv6'
	if (LOOPBACK.check(address, type)) return allowLoopback ? null : 'loopback'
	if (BLOCKED.check(address, type)) return 'private'
	return null
}

export const isPublicAddress = (address: string, allowLoopback = false) =>
	refusedAddress(address, allowLoopback) === null

/** A connection refused by these rules (the message says why); callers tell it from a network failure. */
export class RefusedTarget extends Error {}

/** The host of a URL as an address or a name (IPv6 literals without brackets). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>

/**
 * Every address a host (a name or an address literal) resolves to, each checked: one refused
 * address among allowed ones refuses the host (RefusedTarget, saying which and why).
 */
export async function resolvePublic(
	host: string,
	allowLoopback: boolean,
	resolve: Resolve = (name) => lookup(name, { all: true, verbatim: true }),
) {
	const family = isIP(host)
	const addresses = family ? [{ address: host, family }] : await resolve(host)
	if (addresses.length === 0) throw new RefusedTarget(`refused: ${host} resolves to no address`)
	for (const a of addresses) {
		const refused = refusedAddress(a.address, allowLoopback)
		if (refused) throw new RefusedTarget(`refused: ${host} resolves to a ${refused} address (${a.address})`)
	}
	return addresses
}

/**
 * A `lookup` for node:http(s) and node:net that answers only checked addresses, so the address
 * checked is the one connected to. Node does not call it for an address literal: requestPublic
 * checks those itself.
 */
export function publicLookup(allowLoopback: boolean) {
	return (
		hostname: string,
		options: LookupOptions,
		callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
	) =>
		dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
			if (error) return callback(error, '', 0)
			const refused = addresses.find((a) => !isPublicAddress(a.address, allowLoopback))
			if (refused || addresses.length === 0)
				return callback(new RefusedTarget(`refused: ${hostname} is not a public address`), '', 0)
			if (options.all) return callback(null, addresses)
			callback(null, addresses[0].address, addresses[0].family)
		})
}

export interface PublicResponse {
	status: number
	headers: IncomingHttpHeaders
	body: Buffer
}

/**
 * One request (no redirects followed) to a URL that came from outside, connected to a checked
 * address only, with `timeoutMs` and `maxBytes` at most (and `signal`, for callers that abort).
 * The scheme is the caller's rule; this takes http and https.
 */
export function requestPublic(
	url: URL,
	options: {
		allowLoopback: boolean
		timeoutMs: number
		maxBytes: number
		method?: string
		headers?: Record<string, string>
		body?: string | Uint8Array
		signal?: AbortSignal
	},
): Promise<PublicResponse> {
	return new Promise((resolve, reject) => {
		const host = hostOf(url)
		if (url.protocol !== 'https:' && url.protocol !== 'http:') return reject(new Error('not http or https'))
		if (isIP(host) && !isPublicAddress(host, options.allowLoopback))
			return reject(new RefusedTarget(`refused: ${host} is not a public address`))
		const send = url.protocol === 'https:' ? httpsRequest : httpRequest
		const req = send(url, {
			method: options.method ?? 'GET',
			headers: options.headers,
			lookup: publicLookup(options.allowLoopback),
			signal: options.signal,
		})
		const timer = setTimeout(() => req.destroy(new Error('timed out')), options.timeoutMs)
		req.on('close', () => clearTimeout(timer))
		req.on('error', reject)
		req.on('response', (res) => {
			const chunks: Buffer[] = []
			let size = 0
			res.on('data', (chunk: Buffer) => {
				size += chunk.length
				if (size <= options.maxBytes) return chunks.push(chunk)
				// Rejected here: the rest of the body may already be buffered, and its end would resolve.
				reject(new Error('too large'))
				req.destroy()
			})
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
			res.on('error', reject)
		})
		req.end(options.body)
	})
}
