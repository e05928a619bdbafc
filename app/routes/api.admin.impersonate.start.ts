import { randomBytes } from 'node:crypto'
import { impersonatorCookie, requireSuperAdmin } from '#app/admin/admin.server.ts'
import { startImpersonation } from '#app/admin/impersonation.server.ts'
import { findScopedUser } from '#app/admin/users.server.ts'
import { impersonationRequest } from '#app/platform/api-schemas.ts'
import { mintConsumedTokenProof, roleLanding } from '#app/accounts/auth.server.ts'
import { forbidden, jsonError, postOnly } from '#app/platform/errors.ts'
import { readForm } from '#app/platform/forms.server.ts'
import { sessionCookie } from '#app/accounts/session.server.ts'
import type { Route } from './+types/api.admin.impersonate.start.ts'

export const loader = postOnly

/**
 * Impersonation start (spec, Authentication 12): a super_admin, on the target
 * user's tenant host, becomes that user through a one-time proof on the
 * consumed-token path. The session is a normal session of the target that
 * names the super_admin session it was started from and lasts an hour; the
 * signed, HTTP-only `__impersonator_uid` cookie remembers who to go back to.
 */
export async function action({ request, context }: Route.ActionArgs) {
	// The admin pages' guard: under /api/ it answers 401 and 403 in the JSON envelope.
	const { ctx, session } = requireSuperAdmin(context)
	// A session that is itself an impersonation starts no other (its user is never a super_admin anyway).
	if (session.impersonator) throw forbidden()
	if (!ctx.tenant) return jsonError(400, 'BAD_REQUEST', 'Open the tenant’s own site to impersonate one of its users')
	const body = request.headers.get('content-type')?.includes('application/json')
		? await request.json().catch(() => ({}))
		: Object.fromEntries(await readForm(request))
	const parsed = impersonationRequest.safeParse(body)
	if (!parsed.success) return jsonError(404, 'NOT_FOUND', 'No such user on this site')
	const target = await findScopedUser(ctx.db, ctx.tenant.id, parsed.data.userId)
	if (!target || target.role === 'super_admin') return jsonError(404, 'NOT_FOUND', 'No such user on this site')
	if (target.deactivated_at) return jsonError(400, 'BAD_REQUEST', 'This account is deactivated')

	const proof = mintConsumedTokenProof(ctx, target, `impersonate-${randomBytes(9).toString('base64url')}`)
	// The target's session and the audit row, together.
	const started = await startImpersonation(ctx, session, { id: target.id, tenantId: ctx.tenant.id }, proof)
	if (!started) return jsonError(400, 'BAD_REQUEST', 'Could not start impersonating')
	const commit = await sessionCookie(ctx, started)
	const headers = new Headers({ location: roleLanding(commit.claims) })
	headers.append('set-cookie', commit.cookie)
	headers.append('set-cookie', await impersonatorCookie(ctx).serialize(session.user.id))
	return new Response(null, { status: 303, headers })
}
