import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { LRUCache } from 'lru-cache'
import { scopedKey } from './cache-tags.server.ts'
import type { RequestContext } from '#app/context.ts'
import { describeError, log } from '../platform/log.server.ts'
import { loadSharp } from './images.server.ts'
import { fetchPublic } from './public-fetch.server.ts'
import { DEFAULT_THEME_COLOR, readableOn, siteDocument } from './site.server.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const MAX_SOURCE_BYTES = 5 * 1024 * 1024

export type FallbackFile = 'favicon.ico' | 'icon-192.png' | 'icon-512.png' | 'apple-icon.png'

const fallbacks = new Map<FallbackFile, Promise<Buffer>>()
/** The static fallback from public/, read once. */
export function fallbackFile(name: FallbackFile) {
	let file = fallbacks.get(name)
	if (!file) fallbacks.set(name, (file = readFile(resolve('public', name))))
	return file
}

/**
 * The bytes behind an image field of the site document: a same-origin asset
 * URL is read from the content service (with its key), an absolute https URL
 * on a public address is fetched (3 s, 5 MiB at most, no redirects:
 * fetchPublic). Null for a missing field, an invalid or refused URL or any
 * retrieval error (logged).
 */
async function sourceBytes(ctx: RequestContext, url: string | null | undefined): Promise<Buffer | null> {
	if (!url) return null
	try {
		if (/^https?:\/\//i.test(url)) return await fetchPublic(url, { timeoutMs: 3000, maxBytes: MAX_SOURCE_BYTES })
		if (!url.startsWith('/api/cms/site/assets/')) return null
		const response = await ctx.cms.asset(
			ctx.site,
			decodeURIComponent(url.slice('/api/cms/site/assets/'.length).split('/')[0]),
			{},
		)
		if (!response.ok) {
			await response.body?.cancel()
			throw new Error(`status ${response.status}`)
		}
		const bytes = Buffer.from(await response.arrayBuffer())
		if (bytes.length > MAX_SOURCE_BYTES) throw new Error('image too large')
		return bytes
	} catch (error) {
		log.warn('site-image/unavailable', { site: ctx.site, error: describeError(error) })
		return null
	}
}

// Generated images per site, field and size; a revalidated site tag makes new ones.
// The promise is what is kept, so concurrent requests for one image share its making.
const generated = new LRUCache<string, Promise<Buffer | null>>({ max: 500 })
function memo(ctx: RequestContext, key: string, make: () => Promise<Buffer | null>) {
	const full = scopedKey(ctx, ctx.tags.version(`site:${ctx.site}`), key)
	let image = generated.get(full)
	if (!image) {
		image = make().catch((error) => {
			log.warn('site-image/failed', { site: ctx.site, key, error: describeError(error) })
			return null
		})
		generated.set(full, image)
	}
	return image
}

/** A square PNG of the site's icon (or favicon) field, or null when there is none or it cannot be decoded. */
export function squareIcon(ctx: RequestContext, field: 'icon' | 'favicon', size: number) {
	return memo(ctx, `${field}:${size}`, async () => {
		const site = await siteDocument(ctx)
		const bytes = await sourceBytes(ctx, site?.[field] ?? (field === 'favicon' ? site?.icon : null))
		return bytes ? (await loadSharp())(bytes).resize(size, size, { fit: 'cover' }).png().toBuffer() : null
	})
}

/** PNG images inside an ICO container (ICO allows PNG entries since Windows Vista). */
export function pngToIco(png: Buffer, size: number) {
	const header = Buffer.alloc(6)
	header.writeUInt16LE(0, 0)
	header.writeUInt16LE(1, 2) // type: icon
	header.writeUInt16LE(1, 4) // one image
	const entry = Buffer.alloc(16)
	entry.writeUInt8(size >= 256 ? 0 : size, 0)
	entry.writeUInt8(size >= 256 ? 0 : size, 1)
	entry.writeUInt16LE(1, 4) // colour planes
	entry.writeUInt16LE(32, 6) // bits per pixel
	entry.writeUInt32LE(png.length, 8)
	entry.writeUInt32LE(6 + 16, 12)
	return Buffer.concat([header, entry, png])
}

let font: Promise<Buffer> | null = null

/** A social card: the site's og_image cropped to size, else the site name on its theme colour. */
export function socialCard(ctx: RequestContext, width: number, height: number) {
	return memo(ctx, `card:${width}x${height}`, async () => {
		const site = await siteDocument(ctx)
		const bytes = await sourceBytes(ctx, site?.og_image)
		if (bytes) {
			try {
				return (await loadSharp())(bytes).resize(width, height, { fit: 'cover' }).png().toBuffer()
			} catch (error) {
				log.warn('site-image/undecodable', { site: ctx.site, error: describeError(error) })
			}
		}
		const theme = site?.theme_color ?? DEFAULT_THEME_COLOR
		const name = site?.name || ctx.tenant?.name || ctx.host
		font ??= readFile(resolve('assets/fonts/DejaVuSans-Bold.ttf'))
		const card = {
			type: 'div',
			props: {
				style: {
					width,
					height,
					display: 'flex',
					flexDirection: 'column',
					justifyContent: 'center',
					padding: 80,
					background: theme,
					color: readableOn(theme),
				},
				children: [
					{ type: 'div', props: { style: { fontSize: 72, lineHeight: 1.1 }, children: name } },
					site?.description
						? {
								type: 'div',
								props: {
									style: { fontSize: 32, marginTop: 24, opacity: 0.85 },
									children: site.description.slice(0, 140),
								},
							}
						: null,
				],
			},
		}
		// satori takes React-element-shaped objects; no JSX runtime is needed on the server for this.
		const [{ default: satori }, sharp] = await Promise.all([import('satori'), loadSharp()])
		const svg = await satori(card as unknown as Parameters<typeof satori>[0], {
			width,
			height,
			fonts: [{ name: 'DejaVu Sans', data: await font, weight: 700, style: 'normal' }],
		})
		return sharp(Buffer.from(svg)).png().toBuffer()
	})
}

export function imageResponse(bytes: Buffer, type: string) {
	return new Response(new Uint8Array(bytes), {
		headers: { 'content-type': type, 'content-length': String(bytes.length), 'cache-control': IMMUTABLE },
	})
}
