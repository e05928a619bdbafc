/**
 * Strapi's own /uploads/ (its public folder, served by extension) answers like the app's asset
 * proxies (decision 0049): never sniffed, and anything but a raster image, audio or video as a
 * sandboxed attachment, so that a file stored before the upload types were checked
 * (src/utils/upload-types.ts) cannot run as a page of the CMS's origin, where authors are signed in.
 * The path is compared as the static server resolves it (`/./uploads/`, `//uploads/`, escapes).
 */
import type { Context, Next } from 'koa'
import path from 'node:path'

const INLINE = /^(?:image\/(?:png|jpeg|gif|webp|avif)|audio\/[\w.+-]+|video\/[\w.+-]+)$/

function servedPath(raw: string) {
	try {
		return path.posix.normalize(decodeURIComponent(raw))
	} catch {
		return path.posix.normalize(raw)
	}
}

export default () => async (ctx: Context, next: Next) => {
	await next()
	if (!servedPath(ctx.path).startsWith('/uploads/')) return
	ctx.set('X-Content-Type-Options', 'nosniff')
	if (INLINE.test(String(ctx.type).toLowerCase())) return
	ctx.set('Content-Security-Policy', "default-src 'none'; sandbox")
	ctx.set('Content-Disposition', 'attachment')
}
