import { redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import { sessionFromProof } from '#app/utils/auth.server.ts'
import { writeAudit } from '#db/audit.ts'
import type { Route } from './+types/admin.enter.ts'
import { notFound } from '#app/utils/errors.ts'

/**
 * The tenant override: a super_admin (who belongs to no tenant) arrives here
 * from /admin/tenants on the apex with a proof, valid for 60 seconds, once, and
 * bound to this tenant, and gets a session on this tenant's host.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const url = new URL(request.url)
	const userId = url.searchParams.get('user') ?? ''
	const proof = url.searchParams.get('proof') ?? ''
	if (!ctx.tenant || proof.split('.')[0] !== `enter-${ctx.tenant.id}`) throw notFound()
	// Each proof mints one session: a replayed link (history, logs, a shared screen) is a 404.
	const signedIn = await sessionFromProof(ctx, userId, proof, { role: 'super_admin' })
	if (!signedIn) throw notFound()
	await writeAudit(ctx.db, {
		actorUserId: signedIn.user.id,
		action: 'auth.tenant_override',
		targetKind: 'tenant',
		targetId: ctx.tenant.id,
		tenantId: ctx.tenant.id,
	})
	return redirect(localePath(ctx.locale, '/admin'), { headers: { 'set-cookie': signedIn.cookie } })
}
