import { createHash } from 'node:crypto'
import { and, asc, eq, sql } from 'drizzle-orm'
import { preparedFor, type Database } from '#db/client.ts'

/**
 * Where hand-in file bodies live (decision 0027). The metadata (name, type, size, owner) is always
 * a row of submission_files; a store keeps only the bytes under the row's id, streamed in and out
 * so that no file is ever whole in memory. The database store is the default: it works for one
 * process and for many without a shared disk. An object store would implement the same three
 * methods.
 */
export interface FileStore {
	/** Streams a body in; throws FileTooLarge past `maxBytes` (the caller removes the row, and the bytes with it). */
	write(fileId: string, body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ size: number; sha256: string }>
	/**
	 * The body in order, a chunk at a time; with `range`, only its bytes `start` to `end` (inclusive,
	 * within the body), reading only the chunks that hold them. The next chunk is asked for while the
	 * caller handles the current one, so at most two are in memory.
	 */
	read(fileId: string, range?: ByteRange): AsyncIterable<Uint8Array>
	/** Removes a body whose row is gone (a refused, cut off or abandoned hand-in's); no body is no error. */
	delete(fileId: string): Promise<void>
}

export class FileTooLarge extends Error {
	constructor(readonly maxBytes: number) {
		super(`file larger than ${maxBytes} bytes`)
	}
}

/** Inclusive byte offsets, as in `Range: bytes=start-end`. */
export interface ByteRange {
	start: number
	end: number
}

/** Bytes per stored chunk (at least: a chunk ends with the upload piece that reaches it); a download or an upload holds at most two. */
const CHUNK_BYTES = 256 * 1024

/** The default store: chunks of at most CHUNK_BYTES in file_chunks, on either dialect. */
export function databaseFileStore(db: Database): FileStore {
	const c = db.t.file_chunks
	return {
		async write(fileId, body, maxBytes) {
			const hash = createHash('sha256')
			let size = 0
			let seq = 0
			let pending: Buffer[] = []
			let pendingBytes = 0
			const flush = async () => {
				if (pendingBytes === 0) return
				const data = Buffer.concat(pending, pendingBytes)
				pending = []
				pendingBytes = 0
				await db.orm.insert(c).values({ file_id: fileId, seq: seq++, data })
			}
			for await (const piece of body) {
				size += piece.byteLength
				if (size > maxBytes) throw new FileTooLarge(maxBytes)
				hash.update(piece)
				pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength))
				pendingBytes += piece.byteLength
				if (pendingBytes >= CHUNK_BYTES) await flush()
			}
			await flush()
			return { size, sha256: hash.digest('hex') }
		},
		async *read(fileId, range) {
			// The chunks to read, with the bytes to keep of each: all of them whole, or (a range) those
			// that overlap it, found from their lengths without reading their data.
			let plan: { seq: number; from: number; to: number }[] | null = null
			if (range) {
				plan = []
				let offset = 0
				for (const { seq, bytes } of await chunkLengths(db).execute({ fileId })) {
					const from = Math.max(range.start - offset, 0)
					const to = Math.min(range.end + 1 - offset, bytes)
					if (from < to) plan.push({ seq, from, to })
					offset += bytes
					if (offset > range.end) break
				}
			}
			const fetch = (i: number) => {
				const seq = plan ? plan[i]?.seq : i
				if (seq === undefined) return null
				return chunkAt(db)
					.execute({ fileId, seq })
					.then(([row]) => row?.data ?? null)
			}
			let next = fetch(0)
			// Never left unhandled while the caller writes: a failure is thrown where it is awaited.
			next?.catch(() => {})
			for (let i = 0; next; i++) {
				const data = await next
				if (!data) return
				next = fetch(i + 1)
				next?.catch(() => {})
				const part = plan ? plan[i]! : { from: 0, to: data.byteLength }
				yield new Uint8Array(data.buffer, data.byteOffset + part.from, part.to - part.from)
			}
		},
		async delete(fileId) {
			// Usually nothing is left: the row's deletion took its chunks (ON DELETE CASCADE).
			await db.orm.delete(c).where(eq(c.file_id, fileId))
		},
	}
}

/** One chunk's bytes (prepared: a download asks for one after the other). */
const chunkAt = preparedFor((db) => {
	const c = db.t.file_chunks
	return db.orm
		.select({ data: c.data })
		.from(c)
		.where(and(eq(c.file_id, sql.placeholder('fileId')), eq(c.seq, sql.placeholder('seq'))))
		.limit(1)
		.prepare('file_chunk_at')
})

/** The length of each chunk of a body, in order: where a range starts and ends (length() reads no chunk's data on either dialect). */
const chunkLengths = preparedFor((db) => {
	const c = db.t.file_chunks
	return db.orm
		.select({ seq: c.seq, bytes: sql<number>`length(${c.data})`.mapWith(Number) })
		.from(c)
		.where(eq(c.file_id, sql.placeholder('fileId')))
		.orderBy(asc(c.seq))
		.prepare('file_chunk_lengths')
})

/**
 * A body as a Response streams it, pulled: the store is asked for a chunk only when the reader (the
 * server, which waits for 'drain') asks for one, and highWaterMark 0 queues none in the stream.
 * (Readable.from and toWeb each read ahead, up to 16 chunks and their own queue, which held 4 MiB.)
 */
export function pulledStream(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
	const it = chunks[Symbol.asyncIterator]()
	return new ReadableStream(
		{
			async pull(controller) {
				const next = await it.next()
				if (next.done) controller.close()
				else controller.enqueue(next.value)
			},
			async cancel() {
				await it.return?.()
			},
		},
		{ highWaterMark: 0 },
	)
}
