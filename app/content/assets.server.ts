import type { RequestContext } from '#app/context.ts'
import { jsonError } from '../platform/errors.ts'
import { describeError, log } from '../platform/log.server.ts'
import {
	attachmentHeaders,
	INERT_HEADERS,
	servedAs,
	SNIFF_BYTES,
	type ServedAs,
} from '../platform/served-files.server.ts'
import { ContentUnavailableError } from './cms.server.ts'
import {
	cachedVariant,
	canDecode,
	IMAGE_WIDTHS,
	matchesIfNoneMatch,
	requestedWidth,
	variantOf,
	type Variant,
} from './images.server.ts'

// Headers of the content service's answer that reach the browser; nothing else does (the type is
// decided here, from the bytes: servedAs).
const PASSED_THROUGH = ['content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']
const FORWARDED = ['range', 'if-none-match', 'if-modified-since', 'if-range']
const CACHE_CONTROL = 'public, max-age=3600'

interface AssetOptions {
	courseSlug?: string
	download: boolean
}

/**
 * Streams one asset of this host's site from the content service (the API key
 * is added upstream only). A course asset is served only under its own,
 * published course; a site asset under the site's URL or a published course's
 * (a course's picture), so the course check cannot be bypassed. Range and conditional requests pass through.
 * With `?w=` (one of IMAGE_WIDTHS) a JPEG, PNG or WebP comes resized to at
 * most that width (decision 0018), after the same checks; other types come
 * unchanged. Only raster images, audio and video are shown inline; anything
 * else is a sandboxed attachment of a type decided from its bytes (decision 0049).
 */
export async function proxyAsset(ctx: RequestContext, request: Request, assetId: string, options: AssetOptions) {
	const width = requestedWidth(new URL(request.url).searchParams)
	if (width === 'invalid') return jsonError(400, 'BAD_REQUEST', `w must be one of ${IMAGE_WIDTHS.join(', ')}`)
	if (width === null) {
		const forwarded: Record<string, string> = {}
		for (const name of FORWARDED) {
			const value = request.headers.get(name)
			if (value) forwarded[name] = value
		}
		const upstream = await ownAsset(ctx, assetId, options.courseSlug, forwarded)
		return upstream.refused ?? (await passThrough(upstream.response, assetId, options))
	}
	// A variant is a whole new file: the browser's Range and validators are not the content service's.
	const cached = cachedVariant(ctx, assetId, width)
	const upstream = await ownAsset(ctx, assetId, options.courseSlug, cached ? { 'if-none-match': cached.source } : {})
	if (upstream.refused) return upstream.refused
	const { response } = upstream
	if (response.status === 304 && cached) return variantResponse(request, cached, assetId, options)
	if (response.status !== 200 || !canDecode(response)) return passThrough(response, assetId, options)
	return variantResponse(request, await variantOf(ctx, assetId, width, response), assetId, options)
}

/** The upstream answer about an asset this URL may serve, or the refusal to send instead. */
async function ownAsset(
	ctx: RequestContext,
	assetId: string,
	courseSlug: string | undefined,
	headers: Record<string, string>,
) {
	let upstream: Response
	try {
		upstream = await ctx.cms.asset(ctx.site, assetId, headers)
	} catch (error) {
		if (!(error instanceof ContentUnavailableError)) throw error
		log.error('cms/asset-failed', { assetId, error: describeError(error) })
		return { refused: jsonError(503, 'SERVICE_UNAVAILABLE', 'The file is temporarily unavailable') }
	}
	const belongsTo = upstream.headers.get('x-asset-course')
	// A course's URL also serves the site's own files (public under the site's URL anyway): a course's
	// picture may be one of the site's library (decision 0082). Never another course's.
	const mayServe = belongsTo === null ? true : belongsTo === courseSlug
	if (upstream.status === 404 || !mayServe) {
		await upstream.body?.cancel()
		return { refused: jsonError(404, 'NOT_FOUND', 'No such file') }
	}
	if (upstream.status === 416) {
		await upstream.body?.cancel()
		const range = upstream.headers.get('content-range')
		return {
			refused: jsonError(416, 'BAD_REQUEST', 'The byte range cannot be satisfied', {
				headers: range ? { 'content-range': range } : {},
			}),
		}
	}
	if (![200, 206, 304].includes(upstream.status)) {
		await upstream.body?.cancel()
		log.error('cms/asset-failed', { assetId, status: upstream.status })
		return { refused: jsonError(503, 'SERVICE_UNAVAILABLE', 'The file is temporarily unavailable') }
	}
	return { response: upstream, refused: undefined }
}

async function passThrough(upstream: Response, assetId: string, options: AssetOptions) {
	const headers = new Headers()
	for (const name of PASSED_THROUGH) {
		const value = upstream.headers.get(name)
		if (value) headers.set(name, value)
	}
	const name = upstream.headers.get('x-asset-filename') ?? assetId
	if (upstream.status === 304 || !upstream.body) {
		// No bytes to decide by: the browser keeps the type and disposition of the answer it stored,
		// and a copy stored before the rule existed runs sandboxed from now on.
		headers.set('cache-control', CACHE_CONTROL)
		setHeaders(headers, INERT_HEADERS)
		return new Response(null, { status: upstream.status, headers })
	}
	// A part of a range that does not start at byte 0 has no head to sniff: servedAs decides by the stored type.
	const fromStart = upstream.status === 200 || /^bytes 0-/.test(upstream.headers.get('content-range') ?? '')
	const peeked = fromStart ? await peek(upstream.body, SNIFF_BYTES) : { head: null, body: upstream.body }
	if (!peeked) return jsonError(503, 'SERVICE_UNAVAILABLE', 'The file is temporarily unavailable')
	const served = await servedAs(upstream.headers.get('content-type'), peeked.head)
	finishHeaders(headers, served, name, options)
	// The body is the upstream stream itself (its first bytes put back): never buffered whole.
	return new Response(peeked.body, { status: upstream.status, headers })
}

async function variantResponse(request: Request, variant: Variant, assetId: string, options: AssetOptions) {
	const headers = new Headers({ etag: variant.etag })
	if (variant.lastModified) headers.set('last-modified', variant.lastModified)
	// A variant is the original's bytes when they would not decode: the bytes decide here too.
	finishHeaders(headers, await servedAs(variant.type, variant.bytes), variant.filename ?? assetId, options)
	if (matchesIfNoneMatch(request.headers.get('if-none-match'), variant.etag))
		return new Response(null, { status: 304, headers })
	headers.set('content-length', String(variant.bytes.length))
	return new Response(variant.bytes, { status: 200, headers })
}

/** Type, disposition and cache headers: inline only what browsers show and never run (decision 0049). */
function finishHeaders(headers: Headers, served: ServedAs, name: string, options: AssetOptions) {
	headers.set('cache-control', CACHE_CONTROL)
	headers.set('content-type', served.type)
	headers.set('x-content-type-options', 'nosniff')
	if (options.download || !served.inline) setHeaders(headers, attachmentHeaders(name))
}

function setHeaders(headers: Headers, values: Record<string, string>) {
	for (const [name, value] of Object.entries(values)) headers.set(name, value)
}

/**
 * The first `bytes` bytes of a stream (fewer if it is shorter) and the whole stream again, read
 * on as the answer is sent; null when the upstream failed before its head arrived.
 */
async function peek(body: ReadableStream<Uint8Array>, bytes: number) {
	const reader = body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	let done = false
	try {
		while (size < bytes && !done) {
			const next = await reader.read()
			if (next.done) done = true
			else {
				chunks.push(next.value)
				size += next.value.byteLength
			}
		}
	} catch (error) {
		log.error('cms/asset-failed', { error: describeError(error) })
		return null
	}
	const head = new Uint8Array(size)
	let at = 0
	for (const chunk of chunks) {
		head.set(chunk, at)
		at += chunk.byteLength
	}
	const again = new ReadableStream<Uint8Array>({
		start(controller) {
			if (size) controller.enqueue(head)
			if (done) controller.close()
		},
		async pull(controller) {
			const next = await reader.read()
			if (next.done) controller.close()
			else controller.enqueue(next.value)
		},
		cancel: (reason) => reader.cancel(reason),
	})
	return { head, body: again }
}

/** The `/download` variant of an asset route. */
export function isDownload(request: Request) {
	return new URL(request.url).pathname.endsWith('/download')
}
