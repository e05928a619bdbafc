import { getRequestContext } from '#app/context.ts'
import { healthResponse } from '#app/utils/api-contract.ts'
import { jsonError } from '#app/utils/errors.ts'
import { describeError, log } from '#app/utils/log.server.ts'
import type { Route } from './+types/api.health.ts'

/** Database connectivity and, where REDIS_URL is set, Redis. */
export async function loader({ context }: Route.LoaderArgs) {
	const { db, redis } = getRequestContext(context)
	try {
		await db.ping()
	} catch (error) {
		log.error('health/database-down', { error: describeError(error) })
		return jsonError(503, 'SERVICE_UNAVAILABLE', 'Database unreachable')
	}
	if (redis) {
		try {
			await Promise.race([redis.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000))])
		} catch (error) {
			log.error('health/redis-down', { error: describeError(error) })
			return jsonError(503, 'SERVICE_UNAVAILABLE', 'Redis unreachable')
		}
	}
	return Response.json(healthResponse.parse({ status: 'ok', database: 'up', ...(redis ? { redis: 'up' } : {}) }), { headers: { 'cache-control': 'no-store' } })
}
