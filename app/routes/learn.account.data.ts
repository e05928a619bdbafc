import { redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { archiveDownload } from '#app/accounts/data-archive.server.ts'
import { fileStore } from '#app/learning/hand-in.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { withNotice } from '#app/platform/notices.ts'
import { notFound } from '#app/platform/errors.ts'
import type { Route } from './+types/learn.account.data.ts'

/**
 * A learner's data archive (decision 0044): a POST from the account page's form answers the zip
 * as a download; with JavaScript or without, the browser stays on the page. A GET changes
 * nothing and gives nothing: it leads back to the account page. Only the signed-in person's own
 * rows of this host's tenant; never while a super admin acts as them; 5 an hour per person.
 */
export function loader({ context }: Route.LoaderArgs) {
	requireSession(context)
	return redirect(localePath(getRequestContext(context).locale, '/learn/account'))
}

export async function action({ context, request }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const session = requireSession(context)
	// The form posts; PUT, PATCH and DELETE reach actions too, and are no way to ask for a copy.
	if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'GET, POST' } })
	const back = (notice: 'archiveLimited' | 'archiveImpersonating') =>
		redirect(localePath(ctx.locale, withNotice('/learn/account', notice)), 303)
	if (session.impersonator) return back('archiveImpersonating')
	const tenantId = session.user.tenant_id
	// A platform account's rows are no tenant's: there is no archive of one on a tenant's site.
	if (!ctx.tenant || tenantId !== ctx.tenant.id) throw notFound()
	const { allowed } = await ctx.rateLimit.consume('dataArchive', `user|${session.user.id}`)
	if (!allowed) return back('archiveLimited')
	const download = await archiveDownload(ctx.db, fileStore(ctx), { tenantId, userId: session.user.id }, ctx.tenant.slug)
	if (!download) throw notFound()
	return download
}
