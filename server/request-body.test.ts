import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { createRequest } from '@remix-run/node-fetch-server'
import { afterEach, describe, expect, it } from 'vitest'
import { request } from '#tests/support/http.ts'

// The request adapter server/app.ts uses, as patched (patches/@remix-run+node-fetch-server+0.13.3.patch):
// the body is read from the socket only as fast as the handler takes it, a client that goes away
// fails the body instead of leaving it open, and a body the handler does not read is dropped.

const MB = 1024 * 1024
let server: Server | undefined
afterEach(() => {
	server?.closeAllConnections()
	server?.close()
	server = undefined
})

async function serve(handler: (request: Request, req: IncomingMessage, res: ServerResponse) => Promise<void>) {
	server = createServer((req, res) => void handler(createRequest(req, res), req, res))
	server.listen(0, '127.0.0.1')
	await once(server, 'listening')
	return (server.address() as { port: number }).port
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the request body', () => {
	it('is read from the socket only as fast as the handler reads it, and dropped once cancelled', async () => {
		let received = -1
		const port = await serve(async (request, req, res) => {
			const reader = request.body!.getReader()
			await reader.read()
			// A handler as slow as a slow store: the client could have sent all 30 MB meanwhile.
			await pause(300)
			received = req.socket.bytesRead
			// Cancelled, the rest is read and dropped (to its end, which must not close the stream twice).
			await reader.cancel()
			await once(req, 'end')
			res.end('ok')
		})
		const answer = await request(port, 'localhost', '/', { method: 'POST', body: Buffer.alloc(30 * MB) })
		expect(answer.text).toBe('ok')
		// The queue's 64 KiB, Node's buffers and what the socket read ahead: far less than the body.
		expect(received).toBeGreaterThan(0)
		expect(received).toBeLessThan(4 * MB)
	})

	it('fails for its reader when the client goes away mid-body', async () => {
		let outcome: Promise<unknown> = Promise.resolve()
		const port = await serve(async (request) => {
			outcome = request.arrayBuffer()
		})
		const socket = connect(port, '127.0.0.1')
		await once(socket, 'connect')
		socket.write('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000\r\n\r\n')
		socket.write(Buffer.alloc(100_000))
		await pause(100)
		socket.destroy()
		await expect(outcome).rejects.toThrow()
	})

	it('not read by the handler is dropped after the answer, and the connection serves the next request', async () => {
		const port = await serve(async (request, _req, res) => {
			res.end(new URL(request.url).pathname)
		})
		const socket = connect(port, '127.0.0.1')
		await once(socket, 'connect')
		const body = Buffer.alloc(5 * MB)
		socket.write(`POST /first HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n`)
		socket.write(body)
		socket.write('GET /second HTTP/1.1\r\nHost: localhost\r\n\r\n')
		let text = ''
		socket.on('data', (chunk) => (text += String(chunk)))
		for (let waited = 0; !text.includes('/second') && waited < 5000; waited += 50) await pause(50)
		socket.destroy()
		expect(text).toContain('/first')
		expect(text).toContain('/second')
	})
})
