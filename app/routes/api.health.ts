import { getRequestContext } from '#app/context.ts'
import { healthResponse } from '#app/platform/api-contract.ts'
import { jsonError } from '#app/platform/errors.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import type { Route } from './+types/api.health.ts'

// Within 500 ms whatever the database does (issue 46): db.ping answers within 300 ms itself (db/liveness.ts).
const PROBE_TIMEOUT_MS = 450

/** Fails after `ms`: a probe answers within its time whatever the dependency does. */
function within<T>(ms: number, work: Promise<T>) {
	return Promise.race([
		work,
		new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
	])
}

/**
 * Readiness (docs/decisions/0017-faults.md): the database answers within a
 * second. Redis is reported but not required: without it the rate limits
 * count per process and everything else works, so a load balancer must not
 * take every backend out for it. Liveness is /api/health/live.
 */
export async function loader({ context }: Route.LoaderArgs) {
	const { db, redis } = getRequestContext(context)
	try {
		await within(PROBE_TIMEOUT_MS, db.ping())
	} catch (error) {
		log.error('health/database-down', { error: describeError(error) })
		return jsonError(503, 'SERVICE_UNAVAILABLE', 'Database unreachable')
	}
	let redisState: 'up' | 'down' | undefined
	if (redis) {
		redisState = await within(PROBE_TIMEOUT_MS, redis.ping()).then(
			() => 'up' as const,
			(error) => {
				log.warn('health/redis-down', { error: describeError(error) })
				return 'down' as const
			},
		)
	}
	return Response.json(
		healthResponse.parse({ status: 'ok', database: 'up', ...(redisState ? { redis: redisState } : {}) }),
		{ headers: { 'cache-control': 'no-store' } },
	)
}
