import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'

export interface TestResponse {
	status: number
	headers: Record<string, string | string[] | undefined>
	body: Buffer
	text: string
	json<T = any>(): T
}

/**
 * One HTTP request to 127.0.0.1:port with an explicit Host header, the way a
 * browser on <host> would send it (fetch cannot set Host).
 */
export function request(
	port: number,
	host: string,
	path: string,
	init: {
		method?: string
		headers?: Record<string, string>
		body?: string | Buffer
		/** Sends the body in pieces of `bytes` with a pause after each, instead of in one write. */
		pieces?: { bytes: number; pauseMs: number }
	} = {},
): Promise<TestResponse> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: '127.0.0.1',
				port,
				path,
				method: init.method ?? 'GET',
				// As browsers do, a body goes with its Content-Length (the app refuses chunked uploads).
				headers: {
					host: `${host}:${port}`,
					...(init.body !== undefined && !init.headers?.['transfer-encoding']
						? { 'content-length': String(Buffer.byteLength(init.body)) }
						: {}),
					...init.headers,
				},
			},
			(res) => readResponse(res).then(resolve, reject),
		)
		req.on('error', reject)
		if (init.body === undefined) return req.end()
		if (!init.pieces) return req.end(init.body)
		// As a slow link delivers it: a piece at a time, each written once the socket took the one before.
		const body = Buffer.from(init.body)
		const { bytes, pauseMs } = init.pieces
		void (async () => {
			for (let at = 0; at < body.length && !req.destroyed; at += bytes) {
				await new Promise<void>((done) => req.write(body.subarray(at, at + bytes), () => done()))
				await new Promise((done) => setTimeout(done, pauseMs))
			}
			req.end()
		})()
	})
}

function readResponse(res: IncomingMessage): Promise<TestResponse> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = []
		res.on('data', (c: Buffer) => chunks.push(c))
		res.on('end', () => {
			const body = Buffer.concat(chunks)
			const text = body.toString('utf8')
			resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json: () => JSON.parse(text) })
		})
		res.on('error', reject)
	})
}

/**
 * A port that is free now, for a server whose configuration must name its own
 * origin (AUTH_URL) before it listens.
 */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer()
		probe.on('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as { port: number }
			probe.close(() => resolve(port))
		})
	})
}
