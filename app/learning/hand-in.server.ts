import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import { fileTypeFromBuffer } from 'file-type'
import type { RequestContext } from '#app/context.ts'
import { newId } from '#db/ids.ts'
import type { Scope } from '#db/learning.ts'
import { createFileRow, deleteStaleUnclaimedFiles, deleteUnclaimedFiles, finishFileRow } from '#db/submissions.ts'
import type { HandInFileType } from '../content/content.ts'
import { databaseFileStore, FileTooLarge, type FileStore } from '../platform/file-store.server.ts'
import { readForm } from '../platform/forms.server.ts'
import { isUtf8Text, SNIFF_BYTES } from '../platform/served-files.server.ts'
import { notAForm } from '../platform/errors.ts'
import { HAND_IN_LIMITS, isMultipart } from './hand-in-limits.ts'
import { describeError, log } from '../platform/log.server.ts'

// A hand-in file's row for the file route (which checks who may see it), as the repository reads it.
export { findSubmissionFile } from '#db/submissions.ts'

/** The type a download is served with: ours, from the checked extension, never the browser's. */
const SERVED_TYPES: Record<HandInFileType, string> = {
	pdf: 'application/pdf',
	png: 'image/png',
	jpg: 'image/jpeg',
	webp: 'image/webp',
	txt: 'text/plain; charset=utf-8',
	md: 'text/markdown; charset=utf-8',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	zip: 'application/zip',
}

/** What file-type must find in the bytes for each extension; text types must be UTF-8 with no detected type. */
const SIGNATURES: Record<HandInFileType, string[] | 'text'> = {
	pdf: ['pdf'],
	png: ['png'],
	jpg: ['jpg'],
	webp: ['webp'],
	txt: 'text',
	md: 'text',
	// A .docx is a zip whose type file-type tells apart only when its manifest comes early.
	docx: ['docx', 'zip'],
	zip: ['zip'],
}

export type FileProblem = 'typeNotAllowed' | 'typeMismatch' | 'empty' | 'tooLarge' | 'tooMany'

export interface HandInForm {
	/** The text fields, as a FormData for parseWithZod. */
	form: FormData
	/** Ids of the files stored for this request, not yet claimed by a submission. */
	fileIds: string[]
	/** Files refused, by sanitized name: the form shows them beside the file field. */
	problems: { fileName: string; problem: FileProblem }[]
}

export function fileStore(ctx: Pick<RequestContext, 'db'>): FileStore {
	return databaseFileStore(ctx.db)
}

/**
 * A file name safe to store and to put in a Content-Disposition header: the last path segment,
 * NFC, no control or path characters, at most 120 characters with the extension kept.
 */
export function sanitizeFileName(raw: string) {
	const base = raw.normalize('NFC').split(/[/\\]/).pop() ?? ''
	const cleaned = base
		.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
		.replace(/[<>:"|?*;%]/g, '_')
		.replace(/\s+/g, ' ')
		.replace(/^[\s.]+|[\s.]+$/g, '')
	if (cleaned.length <= 120) return cleaned || 'file'
	const dot = cleaned.lastIndexOf('.')
	const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : ''
	return cleaned.slice(0, 120 - ext.length) + ext
}

/** The hand-in type a name claims: its lower-cased extension (jpeg counts as jpg), or null. */
export function claimedType(fileName: string): HandInFileType | null {
	const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase()
	const type = ext === 'jpeg' ? 'jpg' : ext
	return type && type in SIGNATURES ? (type as HandInFileType) : null
}

/** Whether the first bytes of a file are what its extension claims. */
export async function bytesMatch(type: HandInFileType, head: Uint8Array) {
	const detected = await fileTypeFromBuffer(head)
	const expected = SIGNATURES[type]
	if (expected !== 'text') return detected !== undefined && expected.includes(detected.ext)
	return detected === undefined && isUtf8Text(head)
}

/**
 * Reads a hand-in form as it streams in. Text fields are kept (each at most 64 KiB); each file is
 * checked as soon as its first bytes arrive — extension allowed, bytes matching it — and then
 * streamed into the file store, never whole in memory. A refused file's bytes are drained and
 * dropped. On any failure the files already stored for the request are removed. A body that is
 * not a well-formed form throws the same 400 as readForm; a client that goes away mid-body
 * (request.signal) ends the reading at once, with the abort's reason.
 */
export async function readHandIn(
	ctx: RequestContext,
	scope: Scope,
	request: Request,
	allowed: readonly HandInFileType[],
): Promise<HandInForm> {
	const contentType = request.headers.get('content-type') ?? ''
	if (!isMultipart(contentType)) {
		// A form without files (a test client, a hand-in of text only): nothing to stream.
		const form = await readForm(request)
		for (const [, value] of form) if (typeof value !== 'string') throw notAForm()
		return { form, fileIds: [], problems: [] }
	}
	const store = fileStore(ctx)
	const form = new FormData()
	const fileIds: string[] = []
	const problems: HandInForm['problems'] = []
	const work: Promise<void>[] = []
	const parser = handInParser(contentType)
	// The first file that fails for our reasons (the database refusing a write, the store failing)
	// stops the reading: the rest of the body is not taken in for nothing.
	const { stop, stopped, release } = readingStopper(ctx, request)
	let storeFailure: { error: unknown } | null = null
	parser.on('field', (name, value) => form.append(name, value))
	parser.on('filesLimit', () => problems.push({ fileName: '', problem: 'tooMany' }))
	parser.on('file', (_name, stream, info) => {
		const fileName = sanitizeFileName(info.filename ?? '')
		// An empty file input still sends a part with no name and no bytes: it is no file.
		if (!info.filename) {
			stream.resume()
			return
		}
		// Handled where it is made: a failure while the body is still arriving must not wait for the
		// end of the body to be seen (an unhandled rejection ends the process).
		work.push(
			storeUpload(ctx, scope, store, stream, fileName, allowed, fileIds).then(
				(outcome) => {
					if (typeof outcome === 'string') problems.push({ fileName, problem: outcome })
				},
				(error: unknown) => {
					// A part the parser destroyed (a broken form, the client gone) is the form's failure, told by
					// the pipeline; a part still whole, or read to its end (its row's last write failed), failed in the store.
					if (!stream.destroyed || stream.readableEnded) storeFailure ??= { error }
					stop.abort(error)
				},
			),
		)
	})

	const body = request.body ? Readable.fromWeb(request.body as never) : Readable.from([])
	const workEnded = (ms: number) => allEnded(work, stopped, ms)
	try {
		// A failure anywhere (a broken form, the client gone, a file the store failed) destroys the body
		// and the parser, and the parser the file parts being stored, so every storeUpload ends and cleans up.
		await pipeline(body, parser, { signal: stop.signal })
		if (!(await workEnded(0))) throw storeTimeout()
		if (storeFailure) throw (storeFailure as { error: unknown }).error
	} catch (error) {
		// A file whose store never answers is our failure too: its promise is handled, and left behind.
		if (!(await workEnded(WORK_GRACE_MS))) storeFailure ??= { error: storeTimeout() }
		// Not waited for when the store failed: the database may not answer, and the 503 should not wait
		// for it (discardFiles bounds and retries itself; the sweep takes what it leaves). It is work the
		// request leaves, though: a drain lets it finish before the pool is closed.
		const discarded = discardFiles(ctx, scope, fileIds)
		if (!storeFailure) await discarded
		else ctx.holdDrain(discarded)
		// Nobody is left to answer; React Router does not report an aborted request's error.
		if (request.signal.aborted) throw request.signal.reason ?? error
		// Our failure, not the form's: the database's error answers (503 while it is out of reach).
		if (storeFailure) throw (storeFailure as { error: unknown }).error
		throw notAForm()
	} finally {
		release()
	}
	if (problems.length > 0) {
		await discardFiles(ctx, scope, fileIds)
		return { form, fileIds: [], problems }
	}
	return { form, fileIds, problems }
}

/** busboy for one hand-in's body, within HAND_IN_LIMITS; a content type it cannot read is not a form (400). */
function handInParser(contentType: string) {
	try {
		return busboy({
			headers: { 'content-type': contentType },
			// Browsers send file names as UTF-8 bytes; busboy would read them as Latin-1.
			defParamCharset: 'utf8',
			limits: {
				files: HAND_IN_LIMITS.maxFiles,
				// busboy marks a file truncated once it reaches the limit, so a file of exactly
				// maxFileBytes would count as too large: one byte more is what it must see.
				fileSize: HAND_IN_LIMITS.maxFileBytes + 1,
				fields: 20,
				fieldSize: 64 * 1024,
				parts: 30,
			},
		})
	} catch {
		throw notAForm()
	}
}

/**
 * What stops a hand-in's reading besides a failure of its own: the client going away and the body's
 * deadline. `stopped` settles when the reading is stopped; `release` removes the listener and the timer.
 */
function readingStopper(ctx: Pick<RequestContext, 'env'>, request: Request) {
	const stop = new AbortController()
	// Not by AbortSignal.any: it keeps every signal it was given alive as long as the one it makes.
	const onClientGone = () => stop.abort(request.signal.reason)
	request.signal.addEventListener('abort', onClientGone, { once: true })
	// The whole reading within the body's deadline, the store's writes included: a statement sent as
	// PostgreSQL went away may never be answered, and the learner must still get one.
	const deadline = setTimeout(() => stop.abort(new Error('hand-in deadline')), ctx.env.HAND_IN_BODY_SECONDS * 1000)
	deadline.unref()
	const stopped = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }))
	const release = () => {
		clearTimeout(deadline)
		request.signal.removeEventListener('abort', onClientGone)
	}
	return { stop, stopped, release }
}

/** Whether every file's work ended, waiting at most until the reading is stopped and `ms` more. */
function allEnded(work: Promise<void>[], stopped: Promise<void>, ms: number) {
	const all = Promise.all(work).then(() => true)
	const late = stopped.then(() => new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref()))
	return Promise.race([all, late])
}

/** How long the files' work may take to end once the reading is stopped (their parts are destroyed then). */
const WORK_GRACE_MS = 2_000

/** The store did not answer in time: answered as the database out of reach (503, db/client.ts's ETIMEDOUT). */
function storeTimeout() {
	return Object.assign(new Error('the file store did not answer in time'), { code: 'ETIMEDOUT' })
}

/**
 * Removes files no submission claimed: their rows, then their bodies from the file store. Never
 * throws: a removal the database refuses now is left to the sweep (removeAbandonedFiles), so that
 * the hand-in's own answer (a refusal, the database's 503) is the one given.
 */
export async function discardFiles(ctx: Pick<RequestContext, 'db'>, scope: Scope, ids: string[]) {
	if (ids.length === 0) return
	const store = fileStore(ctx)
	// Bounded: a statement sent as the database went away may never be answered, and the hand-in's
	// answer waits for this.
	const remove = () =>
		withDeadline(
			(async () => {
				for (const id of await deleteUnclaimedFiles(ctx.db, scope, ids)) await store.delete(id)
			})(),
			DISCARD_DEADLINE_MS,
		)
	try {
		await remove()
	} catch (error) {
		log.warn('hand-in/discard-failed', { files: ids.length, error: describeError(error) })
		retryLater(remove, DISCARD_RETRIES_MS)
	}
}

/** How long one attempt at removing a failed hand-in's files may take (a lock wait is 3 s on PostgreSQL, 5 s on SQLite). */
const DISCARD_DEADLINE_MS = 6_000
/** When a removal the database refused is tried again (an outage or a lock usually ends within these). */
const DISCARD_RETRIES_MS = [1_000, 2_000, 4_000, 8_000]

/** Tries `work` again after each delay until it succeeds, off the request; the last failure is logged. */
function retryLater(work: () => Promise<void>, delays: number[]) {
	const [delay, ...rest] = delays
	if (delay === undefined) return
	setTimeout(() => {
		work().catch((error: unknown) => {
			if (rest.length > 0) return retryLater(work, rest)
			log.warn('hand-in/discard-given-up', { error: describeError(error) })
		})
	}, delay).unref()
}

/** `work`, or an error once `ms` have passed; a late failure of `work` is nobody's (it is dropped, not unhandled). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
	work.catch(() => {})
	let timer: NodeJS.Timeout | undefined
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
		timer.unref()
	})
	return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/** How long a file may stay unclaimed before the job below takes it: longer than any hand-in's body deadline (HAND_IN_BODY_SECONDS, at most 30 minutes). */
const UNCLAIMED_TTL_MS = 60 * 60_000

/**
 * Removes files left unclaimed for longer than `graceMs`, in any tenant: those of hand-ins whose own
 * clean-up never ran (the process was killed mid-upload, the database failed during the clean-up and
 * its retries). A file still arriving is never that old: a hand-in's body has a deadline shorter than
 * the grace (decision 0034). Run by each process at start and periodically (server/file-sweep.ts),
 * and as a job (files.removeAbandoned) each new hand-in leaves. Answers how many were removed.
 */
export async function removeAbandonedFiles(
	ctx: Pick<RequestContext, 'db'>,
	graceMs = UNCLAIMED_TTL_MS,
	now = Date.now(),
) {
	const store = fileStore(ctx)
	let removed = 0
	// In batches of 100, so that one sweep after a long outage does not hold one long statement.
	for (let batch = 0; batch < 50; batch++) {
		const ids = await deleteStaleUnclaimedFiles(ctx.db, new Date(now - graceMs))
		for (const id of ids) await store.delete(id)
		removed += ids.length
		if (ids.length < 100) break
	}
	return removed
}

/** One file: checked on its first bytes, then streamed into the store. Answers its id, or why it was refused. */
async function storeUpload(
	ctx: RequestContext,
	scope: Scope,
	store: FileStore,
	stream: Readable & { truncated?: boolean },
	fileName: string,
	allowed: readonly HandInFileType[],
	fileIds: string[],
): Promise<{ id: string } | FileProblem> {
	// Every read goes through this one iterator, the rest of a refused file included: once an iterator
	// listens for 'readable', Node ignores resume(), so busboy (and the whole form) would wait forever
	// for a reader of a file larger than its buffers.
	const pieces = stream[Symbol.asyncIterator]()
	const refuse = async (problem: FileProblem) => {
		await drain(pieces)
		return problem
	}
	const type = claimedType(fileName)
	if (!type || !allowed.includes(type)) return refuse('typeNotAllowed')
	const head: Buffer[] = []
	let headBytes = 0
	let ended = false
	while (headBytes < SNIFF_BYTES) {
		const next = await pieces.next()
		if (next.done) {
			ended = true
			break
		}
		head.push(next.value as Buffer)
		headBytes += (next.value as Buffer).byteLength
	}
	if (headBytes === 0) return refuse('empty')
	const first = Buffer.concat(head)
	if (!(await bytesMatch(type, first.subarray(0, SNIFF_BYTES)))) return refuse('typeMismatch')
	const id = newId()
	// The request's before its row is written: an insert whose answer was lost (the connection cut) may
	// still have stored the row, and whatever ends the reading removes it with the others.
	fileIds.push(id)
	await createFileRow(ctx.db, scope, { id, fileName, contentType: SERVED_TYPES[type] })
	async function* all() {
		yield first
		if (!ended) for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value as Buffer
	}
	try {
		const { size, sha256 } = await store.write(id, all(), HAND_IN_LIMITS.maxFileBytes)
		// busboy stops one byte past the limit and marks the stream truncated rather than failing it (store.write
		// refuses that byte first; this is the rule should a store ever take more).
		if (stream.truncated) throw new FileTooLarge(HAND_IN_LIMITS.maxFileBytes)
		await finishFileRow(ctx.db, id, size, sha256)
		return { id }
	} catch (error) {
		// Any other failure ends the reading of the whole form, which removes this file with the others.
		if (!(error instanceof FileTooLarge)) throw error
		// The rest of the part first (drain never throws), so the form goes on.
		await drain(pieces)
		fileIds.splice(fileIds.indexOf(id), 1)
		await discardFiles(ctx, scope, [id])
		return 'tooLarge'
	}
}

/** Reads what is left of a file part and drops it; a part that failed (the form was cut) has nothing left. */
async function drain(pieces: AsyncIterator<unknown>) {
	try {
		while (!(await pieces.next()).done);
	} catch {
		// The parser failed or was destroyed: readHandIn answers for the form.
	}
}
