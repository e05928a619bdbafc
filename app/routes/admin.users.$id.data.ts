import { redirect } from 'react-router'
import { requireAdmin } from '#app/admin/admin.server.ts'
import { archiveTarget, recordPersonArchive } from '#app/admin/person-archive.server.ts'
import { archiveDownload } from '#app/accounts/data-archive.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { fileStore } from '#app/learning/hand-in.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { withNotice } from '#app/platform/notices.ts'
import type { Route } from './+types/admin.users.$id.data.ts'

/**
 * A person's data archive, made by a tenant admin for them (issue 52, decision 0063): access
 * requests often reach the school, not the learner. A POST from the person's page answers the zip
 * the person would download themselves, recorded in the audit log and told to the person by mail
 * first; a GET leads back to the page. On a tenant's own host, for one of its people who is not
 * erased; 20 an hour per admin.
 */
/** The admin, this host's tenant and its person; 404 on the apex and for anyone not found here. */
async function requireArchivable(context: Route.LoaderArgs['context'], id: string) {
	const scope = requireAdmin(context)
	const tenant = scope.tenant
	if (!tenant) throw notFound()
	const target = await archiveTarget({ ...scope, tenant }, id)
	if (!target) throw notFound()
	return { scope: { ...scope, tenant }, target }
}

export async function loader({ context, params }: Route.LoaderArgs) {
	const { scope, target } = await requireArchivable(context, params.id)
	return redirect(localePath(scope.ctx.locale, `/admin/users/${target.id}`))
}

export async function action({ context, request, params }: Route.ActionArgs) {
	if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'GET, POST' } })
	// Not adminAction (decision 0060): a download, refused with a notice on the person's page rather than a
	// form's 429, and limited by its own personArchive policy. Someone not found here is 404 before it.
	const { scope, target } = await requireArchivable(context, params.id)
	const { ctx, tenant } = scope
	const { allowed } = await ctx.rateLimit.consume('personArchive', `user|${scope.session.user.id}`)
	if (!allowed)
		return redirect(localePath(ctx.locale, withNotice(`/admin/users/${target.id}`, 'personArchiveLimited')), 303)
	await recordPersonArchive(scope, target)
	const download = await archiveDownload(
		ctx.db,
		fileStore(ctx),
		{ tenantId: tenant.id, userId: target.id },
		tenant.slug,
	)
	if (!download) throw notFound()
	return download
}
