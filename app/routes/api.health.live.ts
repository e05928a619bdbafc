import { livenessResponse } from '#app/platform/api-schemas.ts'

/** Liveness: the process answers; nothing it depends on is asked (docs/decisions/0017-faults.md). */
export function loader() {
	return Response.json(livenessResponse.parse({ status: 'ok' }), { headers: { 'cache-control': 'no-store' } })
}
