import { request as httpRequest } from 'node:http'

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
 * each piece's progress (to start a fault mid-body). A connection error is an answer with status 0.
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
	return new Promise((resolve) => {
		let sent = 0
		let done = false
		const finish = (answer: Omit<StreamedAnswer, 'ms' | 'sent'>) => {
			if (done) return
			done = true
			resolve({ ...answer, ms: Date.now() - started, sent })
		}
		const req = httpRequest(
			{
				host: '127.0.0.1',
				port,
				path,
				method: init.method ?? 'POST',
				headers: {
					host: `${host}:${port}`,
					origin: `http://${host}:${port}`,
					'content-type': `multipart/form-data; boundary=${init.announcedBoundary ?? boundary}`,
					'content-length': String(init.contentLength ?? total),
					...(init.cookie ? { cookie: init.cookie } : {}),
				},
			},
			(res) => {
				const chunks: Buffer[] = []
				res.on('data', (c: Buffer) => chunks.push(c))
				res.on('end', () =>
					finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
				)
				res.on('error', (error) => finish({ status: 0, body: String(error), headers: {} }))
			},
		)
		req.on('error', (error) => finish({ status: 0, body: String(error), headers: {} }))
		req.setTimeout(init.timeoutMs ?? 60_000, () => req.destroy(new Error('no answer in time')))
		const limit = Math.min(init.stopAfter ?? Infinity, init.cutAfter ?? Infinity)
		void (async () => {
			const write = (b: Buffer) =>
				new Promise<void>((ok) => {
					if (req.destroyed || done) return ok()
					sent += b.length
					init.onSent?.(sent)
					if (req.write(b)) ok()
					else {
						const go = () => (req.off('close', go), req.off('drain', go), ok())
						req.once('drain', go)
						req.once('close', go)
					}
				})
			for (const p of pieces) {
				if (Buffer.isBuffer(p)) {
					if (sent >= limit) break
					await write(p.subarray(0, Math.max(0, limit - sent)))
					continue
				}
				const run = Buffer.alloc(PIECE, p.fill)
				for (let left = p.size; left > 0 && sent < limit && !req.destroyed && !done;) {
					const n = Math.min(PIECE, left, limit - sent)
					await write(run.subarray(0, n))
					left -= n
				}
			}
			if (init.cutAfter !== undefined && sent >= init.cutAfter) req.destroy()
			else if (init.stopAfter === undefined) req.end()
		})()
	})
}
