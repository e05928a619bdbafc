import type { RequestContext } from '#app/context.ts'
import { jsonError } from './errors.ts'
import { describeError, log } from './log.server.ts'
import { ContentUnavailableError } from './cms.server.ts'

// Headers of the content service's answer that reach the browser; nothing else does.
const PASSED_THROUGH = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']
const FORWARDED = ['range', 'if-none-match', 'if-modified-since', 'if-range']

/**
 * Streams one asset of this host's site from the content service (the API key
 * is added upstream only). A course asset is served only under its own,
 * published course; a site asset only when it belongs to no course, so the
 * course check cannot be bypassed. Range and conditional requests pass through.
 */
export async function proxyAsset(ctx: RequestContext, request: Request, assetId: string, options: { courseSlug?: string; download: boolean }) {
	const forwarded: Record<string, string> = {}
	for (const name of FORWARDED) {
		const value = request.headers.get(name)
		if (value) forwarded[name] = value
	}
	let upstream: Response
	try {
		upstream = await ctx.cms.asset(ctx.site, assetId, forwarded)
	} catch (error) {
		if (!(error instanceof ContentUnavailableError)) throw error
		log.error('cms/asset-failed', { assetId, error: describeError(error) })
		return jsonError(503, 'SERVICE_UNAVAILABLE', 'The file is temporarily unavailable')
	}
	const belongsTo = upstream.headers.get('x-asset-course')
	if (upstream.status === 404 || (belongsTo ?? undefined) !== options.courseSlug) {
		await upstream.body?.cancel()
		return jsonError(404, 'NOT_FOUND', 'No such file')
	}
	if (upstream.status === 416) {
		await upstream.body?.cancel()
		const range = upstream.headers.get('content-range')
		return jsonError(416, 'BAD_REQUEST', 'The byte range cannot be satisfied', { headers: range ? { 'content-range': range } : {} })
	}
	if (![200, 206, 304].includes(upstream.status)) {
		await upstream.body?.cancel()
		log.error('cms/asset-failed', { assetId, status: upstream.status })
		return jsonError(503, 'SERVICE_UNAVAILABLE', 'The file is temporarily unavailable')
	}
	const headers = new Headers()
	for (const name of PASSED_THROUGH) {
		const value = upstream.headers.get(name)
		if (value) headers.set(name, value)
	}
	headers.set('cache-control', 'public, max-age=3600')
	if (options.download) {
		const filename = (upstream.headers.get('x-asset-filename') ?? assetId).replace(/[^\w.-]+/g, '_')
		headers.set('content-disposition', `attachment; filename="${filename}"`)
	}
	// The body is the upstream stream itself: never buffered whole.
	return new Response(upstream.body, { status: upstream.status, headers })
}

/** The `/download` variant of an asset route. */
export function isDownload(request: Request) {
	return new URL(request.url).pathname.endsWith('/download')
}
