import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import { scopedKey } from './cache-tags.server.ts'
import type { RequestContext } from '#app/context.ts'
import { IMAGE_WIDTHS } from '../platform/api-schemas.ts'
import { escapeHtml } from '../platform/html.ts'
import { describeError, log } from '../platform/log.server.ts'

/**
 * sharp, loaded on first use: with satori it takes a third of a second of a core to load, and a
 * process that serves no image never needs it (every test stack, most cold starts).
 */
export const loadSharp = async () => (await import('sharp')).default

export { IMAGE_WIDTHS }

/** Formats that are resized, each into itself; everything else (SVG, GIF, PDF, …) is served as it is. */
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp'])
// Larger originals are served unchanged: buffering them would cost more memory than the variant saves bytes.
const MAX_SOURCE_BYTES = 16 * 1024 * 1024
// A small file can declare a huge canvas; libvips refuses to decode past this.
const MAX_INPUT_PIXELS = 40_000_000
const VARIANT_CACHE_BYTES = 32 * 1024 * 1024

/** The `sizes` of an image in the prose column (.prose: at most 42rem inside .wrap's 1rem padding). */
export const PROSE_SIZES = '(min-width: 44rem) 42rem, calc(100vw - 2rem)'
/** The `sizes` of an image as wide as the page column (.wrap: 60rem with 1rem padding). */
const COLUMN_SIZES = '(min-width: 60rem) 58rem, calc(100vw - 2rem)'

export interface ImageSize {
	width: number
	height: number
}

/** The `w` query parameter: null when absent, 'invalid' unless it is exactly one of IMAGE_WIDTHS. */
export function requestedWidth(params: URLSearchParams): number | null | 'invalid' {
	const values = params.getAll('w')
	if (values.length === 0) return null
	const width = IMAGE_WIDTHS.find((w) => String(w) === values[0])
	return values.length === 1 && width ? width : 'invalid'
}

function isResizable(contentType: string | null) {
	return RESIZABLE.has((contentType ?? '').split(';')[0].trim().toLowerCase())
}

/** Whether an upstream answer's body is one we may buffer and decode. */
export function canDecode(response: Response) {
	const length = Number(response.headers.get('content-length'))
	return (
		isResizable(response.headers.get('content-type')) &&
		Number.isInteger(length) &&
		length > 0 &&
		length <= MAX_SOURCE_BYTES
	)
}

/** Width and height as displayed (EXIF orientation applied; one frame of an animation); null when undecodable. */
async function displayedSize(
	bytes: Uint8Array,
): Promise<(ImageSize & { animated: boolean; palette: boolean; format: string }) | null> {
	try {
		const sharp = await loadSharp()
		const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
		const animated = (meta.pages ?? 1) > 1
		const { width, height } = meta.autoOrient
		return {
			width,
			height: animated && meta.pageHeight ? meta.pageHeight : height,
			animated,
			palette: meta.isPalette,
			format: meta.format,
		}
	} catch {
		return null
	}
}

export interface Variant {
	/** The upstream validator the variant was made from (its ETag, else a digest of its bytes). */
	source: string
	etag: string
	type: string
	lastModified: string | null
	/** X-Asset-Filename, for /download. */
	filename: string | null
	bytes: Uint8Array<ArrayBuffer>
}

/** What a variant is made from: an upstream 200 answer's bytes and headers. */
interface Source {
	bytes: Uint8Array<ArrayBuffer>
	/** The upstream validator (its ETag, else a digest of its bytes). */
	validator: string
	width: number
	headers: Headers
}

/**
 * Variants per site, asset and width; a different upstream validator replaces the entry, so a changed
 * asset is never served old. lru-cache's fetch() makes each one once however many ask (decision 0066).
 */
const variants = new LRUCache<string, Variant, Source>({
	maxSize: VARIANT_CACHE_BYTES,
	sizeCalculation: (v) => v.bytes.length + 256,
	// A variant evicted while it is made still answers the requests waiting for it.
	ignoreFetchAbort: true,
	fetchMethod: (_key, _old, { context: { bytes, validator, width, headers } }) =>
		resize(bytes, width).then((resized) => ({
			source: validator,
			etag: `"w${width}-${digest(resized)}"`,
			type: headers.get('content-type')!,
			lastModified: headers.get('last-modified'),
			filename: headers.get('x-asset-filename'),
			bytes: resized,
		})),
})

const variantKey = (ctx: Pick<RequestContext, 'site' | 'tags'>, assetId: string, width: number) =>
	scopedKey(ctx, assetId, width)

/** The cached variant, whatever its source; the caller asks upstream whether `source` is still current. */
export function cachedVariant(ctx: Pick<RequestContext, 'site' | 'tags'>, assetId: string, width: number) {
	return variants.get(variantKey(ctx, assetId, width))
}

/**
 * The variant of an upstream 200 answer (a resizable image no larger than
 * MAX_SOURCE_BYTES: canDecode), made once per upstream validator even when
 * requested concurrently, and cached.
 */
export async function variantOf(
	ctx: Pick<RequestContext, 'site' | 'tags'>,
	assetId: string,
	width: number,
	upstream: Response,
): Promise<Variant> {
	const bytes = new Uint8Array(await upstream.arrayBuffer())
	const source: Source = {
		bytes,
		validator: upstream.headers.get('etag') ?? `"${digest(bytes)}"`,
		width,
		headers: upstream.headers,
	}
	const key = variantKey(ctx, assetId, width)
	const current = (v: Variant | undefined) => v?.source === source.validator
	let variant = await variants.fetch(key, { context: source, forceRefresh: !current(variants.peek(key)) })
	// The flight joined was making another validator's variant: this one is made now.
	if (!current(variant)) variant = await variants.fetch(key, { context: source, forceRefresh: true })
	if (!variant) throw new Error(`image variant ${key} was not made`)
	return variant
}

/**
 * The image at most `width` pixels wide, in its own format. The original
 * itself when it is not wider, animated, undecodable, or when the variant
 * would not be smaller: a variant never costs more bytes than the original.
 */
async function resize(bytes: Uint8Array<ArrayBuffer>, width: number): Promise<Uint8Array<ArrayBuffer>> {
	const size = await displayedSize(bytes)
	if (!size || size.animated || size.width <= width) return bytes
	const sharp = await loadSharp()
	try {
		let image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true }).resize({
			width,
			withoutEnlargement: true,
		})
		// Resampling adds colours, which PNG compresses badly: the strongest lossless settings, a palette only where the original had one.
		if (size.format === 'png')
			image = image.png(size.palette ? { palette: true } : { compressionLevel: 9, adaptiveFiltering: true })
		const resized = new Uint8Array(await image.toBuffer())
		return resized.length < bytes.length ? resized : bytes
	} catch (error) {
		log.warn('image/resize-failed', { error: describeError(error) })
		return bytes
	}
}

function digest(bytes: Uint8Array) {
	return createHash('sha256').update(bytes).digest('base64url').slice(0, 27)
}

/** RFC 9110 If-None-Match: `*` or a list of entity tags, compared weakly. */
export function matchesIfNoneMatch(header: string | null, etag: string) {
	if (!header) return false
	if (header.trim() === '*') return true
	const bare = (tag: string) => tag.trim().replace(/^W\//, '')
	return header.split(',').some((tag) => bare(tag) === bare(etag))
}

// --- Intrinsic sizes for markup -------------------------------------------------

interface Original {
	etag: string | null
	/** X-Asset-Course: the course the asset belongs to (null for a site asset). */
	course: string | null
	size: ImageSize | null
}

// A size is asked for again (conditionally: usually a 304) after this long, as content values are.
const SIZE_TTL_MS = 60_000
const RETRY_FAILED_AFTER_MS = 5_000
// A page waits at most this long for a size it has never seen, then renders without it (the lookup still fills the cache).
const SIZE_WAIT_MS = 2_000

/**
 * Sizes per site and asset. lru-cache's fetch() asks once however many pages ask, and serves a size
 * seen before while it asks again (decision 0066).
 */
const originals = new LRUCache<string, Original, { ctx: RequestContext; assetId: string }>({
	max: 5_000,
	allowStale: true,
	noDeleteOnStaleGet: true,
	// A lookup evicted while it runs still answers the pages waiting for it.
	ignoreFetchAbort: true,
	fetchMethod: async (_key, known, { options, context }) => {
		const [found, ttl] = await lookUp(context.ctx, context.assetId, known)
		options.ttl = ttl
		return found
	},
})

/** The proxy path of a site asset or of a course's assets (the content client rewrites asset URLs to these). */
const assetPrefix = (courseSlug?: string) =>
	courseSlug ? `/api/cms/courses/${encodeURIComponent(courseSlug)}/assets/` : '/api/cms/site/assets/'

/** The asset id of a plain proxy URL under `prefix` (no query, fragment or /download), else null. */
function assetIdOf(url: string, prefix: string) {
	if (!url.startsWith(prefix)) return null
	const rest = url.slice(prefix.length)
	if (!/^[^/?#]+$/.test(rest)) return null
	try {
		return decodeURIComponent(rest)
	} catch {
		return null
	}
}

/** The asset's size as upstream has it now, and how long that answer holds. */
async function lookUp(ctx: RequestContext, assetId: string, known: Original | undefined): Promise<[Original, number]> {
	try {
		const response = await ctx.cms.asset(ctx.site, assetId, known?.etag ? { 'if-none-match': known.etag } : {})
		const course = response.headers.get('x-asset-course')
		if (response.status === 304 && known) return [{ ...known, course }, SIZE_TTL_MS]
		if (response.status !== 200 || !canDecode(response)) {
			await response.body?.cancel()
			return [{ etag: null, course, size: null }, SIZE_TTL_MS]
		}
		const size = await displayedSize(new Uint8Array(await response.arrayBuffer()))
		const found = {
			etag: response.headers.get('etag'),
			course,
			size: size && { width: size.width, height: size.height },
		}
		return [found, SIZE_TTL_MS]
	} catch (error) {
		log.warn('image/size-unavailable', { site: ctx.site, assetId, error: describeError(error) })
		return [known ?? { etag: null, course: null, size: null }, RETRY_FAILED_AFTER_MS]
	}
}

function original(ctx: RequestContext, assetId: string): Original | Promise<Original | null | undefined> {
	const key = scopedKey(ctx, assetId)
	// A fresh size answers at once, without the promise fetch() makes: most page renders.
	const fresh = originals.get(key, { allowStale: false })
	if (fresh) return fresh
	const pending = originals.fetch(key, { context: { ctx, assetId } })
	// A size seen before is good enough while it is being checked again: fetch() answers it at once.
	if (originals.peek(key)) return pending
	let timer: NodeJS.Timeout | undefined
	const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, SIZE_WAIT_MS, null)))
	return Promise.race([pending, late]).finally(() => clearTimeout(timer))
}

/**
 * The displayed sizes of those `urls` that are this page's own asset-proxy
 * URLs (under assetPrefix(courseSlug)) of resizable images, keyed by URL.
 * Other URLs (external hosts, other courses, files the proxy would refuse)
 * are never fetched and get no entry. The ownership rule is the proxy's: the
 * asset must belong to that course or to no course (the site's own).
 */
export async function imageSizes(ctx: RequestContext, urls: readonly string[], courseSlug?: string) {
	const prefix = assetPrefix(courseSlug)
	const sizes = new Map<string, ImageSize>()
	await Promise.all(
		[...new Set(urls)].map(async (url) => {
			const assetId = assetIdOf(url, prefix)
			if (assetId === null) return
			const found = await original(ctx, assetId)
			// The proxy's rule: a course's URL serves its own files and the site's (decision 0082).
			if (found?.size && (found.course === null || found.course === courseSlug)) sizes.set(url, found.size)
		}),
	)
	return sizes
}

/** `srcset` of an own asset URL: every allowed width below the intrinsic one, then the original at its own width. */
export function srcsetOf(src: string, intrinsicWidth: number) {
	const smaller = IMAGE_WIDTHS.filter((w) => w < intrinsicWidth).map((w) => `${src}?w=${w} ${w}w`)
	return [...smaller, `${src} ${intrinsicWidth}w`].join(', ')
}

export interface ImageAttributes {
	src: string
	width?: number
	height?: number
	srcSet?: string
	sizes?: string
}

/** An image's attributes: with a size (own asset), its dimensions and srcset; otherwise only its src. */
export function imageAttributes(src: string, size: ImageSize | undefined, sizes: string): ImageAttributes {
	if (!size) return { src }
	return { src, width: size.width, height: size.height, srcSet: srcsetOf(src, size.width), sizes }
}

/** The same attributes as HTML (values escaped), for rendered Markdown. */
export function imageAttributesHtml(attributes: ImageAttributes) {
	const pairs: Array<[string, string | number | undefined]> = [
		['src', attributes.src],
		['srcset', attributes.srcSet],
		['sizes', attributes.sizes],
		['width', attributes.width],
		['height', attributes.height],
	]
	return pairs
		.filter(([, value]) => value !== undefined)
		.map(([name, value]) => `${name}="${escapeHtml(String(value))}"`)
		.join(' ')
}

/** A blog post's hero image, or a course's picture (under its course's URL): as wide as the page column. */
export async function heroImage(ctx: RequestContext, src: string, courseSlug?: string) {
	const sizes = await imageSizes(ctx, [src], courseSlug)
	return imageAttributes(src, sizes.get(src), COLUMN_SIZES)
}
