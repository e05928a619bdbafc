import { randomBytes } from 'node:crypto'
import { getRequestContext } from '#app/context.ts'
import { impersonatorCookie } from '#app/utils/admin.server.ts'
import { mintConsumedTokenProof, sessionFromProof } from '#app/utils/auth.server.ts'
import { jsonError, postOnly } from '#app/utils/errors.ts'
import { getSession } from '#app/utils/session.server.ts'
import { writeAudit } from '#db/audit.ts'
import { revokeSession } from '#db/sessions.ts'
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
	const session = getSession(context)
	if (!session) return jsonError(401, 'UNAUTHORIZED', 'Sign in first')
	const marker = await impersonatorCookie(ctx).parse(request.headers.get('cookie'))
	const origin = session.impersonator
	if (!origin || marker !== origin.userId) return jsonError(403, 'FORBIDDEN', 'You are not impersonating anyone')

	const proof = mintConsumedTokenProof(ctx, origin.userId, `impersonate-stop-${randomBytes(9).toString('base64url')}`)
	const commit = await sessionFromProof(ctx, origin.userId, proof, { role: 'super_admin' })
	if (!commit) return jsonError(403, 'FORBIDDEN', 'Could not restore your session')
	// The impersonated session and the one it was started from are both replaced by the new one.
	await revokeSession(ctx.db, session.id)
	await revokeSession(ctx.db, origin.sessionId)
	await writeAudit(ctx.db, {
		actorUserId: origin.userId,
		action: 'auth.impersonate.stop',
		targetKind: 'user',
		targetId: session.user.id,
		tenantId: ctx.tenant?.id ?? null,
		metadata: { impersonatorId: origin.userId },
	})
	const headers = new Headers({ location: `/admin/users/${session.user.id}` })
	headers.append('set-cookie', commit.cookie)
	headers.append('set-cookie', await impersonatorCookie(ctx).serialize('', { maxAge: 0 }))
	return new Response(null, { status: 303, headers })
}
