/**
 * Hostile class: active content in a site's or course's media (decision 0049). An author can put
 * any file into their site's media; through the app it reaches everyone signed in at the tenant's
 * origin. Whatever its name, stored type or the spelling of its URL, a file that is not a raster
 * image, audio or video comes as an attachment of a type decided from its bytes, sandboxed and
 * never sniffed, through every asset route (inline, /download, resized, ranges, revalidation).
 * A draft course's files are not served at all.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'

const ACME = 'acme.localhost'
const SANDBOX = "default-src 'none'; sandbox"
const HTML = '<!doctype html><html><body><script>fetch("/admin")</script></body></html>'

/** Active files: [id, file, stored type, bytes]; site assets, and the same under a course (`c-` ids). */
const ACTIVE: [string, string, string, string | Buffer][] = [
	['evil-html', 'evil.html', 'text/html', HTML],
	['evil-html-charset', 'evil2.html', 'text/html; charset=utf-8', HTML],
	['evil-upper', 'EVIL.HTML', 'TEXT/HTML', HTML],
	['evil-svg', 'evil.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
	['evil-xhtml', 'evil.xhtml', 'application/xhtml+xml', `<html xmlns="http://www.w3.org/1999/xhtml">${HTML}</html>`],
	['evil-xml', 'evil.xml', 'text/xml', '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml"/>'],
	['evil-js', 'evil.js', 'text/javascript', 'alert(document.domain)'],
	['evil-png', 'evil.png', 'image/png', HTML],
	['evil-jpeg', 'evil.JPG', 'image/jpeg', HTML],
	['evil-mp4', 'evil.mp4', 'video/mp4', HTML],
	['evil-txt', 'evil.txt', 'text/plain', HTML],
	['evil-pdf', 'evil.pdf', 'application/pdf', `%PDF-1.4\n${HTML}`],
]

let png: Buffer
/** Raster images, audio: [id, file, stored type, type served]. */
const INLINE: [string, string, string, string][] = [
	['ok-png', 'ok.png', 'image/png', 'image/png'],
	['ok-jpeg', 'ok.jpg', 'image/jpeg', 'image/jpeg'],
	['ok-gif', 'ok.gif', 'image/gif', 'image/gif'],
	['ok-webp', 'ok.webp', 'image/webp', 'image/webp'],
	['ok-mislabelled', 'ok2.png', 'application/octet-stream', 'image/png'],
	['ok-mp3', 'ok.mp3', 'audio/mpeg', 'audio/mpeg'],
]

async function content() {
	const dir = mkdtempSync(join(tmpdir(), 'lms-active-'))
	cpSync(resolve('cms/content'), dir, { recursive: true })
	const assets = join(dir, 'acme/assets')
	const image = sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } })
	png = await image.clone().png().toBuffer()
	const bytes: Record<string, Buffer> = {
		'ok.png': png,
		'ok2.png': png,
		'ok.jpg': await image.clone().jpeg().toBuffer(),
		'ok.gif': await image.clone().gif().toBuffer(),
		'ok.webp': await image.clone().webp().toBuffer(),
		// An ID3 tag and an MPEG audio frame header.
		'ok.mp3': Buffer.concat([
			Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'),
			Buffer.from([0xff, 0xfb, 0x90, 0x44]),
			Buffer.alloc(400),
		]),
	}
	const index = JSON.parse(readFileSync(join(dir, 'acme/assets.json'), 'utf8'))
	for (const [id, file, contentType, body] of ACTIVE) {
		writeFileSync(join(assets, file), body)
		index.push({ id, file, contentType, filename: file })
		index.push({ id: `c-${id}`, file, contentType, filename: file, courseSlug: 'intro-to-web' })
	}
	for (const [id, file, contentType] of INLINE) {
		writeFileSync(join(assets, file), bytes[file]!)
		index.push({ id, file, contentType, filename: file })
	}
	index.push({
		id: 'draft-only',
		file: 'ok.png',
		contentType: 'image/png',
		filename: 'ok.png',
		courseSlug: 'draft-course',
	})
	index.push({
		id: 'draft-html',
		file: 'evil.html',
		contentType: 'text/html',
		filename: 'x.html',
		courseSlug: 'draft-course',
	})
	writeFileSync(join(dir, 'acme/assets.json'), JSON.stringify(index))
	return dir
}

/** Every route an asset is served by, in the plain spelling. */
const routes = (id: string) => [
	`/api/cms/site/assets/${id}`,
	`/api/cms/site/assets/${id}/download`,
	`/api/cms/site/assets/${id}?w=320`,
	`/api/cms/courses/intro-to-web/assets/c-${id}`,
	`/api/cms/courses/intro-to-web/assets/c-${id}/download`,
	`/api/cms/courses/intro-to-web/assets/c-${id}?w=640`,
]

/** Other spellings of the same asset: encoded, cased, extra segments, doubled slashes, queries. */
const spellings = (id: string) => [
	`/api/cms/site/assets/${encodeURIComponent(id).replace('-', '%2D')}`,
	`/api/cms/site/assets/${id.toUpperCase()}`,
	`/api/cms/site/assets/${id}/`,
	`/api/cms/site/assets/${id}/download/extra`,
	`/api/cms/site/assets/${id}/extra`,
	`/api/cms//site/assets/${id}`,
	`/api/cms/site/assets/./${id}`,
	`/api/cms/site/assets/x/../${id}`,
	`/api/cms/site/assets/${id}?download=1&w=320&w=320`,
	`/API/CMS/SITE/ASSETS/${id}`,
	`/api/cms/courses/INTRO-TO-WEB/assets/c-${id}`,
	`/api/cms/courses/intro-to-web/assets/c-${id}%2Fdownload`,
	`/es/api/cms/site/assets/${id}`,
]

describe.each(DIALECTS)('hostile active content in media on %s', (dialect) => {
	let stack: Stack
	let dir: string
	const hostile = hostileClass('active-media', dialect)
	beforeAll(async () => {
		dir = await content()
		stack = await startStack(dialect, {}, { cmsContentDir: dir })
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
		if (dir) rmSync(dir, { recursive: true, force: true })
	})

	const get = (path: string, headers: Record<string, string> = {}) => stack.request(ACME, path, { headers })
	type Answer = Awaited<ReturnType<typeof get>>
	/** What an answer with a body must be, unless it is an image or media: inert. */
	const inert = (res: Answer) => {
		const type = String(res.headers['content-type'] ?? '')
		const problems = [
			res.headers['x-content-type-options'] !== 'nosniff' && 'no nosniff',
			!String(res.headers['content-disposition'] ?? '').startsWith('attachment;') && 'not an attachment',
			res.headers['content-security-policy'] !== SANDBOX && `csp ${res.headers['content-security-policy']}`,
			/html|xml|svg|javascript|ecmascript|^image\/|^video\//i.test(type) && `type ${type}`,
		].filter(Boolean)
		return problems.join(', ')
	}

	it('serves every active file through every route as a sandboxed attachment, never sniffed', async () => {
		for (const [id] of ACTIVE) {
			for (const path of routes(id)) {
				for (const headers of [{}, { range: 'bytes=0-' }, { range: 'bytes=0-9' }, { accept: 'text/html' }] as Record<
					string,
					string
				>[]) {
					const res = await get(path, headers)
					const label = `${path} ${JSON.stringify(headers)}`
					hostile.check(`${label} answers`, [200, 206].includes(res.status), String(res.status))
					const problems = inert(res)
					hostile.check(label, problems === '', problems)
				}
			}
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('decides the type from the bytes: PDF and plain text keep theirs (as attachments), the rest is octet-stream', async () => {
		expect((await get('/api/cms/site/assets/evil-pdf')).headers['content-type']).toBe('application/pdf')
		// Stored as text: text it stays, never HTML (nosniff, sandboxed, an attachment).
		expect((await get('/api/cms/site/assets/evil-txt')).headers['content-type']).toBe('text/plain; charset=utf-8')
		for (const id of ['evil-html', 'evil-svg', 'evil-png', 'evil-upper', 'evil-html-charset'])
			expect((await get(`/api/cms/site/assets/${id}`)).headers['content-type'], id).toBe('application/octet-stream')
	})

	it('keeps a later part of a range, and a revalidation, inert', async () => {
		for (const [id, , stored] of ACTIVE) {
			const path = `/api/cms/site/assets/${id}`
			const part = await get(path, { range: 'bytes=5-20' })
			// A later part has no head to sniff: a stored video stays a video (to seek in), never a page.
			const expected =
				stored === 'video/mp4'
					? part.headers['content-type'] === 'video/mp4' && part.headers['x-content-type-options'] === 'nosniff'
					: inert(part) === ''
			hostile.check(`${path} part`, part.status === 206 && expected, `${part.status} ${inert(part)}`)
			const first = await get(path)
			const again = await get(path, { 'if-none-match': String(first.headers.etag) })
			hostile.check(
				`${path} 304`,
				again.status === 304 &&
					again.headers['content-security-policy'] === SANDBOX &&
					again.headers['x-content-type-options'] === 'nosniff' &&
					again.headers['content-type'] === undefined,
				`${again.status} ${JSON.stringify(again.headers)}`,
			)
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('refuses or serves inert every other spelling of an active file’s URL', async () => {
		for (const [id] of ACTIVE) {
			for (const path of spellings(id)) {
				const res = await get(path)
				const ok = [200, 206].includes(res.status) ? inert(res) === '' : res.status >= 300
				hostile.check(path, ok && res.headers['x-content-type-options'] === 'nosniff', `${res.status} ${inert(res)}`)
			}
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('keeps raster images and audio inline, with the type of their bytes', async () => {
		for (const [id, , , type] of INLINE) {
			for (const headers of [{}, { range: 'bytes=0-' }] as Record<string, string>[]) {
				const res = await get(`/api/cms/site/assets/${id}`, headers)
				expect([200, 206], id).toContain(res.status)
				expect(res.headers['content-type'], id).toBe(type)
				expect(res.headers['content-disposition'], id).toBeUndefined()
				expect(res.headers['x-content-type-options'], id).toBe('nosniff')
			}
			const download = await get(`/api/cms/site/assets/${id}/download`)
			expect(download.headers['content-disposition']).toMatch(/^attachment; filename="ok2?\.\w+"/)
			expect(download.headers['content-security-policy']).toBe(SANDBOX)
		}
		// Audio seeks: a later part keeps its stored type, inline.
		const part = await get('/api/cms/site/assets/ok-mp3', { range: 'bytes=100-199' })
		expect(part.status).toBe(206)
		expect(part.headers['content-type']).toBe('audio/mpeg')
		expect(part.headers['content-disposition']).toBeUndefined()
		const resized = await get('/api/cms/site/assets/ok-png?w=320')
		expect(resized.headers['content-type']).toBe('image/png')
		expect(resized.body.equals(png)).toBe(true)
	})

	it("answers 404 for a draft course's files, on every route and spelling", async () => {
		for (const id of ['draft-only', 'draft-html']) {
			for (const path of [
				`/api/cms/courses/draft-course/assets/${id}`,
				`/api/cms/courses/draft-course/assets/${id}/download`,
				`/api/cms/courses/draft-course/assets/${id}?w=320`,
				`/api/cms/courses/DRAFT-COURSE/assets/${id}`,
				`/api/cms/courses/intro-to-web/assets/${id}`,
				`/api/cms/site/assets/${id}`,
				`/api/cms/site/assets/${id}/download`,
			]) {
				const res = await get(path)
				hostile.check(path, res.status === 404 || (res.status >= 300 && res.status < 400), String(res.status))
			}
		}
		expect(hostile.newFailures()).toEqual([])
	})
})
