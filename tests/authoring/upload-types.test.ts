import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { STRAPI_URL, strapiAdmin, type StrapiAdmin } from '#tests/support/strapi.ts'

// The media library takes only what content needs (raster images, PDF, audio, video, plain text),
// decided from the bytes: a name, an extension or a declared type never lets markup in
// (cms/strapi/src/utils/upload-types.ts, decision 0049). Strapi's own /uploads/ never runs a file.
const HTML = Buffer.from('<!doctype html><html><body><script>fetch("/admin/users/me")</script></body></html>')
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><rect/></svg>')
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

describe('upload types, by their bytes', () => {
	let acme: StrapiAdmin
	let folder: number
	let png: Buffer
	const stamp = Date.now()
	const named = (name: string) => `t${stamp}-${name}`

	beforeAll(async () => {
		png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
			.png()
			.toBuffer()
		acme = await strapiAdmin('author@acme.test')
		folder = await acme.folder(`types-${stamp}`, await acme.folder('acme', null))
	})

	/** The names of the files stored in the test's folder. */
	const stored = async () => {
		const res = await acme.call('GET', `/upload/files?pageSize=100&filters[name][$contains]=t${stamp}-`)
		return ((res.body.results ?? []) as any[]).map((f) => f.name as string).sort()
	}

	const refused: [string, string, Buffer][] = [
		['page.html', 'text/html', HTML],
		['page.HTM', 'text/html; charset=utf-8', HTML],
		['logo.svg', 'image/svg+xml', SVG],
		['logo.SVG', 'application/octet-stream', SVG],
		['page.xhtml', 'application/xhtml+xml', HTML],
		['feed.xml', 'text/xml', Buffer.from('<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml"/>')],
		['app.js', 'text/javascript', Buffer.from('alert(document.domain)')],
		// Markup renamed as an image, and with a spoofed image type.
		['photo.png', 'image/png', HTML],
		['photo.PNG', 'image/png', SVG],
		['photo.jpg', 'image/jpeg', HTML],
		['page.html', 'image/png', HTML],
		// Markup as plain text.
		['notes.txt', 'text/plain', HTML],
	]

	it.each(refused)('refuses %s sent as %s with a 400 that names it, and stores nothing', async (name, type, bytes) => {
		const res = await acme.upload(named(name), bytes, type, folder)
		expect(res.status, JSON.stringify(res.body)).toBe(400)
		expect(res.body.error).toMatchObject({ status: 400, name: 'ValidationError' })
		expect(res.body.error.message).toContain(named(name))
		expect(await stored()).toEqual([])
	})

	it("refuses a real PNG behind an active extension (Strapi's /uploads/ serves by extension)", async () => {
		for (const name of ['real.html', 'real.svg', 'real.js', 'real.xml'])
			expect((await acme.upload(named(name), png, 'image/png', folder)).status, name).toBe(400)
		expect(await stored()).toEqual([])
	})

	it('refuses the whole request when one of its files is refused', async () => {
		const form = new FormData()
		form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), named('ok.png'))
		form.append('files', new Blob([new Uint8Array(HTML)], { type: 'image/png' }), named('bad.png'))
		form.append('fileInfo', JSON.stringify({ name: named('ok.png'), folder }))
		form.append('fileInfo', JSON.stringify({ name: named('bad.png'), folder }))
		const res = await acme.call('POST', '/upload', form)
		expect(res.status, JSON.stringify(res.body)).toBe(400)
		expect(await stored()).toEqual([])
	})

	it('takes a real PNG, PDF and plain text, stored with the type of their bytes', async () => {
		const cases: [string, Buffer, string, string][] = [
			['image.png', png, 'image/png', 'image/png'],
			['declared-nothing.png', png, 'application/octet-stream', 'image/png'],
			['handout.pdf', PDF, 'application/pdf', 'application/pdf'],
			['notes.txt', Buffer.from('Plain notes, ünïcödé; a < b.'), 'text/plain', 'text/plain'],
		]
		for (const [name, bytes, declared, mime] of cases) {
			const res = await acme.upload(named(name), bytes, declared, folder)
			expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201)
			expect(res.body[0].mime, name).toBe(mime)
		}
		expect(await stored()).toEqual(cases.map(([name]) => named(name)).sort())
	})

	it("refuses replacing a stored image's bytes with markup", async () => {
		const made = await acme.upload(named('replaced.png'), png, 'image/png', folder)
		const id = made.body[0].id
		const form = new FormData()
		form.append('files', new Blob([new Uint8Array(HTML)], { type: 'image/png' }), named('replaced.png'))
		const res = await acme.call('POST', `/upload?id=${id}`, form)
		expect(res.status, JSON.stringify(res.body)).toBe(400)
		const after = await acme.call('GET', `/upload/files/${id}`)
		expect(after.body.mime).toBe('image/png')
		expect(Buffer.from(await (await fetch(`${STRAPI_URL}${after.body.url}`)).arrayBuffer()).equals(png)).toBe(true)
	})

	it("serves Strapi's /uploads/ never sniffed, and a PDF or text as a sandboxed attachment", async () => {
		const files = ((await acme.call('GET', `/upload/files?pageSize=100&filters[name][$contains]=t${stamp}-`)).body
			.results ?? []) as any[]
		const url = (name: string) => files.find((f) => f.name === named(name)).url as string
		const image = await fetch(`${STRAPI_URL}${url('image.png')}`)
		expect(image.status).toBe(200)
		expect(image.headers.get('x-content-type-options')).toBe('nosniff')
		expect(image.headers.get('content-disposition')).toBeNull()
		for (const name of ['handout.pdf', 'notes.txt']) {
			for (const path of [url(name), url(name).replace('/uploads/', '/./uploads/')]) {
				const res = await fetch(`${STRAPI_URL}${path}`)
				expect(res.status, path).toBe(200)
				expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
				expect(res.headers.get('content-disposition'), path).toBe('attachment')
				expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none'; sandbox")
				await res.arrayBuffer()
			}
		}
	})
})
