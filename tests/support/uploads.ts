import { connect } from 'node:net'

/** A file of a streamed hand-in: `size` bytes of `fill`, generated as they are sent (never whole in the test's memory). */
export interface StreamedFile {
	name: string
	size: number
	fill?: string
	type?: string
	/** The part's form field (`files` by default); null sends a part without a filename. */
	field?: string
	noFilename?: boolean
}

export interface StreamedAnswer {
	status: number
	ms: number
	body: string
	headers: Record<string, string | string[] | undefined>
	/** Bytes the client had written when the answer (or the error) came. */
	sent: number
}

const PIECE = 64 * 1024

/**
 * A multipart hand-in as a browser sends it, streamed with the socket's backpressure: the fields,
 * then each file generated piece by piece. `contentLength` overrides the declared length (a lying
 * client), `cutAfter` destroys the connection once that many bytes are written, `onSent` hears
 * each piece's progress (to start a fault mid-body). A connection closed without an answer is status 0.
 */
export function streamHandIn(
	port: number,
	host: string,
	path: string,
	init: {
		cookie?: string
		fields?: Array<[string, string]>
		files?: StreamedFile[]
		boundary?: string
		/** The boundary the Content-Type announces, when it differs from the one used in the body. */
		announcedBoundary?: string
		contentLength?: number
		cutAfter?: number
		/** Bytes of the body actually written (a truncated body); the rest is never sent. */
		stopAfter?: number
		method?: string
		onSent?: (bytes: number) => void
		/** A pause after each 64 KiB piece of a file (a slow connection). */
		paceMs?: number
		timeoutMs?: number
	},
): Promise<StreamedAnswer> {
	const boundary = init.boundary ?? `----lms-test-${Math.random().toString(16).slice(2)}`
	const head = (name: string, filename: string | null, type?: string) =>
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
				(filename === null ? '' : `; filename="${filename}"`) +
				`\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
		)
	// The body as a list of pieces: buffers, or generated runs of a fill.
	const pieces: Array<Buffer | { size: number; fill: string }> = []
	for (const [name, value] of init.fields ?? [])
		pieces.push(Buffer.concat([head(name, null), Buffer.from(`${value}\r\n`)]))
	for (const f of init.files ?? []) {
		pieces.push(head(f.field ?? 'files', f.noFilename ? null : f.name, f.type ?? 'text/plain'))
		pieces.push({ size: f.size, fill: f.fill ?? 'a' })
		pieces.push(Buffer.from('\r\n'))
	}
	pieces.push(Buffer.from(`--${boundary}--\r\n`))
	const total = pieces.reduce((n, p) => n + (Buffer.isBuffer(p) ? p.length : p.size), 0)
	const started = Date.now()
	const headers = [
		`${init.method ?? 'POST'} ${path} HTTP/1.1`,
		`Host: ${host}:${port}`,
		`Origin: http://${host}:${port}`,
		`Content-Type: multipart/form-data; boundary=${init.announcedBoundary ?? boundary}`,
		`Content-Length: ${init.contentLength ?? total}`,
		...(init.cookie ? [`Cookie: ${init.cookie}`] : []),
		'Connection: close',
	].join('\r\n')
	// A raw socket, not node:http: a server may answer and close before the body is sent (a refusal),
	// and the answer must still be read, as a browser does, instead of failing on the write.
	return new Promise((resolve) => {
		let sent = 0
		let done = false
		let received = Buffer.alloc(0)
		const socket = connect(port, '127.0.0.1')
		const finish = (error?: Error) => {
			if (done) return
			done = true
			clearTimeout(timer)
			socket.destroy()
			const answer = parseAnswer(received)
			resolve(
				answer
					? { ...answer, ms: Date.now() - started, sent }
					: {
							status: 0,
							body: String(error ?? 'closed without an answer'),
							headers: {},
							ms: Date.now() - started,
							sent,
						},
			)
		}
		const timer = setTimeout(() => finish(new Error('no answer in time')), init.timeoutMs ?? 60_000)
		socket.on('data', (chunk: Buffer) => {
			received = Buffer.concat([received, chunk])
			if (parseAnswer(received)?.complete) finish()
		})
		socket.on('error', (error) => {
			// A reset after the answer came is the end of the connection, not a failure.
			if (!parseAnswer(received)) finish(error)
		})
		socket.on('close', () => finish())
		const limit = Math.min(init.stopAfter ?? Infinity, init.cutAfter ?? Infinity)
		const write = (b: Buffer) =>
			new Promise<void>((ok) => {
				if (socket.destroyed || done || b.length === 0) return ok()
				sent += b.length
				init.onSent?.(sent)
				if (socket.write(b)) ok()
				else {
					const go = () => (socket.off('close', go), socket.off('drain', go), ok())
					socket.once('drain', go)
					socket.once('close', go)
				}
			})
		socket.once('connect', () => {
			void (async () => {
				await write(Buffer.from(`${headers}\r\n\r\n`))
				sent = 0
				// A moment for an answer decided on the headers alone (a refusal that closes the connection):
				// sent into, the connection would be reset before the answer is read.
				for (let i = 0; i < 10 && !done && received.length === 0; i++) await new Promise((r) => setTimeout(r, 10))
				for (const p of pieces) {
					if (Buffer.isBuffer(p)) {
						if (sent >= limit) break
						await write(p.subarray(0, Math.max(0, limit - sent)))
						continue
					}
					const run = Buffer.alloc(PIECE, p.fill)
					for (let left = p.size; left > 0 && sent < limit && !socket.destroyed && !done;) {
						const n = Math.min(PIECE, left, limit - sent)
						await write(run.subarray(0, n))
						left -= n
						if (init.paceMs) await new Promise((r) => setTimeout(r, init.paceMs))
					}
				}
				if (init.cutAfter !== undefined && sent >= init.cutAfter) socket.destroy()
			})()
		})
	})
}

/** An HTTP/1.1 answer read so far: its status, headers and body, and whether the body is whole. */
function parseAnswer(bytes: Buffer) {
	const end = bytes.indexOf('\r\n\r\n')
	if (end === -1) return null
	const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n')
	const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0)
	const headers: Record<string, string | string[] | undefined> = {}
	for (const line of lines) {
		const colon = line.indexOf(':')
		const name = line.slice(0, colon).trim().toLowerCase()
		const value = line.slice(colon + 1).trim()
		const had = headers[name]
		headers[name] = had === undefined ? value : ([] as string[]).concat(had, value)
	}
	let body = bytes.subarray(end + 4)
	let complete = false
	const length = headers['content-length']
	if (typeof length === 'string') complete = body.length >= Number(length)
	else if (String(headers['transfer-encoding']).includes('chunked')) {
		complete = body.includes('\r\n0\r\n\r\n') || body.subarray(0, 5).toString() === '0\r\n\r\n'
		body = dechunk(body)
	}
	return { status, headers, body: body.toString('utf8'), complete }
}

function dechunk(bytes: Buffer) {
	const parts: Buffer[] = []
	for (let at = 0; at < bytes.length;) {
		const line = bytes.indexOf('\r\n', at)
		if (line === -1) break
		const size = parseInt(bytes.subarray(at, line).toString('latin1'), 16)
		if (!size) break
		parts.push(bytes.subarray(line + 2, line + 2 + size))
		at = line + 2 + size + 2
	}
	return Buffer.concat(parts)
}
