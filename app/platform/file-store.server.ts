import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Database } from '#db/client.ts'

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
	/** The body in order, a chunk at a time. */
	read(fileId: string): AsyncIterable<Uint8Array>
	/** Removes a body whose row is gone (a refused, cut off or abandoned hand-in's); no body is no error. */
	delete(fileId: string): Promise<void>
}

export class FileTooLarge extends Error {
	constructor(readonly maxBytes: number) {
		super(`file larger than ${maxBytes} bytes`)
	}
}

/** Bytes per stored chunk: a download holds one chunk in memory at a time, an upload at most two. */
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
		async *read(fileId) {
			for (let seq = 0; ; seq++) {
				const [chunk] = await db.orm
					.select({ data: c.data })
					.from(c)
					.where(and(eq(c.file_id, fileId), eq(c.seq, seq)))
					.limit(1)
				if (!chunk) return
				yield new Uint8Array(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength)
			}
		},
		async delete(fileId) {
			// Usually nothing is left: the row's deletion took its chunks (ON DELETE CASCADE).
			await db.orm.delete(c).where(eq(c.file_id, fileId))
		},
	}
}
