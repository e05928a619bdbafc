import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import { ARCHIVED_TABLES, personRecords, type Person, type PersonRecords } from '#db/data-rights.ts'
import type { Database } from '#db/client.ts'
import type { FileStore } from '#app/platform/file-store.server.ts'

/*
 * A learner's copy of everything the tenant holds about them (decision 0044), as one zip streamed
 * as it is written: README.txt, index.json (what each file holds, with counts and checksums),
 * tables/<table>.json, and files/<file id>/<name> for each handed-in file, its bytes as stored.
 * Nothing in it names anyone else: rows other people wrote about the learner keep their author's id only.
 */

const README = `This archive holds what this site keeps about you.

index.json          what each file below holds, with counts
tables/<name>.json  one file per database table that holds rows about you
files/<id>/<name>   the files you handed in, as you handed them in

Times are ISO 8601 in UTC. Ids of other people (a grader, an inviter) are given as ids only.
`

/** A stored file's place in the archive: its id keeps names unique, the name is the one stored (sanitized on upload). */
const archivePath = (file: { id: string; file_name: string }) =>
	`files/${file.id}/${file.file_name.replace(/[/\\]/g, '_') || 'file'}`

function indexOf(records: PersonRecords, generatedAt: Date) {
	return {
		format: 'lms-data-archive/1',
		generated_at: generatedAt.toISOString(),
		user_id: records.users[0].id,
		tenant_id: records.users[0].tenant_id,
		tables: Object.fromEntries(ARCHIVED_TABLES.map((t) => [t, { file: `tables/${t}.json`, rows: records[t].length }])),
		files: records.submission_files.map((f) => ({
			path: archivePath(f),
			submission_id: f.submission_id,
			size_bytes: f.size_bytes,
			sha256: f.sha256,
		})),
	}
}

const encoder = new TextEncoder()

/**
 * The zip's bytes, produced as the reader pulls (fflate's streaming Zip: one entry at a time, a
 * stored file read a chunk at a time), so a large archive is never whole in memory.
 */
async function* zipChunks(records: PersonRecords, store: FileStore, generatedAt: Date): AsyncGenerator<Uint8Array> {
	const out: Uint8Array[] = []
	let failure: Error | null = null
	const zip = new Zip((error, chunk) => {
		if (error) failure = error
		else out.push(chunk)
	})
	const drain = function* () {
		if (failure) throw failure
		while (out.length) yield out.shift()!
	}
	const text = (name: string, body: string) => {
		const entry = new ZipDeflate(name, { level: 6 })
		entry.mtime = generatedAt
		zip.add(entry)
		entry.push(encoder.encode(body), true)
	}
	text('README.txt', README)
	text('index.json', JSON.stringify(indexOf(records, generatedAt), null, 2))
	yield* drain()
	for (const table of ARCHIVED_TABLES) {
		text(`tables/${table}.json`, JSON.stringify(records[table], null, 2))
		yield* drain()
	}
	for (const file of records.submission_files) {
		// Stored as they are: handed-in files are mostly compressed already (PDF, images, zip).
		const entry = new ZipPassThrough(archivePath(file))
		entry.mtime = file.created_at
		zip.add(entry)
		for await (const piece of store.read(file.id)) {
			entry.push(piece)
			yield* drain()
		}
		entry.push(new Uint8Array(0), true)
		yield* drain()
	}
	zip.end()
	yield* drain()
}

/** The archive of one person of one tenant as a byte stream, or null when they are not a user of it. */
export async function dataArchive(db: Database, store: FileStore, who: Person, generatedAt = new Date()) {
	const records = await personRecords(db, who)
	if (!records) return null
	const chunks = zipChunks(records, store, generatedAt)
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			const { value, done } = await chunks.next()
			if (done) controller.close()
			else controller.enqueue(value)
		},
		async cancel() {
			await chunks.return(undefined)
		},
	})
}

/** The download's file name: the site and the day, never the person's name or address. */
const archiveFileName = (site: string, at: Date) => `${site}-my-data-${at.toISOString().slice(0, 10)}.zip`

/**
 * The person's archive as the download both pages answer (the person's own, decision 0044, and the
 * one an admin makes for them, 0063); null when the person is not there.
 */
export async function archiveDownload(db: Database, store: FileStore, who: Person, site: string) {
	const at = new Date()
	const body = await dataArchive(db, store, who, at)
	if (!body) return null
	return new Response(body, {
		headers: {
			'content-type': 'application/zip',
			'content-disposition': `attachment; filename="${archiveFileName(site, at)}"`,
			'x-content-type-options': 'nosniff',
			'cache-control': 'private, no-store',
		},
	})
}
