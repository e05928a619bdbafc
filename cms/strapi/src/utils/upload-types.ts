/**
 * What the media library takes (decision 0049): only the types content needs, decided from the
 * file's bytes, never from its name or the type the browser declared. By default raster images,
 * PDF, audio, video and plain text; CMS_UPLOAD_TYPES (comma-separated MIME types, `audio/*` for a
 * whole kind) says otherwise. A file's extension must name an allowed type of the same kind as
 * its bytes, since Strapi's own /uploads/ serves a file by its extension. Markup (HTML, SVG, XML)
 * is never plain text. The upload service is wrapped, so every way in (the admin's uploads and
 * replacements, uploads from URLs, the content API, the seed) is checked; one refused file
 * refuses the whole request with a 400 naming it, and a file that passes is stored with the type
 * its bytes have.
 */
import { errors } from '@strapi/utils'
import { lookup } from 'mime-types'
import fs from 'node:fs/promises'
import path from 'node:path'

const DEFAULT_TYPES = 'image/png,image/jpeg,image/gif,image/webp,image/avif,application/pdf,audio/*,video/*,text/plain'
const SNIFF_BYTES = 4100
const PATTERN = /^[a-z]+\/(?:\*|[a-z0-9][a-z0-9.+-]*)$/

/** An uploaded file as the upload service is given it (formidable's, or the seed's). */
type UploadedFile = {
	filepath?: string
	path?: string
	originalFilename?: string
	name?: string
	mimetype?: string
	detectedMimeType?: string
}
type Input = { files?: UploadedFile | UploadedFile[] | null; file?: UploadedFile | null } | null | undefined
type UploadService = {
	upload(input: Input, opts?: unknown): Promise<unknown>
	replace(id: unknown, input: Input, opts?: unknown): Promise<unknown>
}
/** The upload plugin as its strapi-server extension is given it: its service factories. */
export type UploadPlugin = { services: { upload: (deps: unknown) => UploadService } }

/** The allowed types: CMS_UPLOAD_TYPES, else the default; a malformed entry stops the start. */
export function allowedTypes(env: Record<string, string | undefined> = process.env) {
	const list = (env.CMS_UPLOAD_TYPES || DEFAULT_TYPES)
		.split(',')
		.map((t) => t.trim().toLowerCase())
		.filter(Boolean)
	const bad = list.find((t) => !PATTERN.test(t))
	if (bad) throw new Error(`CMS_UPLOAD_TYPES: "${bad}" is not a MIME type or type/*`)
	return list
}

const allows = (list: string[], type: string) =>
	list.some((t) => t === type || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))))
const kind = (type: string) => type.split('/')[0]

async function readHead(filepath: string) {
	const handle = await fs.open(filepath, 'r')
	try {
		const buffer = Buffer.alloc(SNIFF_BYTES)
		const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0)
		return buffer.subarray(0, bytesRead)
	} finally {
		await handle.close()
	}
}

/** UTF-8 without NUL whose first character (after a BOM and blanks) does not open markup. */
function isPlainText(head: Buffer) {
	if (!head.length || head.includes(0)) return false
	let text
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
	} catch {
		return false
	}
	return !text
		.replace(/^\uFEFF/, '')
		.trimStart()
		.startsWith('<')
}

/** The type the bytes of an uploaded file have, or null when they are none we know. */
async function sniff(file: UploadedFile) {
	const filepath = file.filepath ?? file.path
	if (!filepath) return null
	const head = await readHead(filepath)
	// file-type is ESM only; compiled to CommonJS this is a require(), which Node (>= 20.19) loads.
	const { fileTypeFromBuffer } = await import('file-type')
	const found = await fileTypeFromBuffer(new Uint8Array(head))
	if (found) return found.mime
	return isPlainText(head) ? 'text/plain' : null
}

/** Checks one file; on success its declared type becomes the sniffed one. */
async function checkFile(file: UploadedFile, list: string[]) {
	const name = String(file.originalFilename ?? file.name ?? 'file')
	const refuse = (why: string): never => {
		throw new errors.ValidationError(`${name}: ${why}`, { fileName: name, allowedTypes: list })
	}
	const type = await sniff(file)
	if (!type || !allows(list, type))
		return refuse(`this type of file is not accepted (${type ?? 'unknown content'}); allowed: ${list.join(', ')}`)
	const ext = path.extname(name).toLowerCase()
	const named = ext ? lookup(ext) || null : type
	if (!named || !allows(list, named) || kind(named) !== kind(type))
		refuse(`the name's extension (${ext}) does not match the file's content (${type})`)
	file.mimetype = type
	file.detectedMimeType = type
}

/** Wraps the upload plugin's upload service (src/extensions/upload/strapi-server.ts). */
export function guardUploadTypes<P extends UploadPlugin>(plugin: P): P {
	const list = allowedTypes()
	const factory = plugin.services.upload
	plugin.services.upload = (deps) => {
		const service = factory(deps)
		const check = async (files: UploadedFile | UploadedFile[] | null | undefined) => {
			for (const file of [files].flat().filter((f): f is UploadedFile => Boolean(f))) await checkFile(file, list)
		}
		return {
			...service,
			async upload(input, opts) {
				await check(input?.files)
				return service.upload(input, opts)
			},
			async replace(id, input, opts) {
				await check(input?.file)
				return service.replace(id, input, opts)
			},
		}
	}
	return plugin
}
