/**
 * What the server believes about a request's client and host, given how many
 * proxies it is told to trust (TRUSTED_PROXY_HOPS, default 0). A header is
 * only as good as whoever wrote it: the client writes the leftmost values of
 * X-Forwarded-For, each proxy appends the address it saw, so the client is the
 * address that the outermost trusted proxy saw. With no trusted proxy it is
 * the socket's peer, and forwarded headers are ignored.
 */
import { isIP } from 'node:net'

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function normalizeAddress(address: string) {
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
	return (mapped ? mapped[1] : address).toLowerCase()
}

/**
 * The client address: `hops` trusted proxies stand between it and us, each
 * appending its peer to X-Forwarded-For. A value at the trusted position that
 * is not an address (a proxy that does not append) falls back to the peer.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, hops: number) {
	const socket = normalizeAddress(peer ?? '') || 'unknown'
	if (hops === 0) return socket
	const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean)
	chain.push(socket)
	const candidate = chain[Math.max(0, chain.length - 1 - hops)]
	return isIP(candidate) ? normalizeAddress(candidate) : socket
}

/**
 * The host the browser asked for: Host, or behind trusted proxies
 * (AUTH_TRUST_HOST=true) X-Forwarded-Host as the nearest proxy wrote it. Only
 * its name is used, and only once it resolves to a known site: scheme and port
 * of every absolute URL come from configuration (configuredOrigin).
 */
export function requestHost(
	host: string | undefined,
	forwardedHost: string | string[] | undefined,
	trustForwardedHost: boolean,
) {
	if (trustForwardedHost && forwardedHost) {
		const values = (Array.isArray(forwardedHost) ? forwardedHost.join(',') : forwardedHost).split(',')
		const nearest = values[values.length - 1]?.trim()
		if (nearest) return nearest
	}
	return host
}

/** This site's origin: the scheme and port of AUTH_URL (the origin browsers use, parsed once at start) with the resolved host name. */
export function configuredOrigin(base: Pick<URL, 'protocol' | 'port'>, hostName: string) {
	return `${base.protocol}//${hostName}${base.port ? `:${base.port}` : ''}`
}
