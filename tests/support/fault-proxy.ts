import { createServer, connect, type Socket } from 'node:net'

export type ProxyMode = 'pass' | 'refuse' | 'stall' | 'freeze'

/**
 * A TCP proxy on loopback in front of a real server (PostgreSQL, Redis), for
 * faults: `cut()` resets every open connection, `mode = 'refuse'` resets new
 * ones at once (a server that is down), `mode = 'stall'` accepts them and
 * forwards nothing either way (a server that stopped answering), `freeze()`
 * holds what is sent either way and new connections, unread, until `up()`
 * (a SIGSTOPped server: the kernel keeps it all), and `mode = 'pass'` is
 * normal service. `setupDelayMs` holds each new connection that long before
 * relaying it (a loaded server, slow to fork a process for a connection, quick
 * to answer on one that is open). The app under test connects to the proxy; the
 * test drives the outage without touching the server other tests share.
 */
export async function startFaultProxy(target: { host: string; port: number }) {
	const pairs = new Set<[Socket, Socket]>()
	let mode: ProxyMode = 'pass'
	let setupDelayMs = 0
	const server = createServer((client) => {
		client.on('error', () => {})
		if (mode === 'refuse') return client.resetAndDestroy()
		const upstream = connect(target.port, target.host)
		upstream.on('error', () => client.destroy())
		client.on('error', () => upstream.destroy())
		const pair: [Socket, Socket] = [client, upstream]
		pairs.add(pair)
		if (mode === 'freeze') for (const s of pair) s.pause()
		else if (setupDelayMs) {
			for (const s of pair) s.pause()
			setTimeout(() => mode === 'pass' && pair.forEach((s) => s.resume()), setupDelayMs)
		}
		const forget = () => pairs.delete(pair)
		client.on('close', () => (upstream.destroy(), forget()))
		upstream.on('close', () => (client.destroy(), forget()))
		const relay = (from: Socket, to: Socket) =>
			from.on('data', (chunk) => {
				// A stalled link swallows what is sent, as a partition does.
				if (mode !== 'stall') to.write(chunk)
			})
		relay(client, upstream)
		relay(upstream, client)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.address() as { port: number }).port
	return {
		port,
		get mode() {
			return mode
		},
		set mode(value: ProxyMode) {
			mode = value
		},
		set setupDelayMs(ms: number) {
			setupDelayMs = ms
		},
		/** Resets every open connection (the server restarted or the link dropped). */
		cut() {
			for (const [client, upstream] of pairs) {
				client.resetAndDestroy()
				upstream.destroy()
			}
			pairs.clear()
		},
		/** The server is down: open connections reset, new ones refused. */
		down() {
			mode = 'refuse'
			this.cut()
		},
		/** The server is frozen: nothing is read either way, on open connections or new ones, until up(). */
		freeze() {
			mode = 'freeze'
			for (const pair of pairs) for (const s of pair) s.pause()
		},
		up() {
			mode = 'pass'
			for (const pair of pairs) for (const s of pair) s.resume()
		},
		openConnections: () => pairs.size,
		close: () => {
			for (const [client, upstream] of pairs) {
				client.destroy()
				upstream.destroy()
			}
			return new Promise<void>((resolve) => server.close(() => resolve()))
		},
	}
}

export type FaultProxy = Awaited<ReturnType<typeof startFaultProxy>>
