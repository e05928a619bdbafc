import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { crc32 } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const site = (id: string, query = '') => `/api/cms/site/assets/${id}${query}`
const course = (slug: string, id: string, query = '') => `/api/cms/courses/${slug}/assets/${id}${query}`

const noise = (width: number, height: number) =>
	sharp({
		create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
	})
const solid = (width: number, height: number, background: string) =>
	sharp({ create: { width, height, channels: 3, background } })

/** The PNG grown to exactly `size` bytes by a text chunk before IEND (decoders ignore it). */
function padPng(png: Buffer, size: number) {
	const iend = png.length - 12
	const data = Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(size - png.length - 12 - 8, 'x')])
	const chunk = Buffer.alloc(12 + data.length)
	chunk.writeUInt32BE(data.length, 0)
	chunk.write('tEXt', 4)
	data.copy(chunk, 8)
	chunk.writeUInt32BE(crc32(Buffer.concat([Buffer.from('tEXt'), data])), 8 + data.length)
	return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)])
}

/**
 * The local content plus images of every kind for Acme (a JPEG wider than
 * every variant, a WebP, an SVG, a GIF, an asset of another course and of the
 * draft course), a blog post showing them and an external image, and for
 * Globex an asset with Acme's hero's id whose bytes differ but whose size and
 * modification time (so the content service's ETag) are the same.
 */
async function content(externalImage: string) {
	const dir = mkdtempSync(join(tmpdir(), 'lms-images-'))
	cpSync(resolve('cms/content'), dir, { recursive: true })
	const assets = join(dir, 'acme/assets')
	writeFileSync(join(assets, 'photo.jpg'), await noise(2000, 1000).jpeg().toBuffer())
	writeFileSync(join(assets, 'changing.jpg'), await noise(1600, 800).jpeg().toBuffer())
	writeFileSync(join(assets, 'photo.png'), await noise(1500, 750).png().toBuffer())
	writeFileSync(join(assets, 'photo.webp'), await noise(1000, 600).webp().toBuffer())
	writeFileSync(
		join(assets, 'logo.svg'),
		'<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="100"><rect width="2000" height="100" fill="#1d4ed8"/></svg>',
	)
	writeFileSync(join(assets, 'anim.gif'), await noise(1000, 500).gif().toBuffer())
	writeFileSync(join(assets, 'css.png'), await noise(800, 400).png().toBuffer())
	writeFileSync(join(assets, 'draft.png'), await noise(800, 400).png().toBuffer())
	const index = JSON.parse(readFileSync(join(dir, 'acme/assets.json'), 'utf8'))
	index.push(
		{ id: 'photo-jpeg', file: 'photo.jpg', contentType: 'image/jpeg', filename: 'photo.jpg' },
		{ id: 'changing-jpeg', file: 'changing.jpg', contentType: 'image/jpeg', filename: 'changing.jpg' },
		{ id: 'photo-png', file: 'photo.png', contentType: 'image/png', filename: 'photo.png' },
		{ id: 'photo-webp', file: 'photo.webp', contentType: 'image/webp', filename: 'photo.webp' },
		{ id: 'logo-svg', file: 'logo.svg', contentType: 'image/svg+xml', filename: 'logo.svg' },
		{ id: 'anim-gif', file: 'anim.gif', contentType: 'image/gif', filename: 'anim.gif' },
		{ id: 'css-asset', file: 'css.png', contentType: 'image/png', filename: 'css.png', courseSlug: 'advanced-css' },
		{
			id: 'draft-asset',
			file: 'draft.png',
			contentType: 'image/png',
			filename: 'draft.png',
			courseSlug: 'draft-course',
		},
	)
	writeFileSync(join(dir, 'acme/assets.json'), JSON.stringify(index))
	const post = JSON.parse(readFileSync(join(dir, 'acme/blog/welcome.json'), 'utf8'))
	post.body.en += `\n\n![A photo]({{asset:photo-jpeg}})\n\n![Elsewhere](${externalImage})\n\n![A course diagram]({{asset:http-diagram}})\n\n![The logo]({{asset:logo-svg}})`
	writeFileSync(join(dir, 'acme/blog/welcome.json'), JSON.stringify(post))

	const acmeHero = join(assets, 'welcome-hero.png')
	const globexHero = join(dir, 'globex/assets/welcome-hero.png')
	writeFileSync(
		globexHero,
		padPng(await solid(1200, 630, '#ff0000').png({ palette: true }).toBuffer(), statSync(acmeHero).size),
	)
	const when = new Date('2026-11-01T00:00:00Z')
	utimesSync(acmeHero, when, when)
	utimesSync(globexHero, when, when)
	const globex = JSON.parse(readFileSync(join(dir, 'globex/assets.json'), 'utf8'))
	globex.push({ id: 'welcome-hero', file: 'welcome-hero.png', contentType: 'image/png', filename: 'welcome-hero.png' })
	writeFileSync(join(dir, 'globex/assets.json'), JSON.stringify(globex))
	return dir
}

/** The attributes of each <img> in an HTML page, in order (names in lower case, as HTML compares them). */
function images(html: string) {
	return [...html.matchAll(/<img ([^>]*?)\/?>/g)].map((m) =>
		Object.fromEntries(
			[...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1].toLowerCase(), a[2].replaceAll('&amp;', '&')]),
		),
	)
}

describe.each(DIALECTS)('resized images on %s', (dialect) => {
	let stack: Stack
	let dir: string
	let external: Server
	let externalRequests = 0
	beforeAll(async () => {
		external = createServer((_req, res) => {
			externalRequests++
			res.writeHead(404).end()
		})
		await new Promise<void>((done) => external.listen(0, '127.0.0.1', done))
		const { port } = external.address() as { port: number }
		dir = await content(`http://127.0.0.1:${port}/elsewhere.png`)
		stack = await startStack(dialect, {}, { cmsContentDir: dir })
	})
	afterAll(async () => {
		await stack?.close()
		await new Promise((done) => external?.close(done))
		if (dir) rmSync(dir, { recursive: true, force: true })
	})
	const get = (path: string, headers: Record<string, string> = {}, host = ACME) =>
		stack.request(host, path, { headers })

	it('resizes JPEG, PNG and WebP to the width asked for, in their own format, ignoring Range', async () => {
		for (const [id, type, format] of [
			['photo-jpeg', 'image/jpeg', 'jpeg'],
			['photo-png', 'image/png', 'png'],
			['photo-webp', 'image/webp', 'webp'],
		] as const) {
			const original = await get(site(id))
			for (const w of [320, 480, 640, 960]) {
				const res = await get(site(id, `?w=${w}`), { range: 'bytes=0-99' })
				expect(res.status, `${id} ${w}`).toBe(200)
				expect(res.headers['content-type']).toBe(type)
				expect(res.headers['cache-control']).toBe('public, max-age=3600')
				expect(res.headers.etag).toMatch(/^"[^"]+"$/)
				expect(res.headers['accept-ranges']).toBeUndefined()
				expect(Number(res.headers['content-length'])).toBe(res.body.length)
				expect(res.body.length).toBeLessThan(original.body.length)
				await sharp(res.body).stats()
				const meta = await sharp(res.body).metadata()
				expect({ width: meta.width, format: meta.format }).toEqual({ width: w, format })
			}
		}
		const download = await get(`${site('photo-jpeg')}/download?w=640`)
		expect(download.headers['content-disposition']).toMatch(/^attachment; filename="photo.jpg";/)
		expect((await sharp(download.body).metadata()).width).toBe(640)
	})

	it('never enlarges: a width at or above the original gives the original', async () => {
		const original = await get(site('welcome-hero'))
		for (const w of [1280, 1920]) {
			const res = await get(site('welcome-hero', `?w=${w}`))
			expect(res.status).toBe(200)
			expect(res.body.equals(original.body)).toBe(true)
		}
		expect((await sharp((await get(site('photo-jpeg', '?w=1920'))).body).metadata()).width).toBe(1920)
	})

	it('never sends more bytes than the original: a flat graphic that resamples badly comes whole', async () => {
		const original = await get(site('welcome-hero'))
		const small = await get(site('welcome-hero', '?w=320'))
		expect((await sharp(small.body).metadata()).width).toBe(320)
		expect(small.body.length).toBeLessThan(original.body.length)
		for (const w of [480, 640, 960]) {
			const res = await get(site('welcome-hero', `?w=${w}`))
			expect(res.body.length, String(w)).toBeLessThanOrEqual(original.body.length)
			const { width } = await sharp(res.body).metadata()
			expect(width === w || res.body.equals(original.body), String(w)).toBe(true)
		}
	})

	it('passes SVG and GIF through unchanged (SVG as a sandboxed attachment: decision 0049)', async () => {
		for (const [id, type] of [
			['logo-svg', 'application/octet-stream'],
			['anim-gif', 'image/gif'],
		]) {
			const original = await get(site(id))
			const res = await get(site(id, '?w=320'))
			expect(res.status).toBe(200)
			expect(res.headers['content-type']).toBe(type)
			expect(res.body.equals(original.body), id).toBe(true)
		}
		expect((await get(site('logo-svg'))).headers['content-disposition']).toMatch(/^attachment; filename="logo.svg"/)
	})

	it('refuses any other width with 400 and the error envelope', async () => {
		for (const query of ['?w=', '?w=100', '?w=641', '?w=0640', '?w=abc', '?w=640&w=640', '?w=99999999999999999999']) {
			for (const path of [
				site('photo-jpeg', query),
				course('intro-to-web', 'http-diagram', query),
				site('logo-svg', query),
			]) {
				const res = await get(path)
				expect(res.status, path).toBe(400)
				expect(res.headers['cache-control']).toBe('no-store')
				expect(res.json()).toEqual({ error: expect.any(String), code: 'BAD_REQUEST' })
			}
		}
	})

	it('answers If-None-Match with the variant’s ETag with 304', async () => {
		const first = await get(site('photo-webp', '?w=480'))
		const etag = first.headers.etag as string
		for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
			const res = await get(site('photo-webp', '?w=480'), { 'if-none-match': condition })
			expect(res.status, condition).toBe(304)
			expect(res.body.length).toBe(0)
			expect(res.headers.etag).toBe(etag)
			expect(res.headers['cache-control']).toBe('public, max-age=3600')
		}
		// The original's validator is not the variant's, nor another width's.
		const original = await get(site('photo-webp'))
		expect((await get(site('photo-webp', '?w=480'), { 'if-none-match': original.headers.etag as string })).status).toBe(
			200,
		)
		expect((await get(site('photo-webp', '?w=320'), { 'if-none-match': etag })).status).toBe(200)
	})

	it('serves a cached variant after a conditional upstream request that sends no body', async () => {
		const first = await get(site('photo-jpeg', '?w=960'))
		const before = { ...stack.cms.stats.byStatus }
		const second = await get(site('photo-jpeg', '?w=960'))
		const grew = Object.fromEntries(
			Object.entries(stack.cms.stats.byStatus)
				.map(([status, n]) => [status, n - (before[status] ?? 0)])
				.filter(([, n]) => n !== 0),
		)
		expect(grew).toEqual({ '304': 1 })
		expect(second.body.equals(first.body)).toBe(true)
		expect(second.headers.etag).toBe(first.headers.etag)
	})

	it('makes a new variant when the asset changes', async () => {
		const before = await get(site('changing-jpeg', '?w=640'))
		expect((await sharp(before.body).metadata()).height).toBe(320)
		const file = join(dir, 'acme/assets/changing.jpg')
		writeFileSync(file, await noise(1600, 1200).jpeg().toBuffer())
		const later = new Date(Date.now() + 60_000)
		utimesSync(file, later, later)
		const after = await get(site('changing-jpeg', '?w=640'), { 'if-none-match': before.headers.etag as string })
		expect(after.status).toBe(200)
		expect(after.headers.etag).not.toBe(before.headers.etag)
		expect((await sharp(after.body).metadata()).height).toBe(480)
	})

	it('keeps the course and site checks for variants, also once the variant is cached', async () => {
		// Cached under its own course first: the cache must not open it elsewhere.
		expect((await get(course('advanced-css', 'css-asset', '?w=320'))).status).toBe(200)
		expect((await get(site('photo-jpeg', '?w=320'))).status).toBe(200)
		const refused = [
			course('intro-to-web', 'css-asset', '?w=320'), // another course's asset
			course('advanced-css', 'http-diagram', '?w=320'),
			course('draft-course', 'draft-asset', '?w=320'), // unpublished course
			course('no-such-course', 'css-asset', '?w=320'),
			site('http-diagram', '?w=320'), // a course asset through the site route
			site('css-asset', '?w=320'),
			site('no-such-asset', '?w=320'),
		]
		for (const path of refused) {
			const res = await get(path)
			expect(res.status, path).toBe(404)
			expect(res.json()).toEqual({ error: 'No such file', code: 'NOT_FOUND' })
		}
		// Another tenant's host does not serve Acme's assets.
		expect((await get(site('photo-jpeg', '?w=320'), {}, GLOBEX)).status).toBe(404)
	})

	it('never gives one tenant another’s variant, even for the same asset id and upstream ETag', async () => {
		const acme = await get(site('welcome-hero', '?w=320'))
		const globex = await get(site('welcome-hero', '?w=320'), {}, GLOBEX)
		expect(globex.status).toBe(200)
		// Same id, same ETag upstream: only the site tells them apart.
		expect((await get(site('welcome-hero'), {}, GLOBEX)).headers.etag).toBe(
			(await get(site('welcome-hero'))).headers.etag,
		)
		const [red, green] = (await sharp(globex.body).stats()).channels
		expect({ red: Math.round(red.mean), green: Math.round(green.mean) }).toEqual({ red: 255, green: 0 })
		expect(globex.body.equals(acme.body)).toBe(false)
	})

	it('gives the blog post’s hero and its own images dimensions and srcset, and external images only a src', async () => {
		const res = await get('/blog/welcome')
		expect(res.status).toBe(200)
		const [hero, photo, elsewhere, diagram, logo] = images(res.text)
		const hero$ = site('welcome-hero')
		expect(hero).toMatchObject({
			class: 'hero',
			src: hero$,
			width: '1200',
			height: '630',
			alt: '',
			sizes: '(min-width: 60rem) 58rem, calc(100vw - 2rem)',
			fetchpriority: 'high',
		})
		expect(hero.srcset).toBe(
			`${hero$}?w=320 320w, ${hero$}?w=480 480w, ${hero$}?w=640 640w, ${hero$}?w=960 960w, ${hero$} 1200w`,
		)
		expect(hero.loading).toBeUndefined()
		const photo$ = site('photo-jpeg')
		expect(photo).toMatchObject({
			src: photo$,
			width: '2000',
			height: '1000',
			loading: 'lazy',
			decoding: 'async',
			sizes: '(min-width: 44rem) 42rem, calc(100vw - 2rem)',
		})
		expect(photo.srcset).toBe(
			[320, 480, 640, 960, 1280, 1920]
				.map((w) => `${photo$}?w=${w} ${w}w`)
				.concat(`${photo$} 2000w`)
				.join(', '),
		)
		// Not ours, not this scope's (a course asset named from a site post), not resizable: just the src.
		for (const img of [elsewhere, diagram, logo]) {
			expect(img.srcset, img.src).toBeUndefined()
			expect(img.width, img.src).toBeUndefined()
			expect(img.loading).toBe('lazy')
		}
		expect(diagram.src).toBe(site('http-diagram'))
		expect(externalRequests).toBe(0)
	})

	it('sizes an image of a course entry from that course’s assets', async () => {
		const b = stack.browser(ACME)
		expect((await b.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })).status).toBe(302)
		const res = await b.get('/learn/course/intro-to-web/entry/what-is-http')
		expect(res.status).toBe(200)
		const [diagram] = images(res.text)
		const src = course('intro-to-web', 'http-diagram')
		expect(diagram).toMatchObject({
			src,
			width: '640',
			height: '320',
			srcset: `${src}?w=320 320w, ${src}?w=480 480w, ${src} 640w`,
			loading: 'lazy',
		})
		for (const candidate of diagram.srcset.split(', ')) expect((await b.get(candidate.split(' ')[0])).status).toBe(200)
	})
})
