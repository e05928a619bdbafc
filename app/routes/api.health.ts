import { getRequestContext } from '#app/context.ts'
import { jsonError } from '#app/utils/errors.ts'
import { describeError, log } from '#app/utils/log.server.ts'
import type { Route } from './+types/api.health.ts'

export async function loader({ context }: Route.LoaderArgs) {
	const { db } = getRequestContext(context)
	try {
		await db.ping()
	} catch (error) {
		log.error('health/database-down', { error: describeError(error) })
		return jsonError(503, 'SERVICE_UNAVAILABLE', 'Database unreachable')
	}
	return Response.json({ status: 'ok', database: 'up' }, { headers: { 'cache-control': 'no-store' } })
}
