import type { RequestContext } from '#app/context.ts'
import { findAuditRow } from '#db/audit.ts'
import { findInvitationById } from '#db/invitations.ts'
import { exactQueryValue, parseId } from './canonical.server.ts'
import { NOTICE_ID_PARAM, NOTICES, readNotice, type NoticeName, type NoticeRef } from './notices.ts'

/** The values a sentence names, from the row a notice's id names in the host's tenant; null when there is none. */
const LOOKUPS: Record<
	NoticeRef,
	(ctx: RequestContext, tenantId: string, id: string) => Promise<Record<string, string> | null>
> = {
	invitation: async (ctx, tenantId, id) => {
		const invitation = await findInvitationById(ctx.db, tenantId, id)
		return invitation && { email: invitation.email }
	},
	// A revoked invitation no longer exists: its audit row keeps the address (decision 0026).
	revokedInvitation: async (ctx, tenantId, id) => {
		const row = await findAuditRow(ctx.db, tenantId, 'invitation.revoked', id)
		const email = (row?.metadata as { email?: unknown } | undefined)?.email
		return typeof email === 'string' ? { email } : null
	},
}

/**
 * What the page's notice names (decision 0032), for a page that accepts a notice with a `ref`: the
 * values its loader passes to <RedirectNotice values>. Looked up by the id the redirect carried
 * (exactly as written, canonical.server.ts) in the host's tenant; null when the URL carries no such
 * notice, no id, another tenant's or an unknown one. Never a value from the URL.
 */
export async function noticeValues(ctx: RequestContext, request: Request, accepted: readonly NoticeName[]) {
	const url = new URL(request.url)
	const name = readNotice(url.searchParams, accepted)
	const notice = name ? NOTICES[name] : null
	if (!notice || !('ref' in notice) || !ctx.tenant) return null
	const id = parseId(exactQueryValue(url.search, NOTICE_ID_PARAM))
	return id ? LOOKUPS[notice.ref](ctx, ctx.tenant.id, id) : null
}
