import { randomBytes } from 'node:crypto'
import { getRequestContext } from '#app/context.ts'
import { impersonatorCookie, impersonatorOf } from '#app/utils/admin.server.ts'
import { authenticateConsumed } from '#app/utils/auth.server.ts'
import { jsonError, postOnly } from '#app/utils/errors.ts'
import { commitUserSession, getSession } from '#app/utils/session.server.ts'
import { writeAudit } from '#db/audit.ts'
import { findUserById } from '#db/users.ts'
import type { Route } from './+types/api.admin.impersonate.stop.ts'

export const loader = postOnly

/** Impersonation stop: back to the original super_admin (from the signed cookie), cookie cleared, audited. */
export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const session = getSession(context)
	if (!session) return jsonError(401, 'UNAUTHORIZED', 'Sign in first')
	const impersonatorId = await impersonatorOf(ctx, request)
	const original = impersonatorId ? await findUserById(ctx.db, impersonatorId) : null
	if (!original || original.role !== 'super_admin' || original.deactivated_at) return jsonError(403, 'FORBIDDEN', 'You are not impersonating anyone')

	const result = await authenticateConsumed(ctx, original.id, `impersonate-stop-${randomBytes(9).toString('base64url')}`)
	if (!result.ok) return jsonError(403, 'FORBIDDEN', 'Could not restore your session')
	const { cookie } = await commitUserSession(ctx, result.user)
	await writeAudit(ctx.db, {
		actorUserId: original.id,
		action: 'auth.impersonate.stop',
		targetKind: 'user',
		targetId: session.user.id,
		tenantId: ctx.tenant?.id ?? null,
		metadata: { impersonatorId: original.id },
	})
	const headers = new Headers({ location: `/admin/users/${session.user.id}` })
	headers.append('set-cookie', cookie)
	headers.append('set-cookie', await impersonatorCookie(ctx).serialize('', { maxAge: 0 }))
	return new Response(null, { status: 303, headers })
}
