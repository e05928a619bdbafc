import { getRequestContext } from '#app/context.ts'
import { healthResponse } from '#app/platform/api-schemas.ts'
import { jsonError } from '#app/platform/errors.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import type { Route } from './+types/api.health.ts'

// Within 500 ms whatever the database does (issue 46): db.ping answers at once when the database is known to be
// down or silent, else within 300 ms itself (db/liveness.ts); this is the backstop.
const PROBE_TIMEOUT_MS = 450

/** Fails after `ms`: a probe answers within its time whatever the dependency does. */
function within<T>(ms: number, work: Promise<T>) {
	return Promise.race([
		work,
		new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
	])
}

/** 'up' when `work` succeeds within PROBE_TIMEOUT_MS, else 'down', told to `onDown`. */
function state(work: Promise<unknown>, onDown: (error: unknown) => void) {
	return within(PROBE_TIMEOUT_MS, work).then(
		() => 'up' as const,
		(error) => (onDown(error), 'down' as const),
	)
}

/**
 * Readiness (docs/decisions/0017-faults.md): the database answers within a
 * second. Redis is reported but not required: without it the rate limits
 * count per process and everything else works, so a load balancer must not
 * take every backend out for it. Liveness is /api/health/live.
 */
export async function loader({ context }: Route.LoaderArgs) {
	const { db, redis } = getRequestContext(context)
	// Both asked at once: the answer takes the longer of the two waits, never their sum.
	const [database, redisState] = await Promise.all([
		state(db.ping(), (error) => log.error('health/database-down', { error: describeError(error) })),
		redis ? state(redis.ping(), (error) => log.warn('health/redis-down', { error: describeError(error) })) : undefined,
	])
	if (database === 'down') return jsonError(503, 'SERVICE_UNAVAILABLE', 'Database unreachable')
	return Response.json(
		healthResponse.parse({ status: 'ok', database: 'up', ...(redisState ? { redis: redisState } : {}) }),
		{ headers: { 'cache-control': 'no-store' } },
	)
}
