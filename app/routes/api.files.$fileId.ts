import { Readable } from 'node:stream'
import { getRequestContext } from '#app/context.ts'
import { jsonError } from '#app/platform/errors.ts'
import { attachmentHeaders } from '#app/platform/served-files.server.ts'
import { fileStore } from '#app/learning/hand-in.server.ts'
import { canPreview } from '#app/learning/learning.server.ts'
import { limitJson } from '#app/platform/rate-limit.server.ts'
import { getSession } from '#app/accounts/session.server.ts'
import { findSubmissionFile } from '#app/learning/hand-in.server.ts'
import type { Route } from './+types/api.files.$fileId.ts'

/**
 * A handed-in file (decision 0027), to the learner who handed it in and to the course's staff
 * (assigned course admins, tenant and super admins) only. Anyone else, and any id that is not a
 * file of this tenant, gets the same 404: the answer never tells whether a file exists. Always a
 * download, with our content type, nosniff and a sandbox, so that no file runs in this origin.
 * 120 a minute per user (fileDownload).
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const session = getSession(context)
	if (!session) return jsonError(401, 'UNAUTHORIZED', 'Sign in to download this file.')
	// Before the lookup: each download reads the database, and a refused one counts as much as a served one.
	const limited = await limitJson(ctx.rateLimit, 'fileDownload', `user|${session.user.id}`, 'Too many downloads')
	if (limited) return limited
	const found = ctx.tenant ? await findSubmissionFile(ctx.db, ctx.tenant.id, params.fileId) : null
	const allowed =
		found && (found.submission.user_id === session.user.id || canPreview(session, found.submission.course_slug))
	if (!found || !allowed) return jsonError(404, 'NOT_FOUND', 'No such file')
	const { file } = found
	const body = Readable.toWeb(Readable.from(fileStore(ctx).read(file.id))) as ReadableStream<Uint8Array>
	return new Response(body, {
		headers: {
			'content-type': file.content_type,
			'content-length': String(file.size_bytes),
			...attachmentHeaders(file.file_name),
			// Private to the people allowed above, and never kept by a shared cache.
			'cache-control': 'private, no-store',
			etag: `"${file.sha256}"`,
		},
	})
}
