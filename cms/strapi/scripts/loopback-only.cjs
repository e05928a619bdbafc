'use strict'
/**
 * Preloaded by scripts/test-authoring.sh (NODE_OPTIONS=--require): every outgoing connection the
 * CMS opens is checked, and one to an address outside loopback is refused and written to
 * LOOPBACK_ONLY_LOG, which the script counts as a failure. Shows that Strapi, as configured here,
 * reaches nothing outside this machine at run time (no telemetry, update check or font fetch).
 */
const net = require('node:net')
const fs = require('node:fs')

const log = process.env.LOOPBACK_ONLY_LOG
const loopback = (host) =>
	!host ||
	host === 'localhost' ||
	/^127\./.test(host) ||
	host === '::1' ||
	host === '::ffff:127.0.0.1' ||
	host.startsWith('/')

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function (...args) {
	const options =
		typeof args[0] === 'object' && args[0] !== null
			? Array.isArray(args[0])
				? args[0][0]
				: args[0]
			: { port: args[0], host: args[1] }
	const host = options?.path ? options.path : options?.host
	if (!loopback(host)) {
		const line = `${new Date().toISOString()} refused a connection to ${host}:${options?.port}\n`
		if (log) fs.appendFileSync(log, line)
		process.nextTick(() => this.destroy(new Error(`loopback-only: ${host} refused`)))
		return this
	}
	return connect.apply(this, args)
}
