import { brotliDecompressSync, createBrotliDecompress, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { compressResponse, negotiateEncoding } from './compression.ts'

const HTML = { 'content-type': 'text/html; charset=utf-8' }

describe('negotiateEncoding', () => {
	it.each([
		['gzip, deflate, br', 'br'],
		['gzip;q=1, br;q=0.5', 'gzip'],
		['br;q=0, *', 'gzip'],
		['GZIP', 'gzip'],
		['deflate', 'identity'],
		['identity;q=0', 'identity'],
		['', 'identity'],
	])('%j → %s', (header, expected) => expect(negotiateEncoding(header)).toBe(expected))
})

describe('compressResponse', () => {
	it('keeps streaming: the shell arrives while the rest of the body is still pending', async () => {
		let finish!: () => void
		const rest = new Promise<void>((resolve) => (finish = resolve))
		const encoder = new TextEncoder()
		const body = new ReadableStream<Uint8Array>({
			async start(controller) {
				controller.enqueue(encoder.encode(`<!doctype html><title>x</title>${'<p>shell</p>'.repeat(200)}`))
				await rest
				controller.enqueue(encoder.encode('<p>late</p>'))
				controller.close()
			},
		})
		const response = await compressResponse(new Response(body, { headers: HTML }), 'GET', 'br')
		expect(response.headers.get('content-encoding')).toBe('br')
		const inflate = createBrotliDecompress()
		let text = ''
		inflate.on('data', (chunk: Buffer) => (text += chunk.toString()))
		const reader = response.body!.getReader()
		// Without a flush on the pause, brotli would hold everything back until the end.
		while (!text.includes('shell')) {
			const { value, done } = await reader.read()
			expect(done).toBe(false)
			await new Promise<void>((resolve) => inflate.write(value, () => resolve()))
			await new Promise((resolve) => setImmediate(resolve))
		}
		expect(text).not.toContain('late')
		finish()
		for (;;) {
			const { value, done } = await reader.read()
			if (done) break
			inflate.write(value)
		}
		await new Promise((resolve) => inflate.end(resolve))
		expect(text).toContain('<p>late</p>')
	})

	it('compresses a body that is all there at once in one call, its length declared (no chunked stream)', async () => {
		const page = `<!doctype html><title>x</title>${'<p>a page rendered in one go</p>'.repeat(300)}`
		const encoder = new TextEncoder()
		const body = new ReadableStream<Uint8Array>({
			start(controller) {
				for (const part of page.match(/[\s\S]{1,700}/g)!) controller.enqueue(encoder.encode(part))
				controller.close()
			},
		})
		for (const encoding of ['br', 'gzip'] as const) {
			const out = await compressResponse(
				new Response(encoding === 'br' ? body : page, { headers: HTML }),
				'GET',
				encoding,
			)
			expect(out.headers.get('content-encoding')).toBe(encoding)
			const bytes = Buffer.from(await out.arrayBuffer())
			expect(out.headers.get('content-length')).toBe(String(bytes.byteLength))
			expect((encoding === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString()).toBe(page)
		}
	})

	// A body that makes 64 KB of incompressible-ish text each time it is pulled, and counts the pulls.
	function endlessBody() {
		const state = { pulls: 0, cancelled: false }
		let seed = 1
		const random = () => (seed = (seed * 48271) % 2147483647)
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				state.pulls++
				controller.enqueue(
					new TextEncoder().encode(Array.from({ length: 8192 }, () => random().toString(36).slice(-7)).join(' ')),
				)
			},
			cancel() {
				state.cancelled = true
			},
		})
		return { body, state }
	}

	it('holds the body back while the client does not read (backpressure)', async () => {
		const { body, state } = endlessBody()
		const response = await compressResponse(new Response(body, { headers: HTML }), 'GET', 'gzip')
		const reader = response.body!.getReader()
		await reader.read()
		await new Promise((resolve) => setTimeout(resolve, 200))
		// Without waiting for the client, the loop reads the endless body into memory as fast as it can.
		expect(state.pulls).toBeLessThan(20)
		await reader.cancel()
	})

	it('cancels the body when the client goes away, also while the compressor is full', async () => {
		const { body, state } = endlessBody()
		const response = await compressResponse(new Response(body, { headers: HTML }), 'GET', 'br')
		const reader = response.body!.getReader()
		await reader.read()
		await reader.cancel()
		expect(state.cancelled).toBe(true)
		const pulls = state.pulls
		await new Promise((resolve) => setTimeout(resolve, 50))
		expect(state.pulls).toBe(pulls)
	})

	it('leaves tiny, binary, ranged, no-transform and already-encoded answers alone', async () => {
		const cases: Array<[string, Response]> = [
			['tiny', new Response('<p>hi</p>', { headers: HTML })],
			['binary', new Response(new Uint8Array(4096), { headers: { 'content-type': 'image/png' } })],
			[
				'ranged',
				new Response('x'.repeat(4096), { status: 206, headers: { ...HTML, 'content-range': 'bytes 0-4095/9000' } }),
			],
			['no-transform', new Response('x'.repeat(4096), { headers: { ...HTML, 'cache-control': 'no-transform' } })],
			['encoded', new Response('x'.repeat(4096), { headers: { ...HTML, 'content-encoding': 'gzip' } })],
		]
		for (const [name, response] of cases) {
			const out = await compressResponse(response, 'GET', 'gzip, br')
			expect(out.headers.get('content-encoding'), name).toBe(name === 'encoded' ? 'gzip' : null)
		}
	})

	it('compresses YAML (which mime-db does not list as compressible) and weakens its ETag', async () => {
		const out = await compressResponse(
			new Response('a: b\n'.repeat(500), { headers: { 'content-type': 'application/yaml', etag: '"v1"' } }),
			'GET',
			'gzip',
		)
		expect(out.headers.get('content-encoding')).toBe('gzip')
		expect(out.headers.get('etag')).toBe('W/"v1"')
		expect(out.headers.get('vary')).toBe('Accept-Encoding')
	})

	it('offers no byte ranges on what it compresses (ranges are of the stored bytes), and keeps them on what it leaves', async () => {
		const text = { 'content-type': 'text/plain', 'accept-ranges': 'bytes' }
		const compressed = await compressResponse(new Response('x '.repeat(2000), { headers: text }), 'GET', 'br')
		expect(compressed.headers.get('content-encoding')).toBe('br')
		expect(compressed.headers.get('accept-ranges')).toBeNull()
		const identity = await compressResponse(new Response('x '.repeat(2000), { headers: text }), 'GET', '')
		expect(identity.headers.get('accept-ranges')).toBe('bytes')
	})
})
