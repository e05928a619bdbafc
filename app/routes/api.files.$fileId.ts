import { getRequestContext } from '#app/context.ts'
import { jsonError } from '#app/platform/errors.ts'
import { attachmentHeaders, INERT_HEADERS } from '#app/platform/served-files.server.ts'
import { rangeAnswer } from '#app/platform/byte-ranges.ts'
import { fileStore } from '#app/learning/hand-in.server.ts'
import { pulledStream } from '#app/platform/file-store.server.ts'
import { canPreview } from '#app/learning/preview.server.ts'
import { limitJson } from '#app/platform/rate-limit.server.ts'
import { getSession } from '#app/accounts/session.server.ts'
import { findSubmissionFile } from '#app/learning/hand-in.server.ts'
import type { Route } from './+types/api.files.$fileId.ts'

/**
 * A handed-in file (decision 0027), to the learner who handed it in and to the course's staff
 * (assigned course admins, tenant and super admins) only. Anyone else, and any id that is not a
 * file of this tenant, gets the same 404: the answer never tells whether a file exists. Always a
 * download, with our content type, nosniff and a sandbox, so that no file runs in this origin.
 * 120 a minute per user (fileDownload). One byte range may be asked for (byte-ranges.ts), and
 * only the chunks that hold it are read; the body streams as the client takes it, the next chunk
 * read while the current one is sent (decision 0083).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
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
	const etag = `"${file.sha256}"`
	const headers: Record<string, string> = {
		'content-type': file.content_type,
		...attachmentHeaders(file.file_name),
		// Private to the people allowed above, and never kept by a shared cache.
		'cache-control': 'private, no-store',
		etag,
		'accept-ranges': 'bytes',
	}
	const size = file.size_bytes
	const answer = rangeAnswer(request.headers, size, etag)
	if (answer.kind === 'unsatisfiable')
		return jsonError(416, 'BAD_REQUEST', 'The range is not within the file.', {
			headers: { ...INERT_HEADERS, 'content-range': `bytes */${size}` },
		})
	const range = answer.kind === 'part' ? answer.range : undefined
	const body = pulledStream(fileStore(ctx).read(file.id, range))
	if (!range) return new Response(body, { headers: { ...headers, 'content-length': String(size) } })
	return new Response(body, {
		status: 206,
		headers: {
			...headers,
			'content-length': String(range.end - range.start + 1),
			'content-range': `bytes ${range.start}-${range.end}/${size}`,
		},
	})
}
