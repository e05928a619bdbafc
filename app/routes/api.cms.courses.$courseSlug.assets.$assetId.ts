import { getRequestContext } from '#app/context.ts'
import { isDownload, proxyAsset } from '#app/content/assets.server.ts'
import { jsonError } from '#app/platform/errors.ts'
import { requireCourse } from '#app/learning/learning.server.ts'
import type { Route } from './+types/api.cms.courses.$courseSlug.assets.$assetId.ts'

/** A published course's asset, streamed (or as a download under /download); unknown or unpublished course: 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	try {
		await requireCourse(ctx, params.courseSlug)
	} catch (thrown) {
		if (thrown instanceof Response && thrown.status !== 503) return jsonError(404, 'NOT_FOUND', 'No such file')
		throw thrown
	}
	return proxyAsset(ctx, request, params.assetId, { courseSlug: params.courseSlug, download: isDownload(request) })
}
