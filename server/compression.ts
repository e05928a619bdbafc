import { once } from 'node:events'
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib'
import compressible from 'compressible'
import Negotiator from 'negotiator'
import { memoizeByString } from '#app/platform/memo.ts'

export type Encoding = 'br' | 'gzip' | 'identity'

const OFFERED: Encoding[] = ['br', 'gzip', 'identity']

/**
 * The encoding to answer in for an Accept-Encoding header: q-values and `*`
 * honoured, brotli first among equals. A header that refuses everything
 * (`identity;q=0` alone) still gets identity: a readable answer beats a 406.
 */
export const negotiateEncoding = memoizeByString((header): Encoding => {
	const negotiator = new Negotiator({ headers: { 'accept-encoding': header } })
	// negotiator 1.x takes `preferred` (ties go to brotli, not to the header's order); its types predate it.
	const encoding = negotiator.encoding as (
		available: Encoding[],
		options: { preferred: Encoding[] },
	) => Encoding | undefined
	return encoding.call(negotiator, OFFERED, { preferred: OFFERED }) ?? 'identity'
})

// Below this a compressed body saves less than its framing costs.
const MIN_BYTES = 1024

// YAML and NDJSON are text, but mime-db does not mark them compressible.
const TEXT_TYPES = /^\s*(?:application\/(?:yaml|x-yaml|x-ndjson)|text\/yaml)\s*(?:;|$)/i

function isCompressibleType(contentType: string | null) {
	return !!contentType && (TEXT_TYPES.test(contentType) || compressible(contentType) === true)
}

/**
 * The answer as it goes on the wire: compressed on the fly when the client
 * accepts it and the body is text of at least 1 KB. A body that is all there
 * at once (most pages: React renders them in one go) is compressed in one
 * call on this thread, with its length declared; a stream compressor's work
 * goes to the thread pool a write, a flush and an end at a time, and those
 * round trips cost a page more than compressing it did (decision 0107).
 * Streaming is kept for a body that pauses (a suspended render): its
 * compressor is flushed whenever it pauses, not after every chunk, so a page's
 * shell reaches the browser before its end without costing the ratio of a
 * flush per write.
 */
export async function compressResponse(
	response: Response,
	method: string | undefined,
	acceptEncoding: string | undefined,
): Promise<Response> {
	const { headers, status } = response
	if (!response.body || method === 'HEAD' || status === 204 || status === 206 || status === 304) return response
	if (
		headers.has('content-encoding') ||
		headers.has('content-range') ||
		!isCompressibleType(headers.get('content-type'))
	)
		return response
	if (/\bno-transform\b/i.test(headers.get('cache-control') ?? '')) return response
	// Caches must keep one copy per encoding of anything that may be compressed.
	headers.append('vary', 'Accept-Encoding')
	const encoding = negotiateEncoding(acceptEncoding ?? '')
	if (encoding === 'identity') return response
	const declared = headers.get('content-length')
	if (declared !== null && Number(declared) < MIN_BYTES) return response

	const { head, size, done, reader } = await peek(response.body, MIN_BYTES)
	if (done && size < MIN_BYTES) return new Response(replay(head, null), { status, headers })
	const read = done ? { done, size, pending: undefined } : await readOn(reader, head, size)

	headers.delete('content-length')
	headers.set('content-encoding', encoding)
	// Ranges are of the bytes as stored (decision 0083), not of this encoding: none offered on it.
	headers.delete('accept-ranges')
	// Another representation of the same resource: no longer byte-for-byte the tagged one.
	const etag = headers.get('etag')
	if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`)
	if (read.done) {
		const whole = Buffer.concat(head, read.size)
		const body = encoding === 'br' ? brotliCompressSync(whole, BROTLI) : gzipSync(whole, GZIP)
		headers.set('content-length', String(body.byteLength))
		return new Response(body, { status, headers })
	}
	return new Response(compressStream(replay(head, reader, read.pending), encoding), { status, headers })
}

const PAUSED = Symbol('paused')
/** What is compressed in one call at most: a page; a longer body (an export, a file) is streamed. */
const WHOLE_MAX_BYTES = 256 * 1024

/**
 * Reads on while the next chunk is already there (it arrives before a check of the event loop):
 * to the end of the body, to its first pause, whose pending read is handed on, or to WHOLE_MAX_BYTES.
 */
async function readOn(reader: ReadableStreamDefaultReader<Uint8Array>, head: Uint8Array[], size: number) {
	while (size <= WHOLE_MAX_BYTES) {
		const next = reader.read()
		const read = await Promise.race([next, new Promise<typeof PAUSED>((r) => setImmediate(r, PAUSED))])
		if (read === PAUSED) return { done: false as const, size, pending: next }
		if (read.done) return { done: true as const, size, pending: undefined }
		head.push(read.value)
		size += read.value.byteLength
	}
	return { done: false as const, size, pending: undefined }
}

/** Reads until `limit` bytes or the end, whichever comes first. */
async function peek(body: ReadableStream<Uint8Array>, limit: number) {
	const reader = body.getReader()
	const head: Uint8Array[] = []
	let size = 0
	while (size < limit) {
		const { done, value } = await reader.read()
		if (done) return { head, size, done: true, reader }
		head.push(value)
		size += value.byteLength
	}
	return { head, size, done: false, reader }
}

/** The peeked chunks, then the rest of the body (starting with a read already asked for). */
function replay(
	head: Uint8Array[],
	reader: ReadableStreamDefaultReader<Uint8Array> | null,
	pending?: Promise<ReadableStreamReadResult<Uint8Array>>,
) {
	return new ReadableStream<Uint8Array>({
		start(controller) {
			for (const chunk of head) controller.enqueue(chunk)
			if (!reader) controller.close()
		},
		async pull(controller) {
			const { done, value } = await (pending ?? reader!.read())
			pending = undefined
			if (done) controller.close()
			else controller.enqueue(value)
		},
		cancel: (reason) => reader?.cancel(reason),
	})
}

// Brotli 5 and gzip 6, chosen by measurement (decision 0102, bench/compression-levels.ts): brotli 5
// costs what 4 did and sends 8 % fewer bytes; 6 and 7 cost more for nothing, 9 and up cost more than
// the page. The page cache and the build compress at the top levels once instead. A 256 KB window
// (brotli's default is 4 MB) holds any page we render, and allocating the default window per
// response cost more than compressing the page did.
const BROTLI = {
	params: {
		[constants.BROTLI_PARAM_QUALITY]: 5,
		[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
		[constants.BROTLI_PARAM_LGWIN]: 18,
	},
}
const GZIP = { level: 6 }

function compressStream(body: ReadableStream<Uint8Array>, encoding: 'br' | 'gzip') {
	const zip = encoding === 'br' ? createBrotliCompress(BROTLI) : createGzip(GZIP)
	const reader = body.getReader()
	let cancelled = false
	let idle: NodeJS.Immediate | undefined
	let wake: (() => void) | undefined
	// The body is read in this loop and written to the compressor, whose output is queued for the
	// client as it comes: no conversion between web and Node streams on either side.
	async function pump(controller: ReadableStreamDefaultController<Uint8Array>) {
		try {
			for (;;) {
				// A slow client holds the render back instead of letting its answer pile up here.
				while (!cancelled && (controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (wake = resolve))
				if (cancelled) return
				const { done, value } = await reader.read()
				clearImmediate(idle)
				if (done) break
				if (!zip.write(value)) await once(zip, 'drain')
				// Chunks that are already there arrive before the check runs; only a real pause flushes.
				idle = setImmediate(() => zip.flush())
			}
			zip.end()
		} catch (error) {
			zip.destroy(error as Error)
		}
	}
	return new ReadableStream<Uint8Array>({
		start(controller) {
			zip.on(
				'data',
				(chunk: Buffer) =>
					cancelled || controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
			)
			zip.on('end', () => cancelled || controller.close())
			zip.on('error', (error) => cancelled || controller.error(error))
			void pump(controller)
		},
		pull() {
			wake?.()
		},
		// The client went away: stop the render and the compressor.
		cancel(reason) {
			cancelled = true
			clearImmediate(idle)
			// With an error, so a write waiting for 'drain' ends instead of waiting forever.
			zip.destroy(new Error('The client went away'))
			wake?.()
			return reader.cancel(reason)
		},
	})
}
