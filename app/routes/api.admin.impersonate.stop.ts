import { randomBytes } from 'node:crypto'
import { getRequestContext } from '#app/context.ts'
import { impersonatorCookie, readImpersonator } from '#app/admin/admin.server.ts'
import { stopImpersonation } from '#app/admin/impersonation.server.ts'
import { mintConsumedTokenProof, requireSession } from '#app/accounts/auth.server.ts'
import { jsonError, postOnly } from '#app/platform/errors.ts'
import { sessionCookie } from '#app/accounts/session.server.ts'
import type { Route } from './+types/api.admin.impersonate.stop.ts'

export const loader = postOnly

/**
 * Impersonation stop: back to the original super_admin, cookie cleared,
 * audited. Only the impersonated session itself can stop: its stored row names
 * the super_admin session it was started from, which must still be valid (not
 * signed out, not expired, same tenant, token_version unchanged), and the
 * `__impersonator_uid` cookie must name that super_admin. A copied or leftover
 * cookie next to any other session is worth nothing.
 */
export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	// Under /api/, 401 in the JSON envelope for no session.
	const session = requireSession(context)
	const marker = await readImpersonator(ctx, request)
	const origin = session.impersonator
	if (!origin || marker !== origin.userId) return jsonError(403, 'FORBIDDEN', 'You are not impersonating anyone')

	const proof = mintConsumedTokenProof(
		ctx,
		{ id: origin.userId, token_version: origin.tokenVersion },
		`impersonate-stop-${randomBytes(9).toString('base64url')}`,
	)
	const restored = await stopImpersonation(ctx, session, origin, proof)
	if (!restored) return jsonError(403, 'FORBIDDEN', 'Could not restore your session')
	const commit = await sessionCookie(ctx, restored)
	const headers = new Headers({ location: `/admin/users/${session.user.id}` })
	headers.append('set-cookie', commit.cookie)
	headers.append('set-cookie', await impersonatorCookie(ctx).serialize('', { maxAge: 0 }))
	return new Response(null, { status: 303, headers })
}
