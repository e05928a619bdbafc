import type { RequestContext } from '#app/context.ts'
import { jsonError } from '../platform/errors.ts'
import { describeError, log } from '../platform/log.server.ts'
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

// Headers of the content service's answer that reach the browser; nothing else does.
const PASSED_THROUGH = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']
const FORWARDED = ['range', 'if-none-match', 'if-modified-since', 'if-range']
const CACHE_CONTROL = 'public, max-age=3600'

interface AssetOptions {
	courseSlug?: string
	download: boolean
}

/**
 * Streams one asset of this host's site from the content service (the API key
 * is added upstream only). A course asset is served only under its own,
 * published course; a site asset only when it belongs to no course, so the
 * course check cannot be bypassed. Range and conditional requests pass through.
 * With `?w=` (one of IMAGE_WIDTHS) a JPEG, PNG or WebP comes resized to at
 * most that width (decision 0018), after the same checks; other types come
 * unchanged.
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
		return upstream.refused ?? passThrough(upstream.response, assetId, options)
	}
	// A variant is a whole new file: the browser's Range and validators are not the content service's.
	const cached = cachedVariant(ctx.site, assetId, width)
	const upstream = await ownAsset(ctx, assetId, options.courseSlug, cached ? { 'if-none-match': cached.source } : {})
	if (upstream.refused) return upstream.refused
	const { response } = upstream
	if (response.status === 304 && cached) return variantResponse(request, cached, assetId, options)
	if (response.status !== 200 || !canDecode(response)) return passThrough(response, assetId, options)
	return variantResponse(request, await variantOf(ctx.site, assetId, width, response), assetId, options)
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
	if (upstream.status === 404 || (belongsTo ?? undefined) !== courseSlug) {
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

function passThrough(upstream: Response, assetId: string, options: AssetOptions) {
	const headers = new Headers()
	for (const name of PASSED_THROUGH) {
		const value = upstream.headers.get(name)
		if (value) headers.set(name, value)
	}
	finishHeaders(headers, upstream.headers.get('x-asset-filename'), assetId, options)
	// The body is the upstream stream itself: never buffered whole.
	return new Response(upstream.body, { status: upstream.status, headers })
}

function variantResponse(request: Request, variant: Variant, assetId: string, options: AssetOptions) {
	const headers = new Headers({ 'content-type': variant.type, etag: variant.etag })
	if (variant.lastModified) headers.set('last-modified', variant.lastModified)
	finishHeaders(headers, variant.filename, assetId, options)
	if (matchesIfNoneMatch(request.headers.get('if-none-match'), variant.etag))
		return new Response(null, { status: 304, headers })
	headers.set('content-length', String(variant.bytes.length))
	return new Response(variant.bytes, { status: 200, headers })
}

function finishHeaders(headers: Headers, filename: string | null, assetId: string, options: AssetOptions) {
	headers.set('cache-control', CACHE_CONTROL)
	if (options.download)
		headers.set('content-disposition', `attachment; filename="${(filename ?? assetId).replace(/[^\w.-]+/g, '_')}"`)
}

/** The `/download` variant of an asset route. */
export function isDownload(request: Request) {
	return new URL(request.url).pathname.endsWith('/download')
}
