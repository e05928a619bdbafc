import { createServer, request as httpRequest } from 'node:http'

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
	init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
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
			(res) => {
				const chunks: Buffer[] = []
				res.on('data', (c: Buffer) => chunks.push(c))
				res.on('end', () => {
					const body = Buffer.concat(chunks)
					const text = body.toString('utf8')
					resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json: () => JSON.parse(text) })
				})
				res.on('error', reject)
			},
		)
		req.on('error', reject)
		if (init.body !== undefined) req.write(init.body)
		req.end()
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
