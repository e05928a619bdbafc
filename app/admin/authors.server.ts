import { auditSteps } from '#db/audit.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { ContentUnavailableError, type AuthorInvitation } from '../content/cms.server.ts'
import { log } from '../platform/log.server.ts'
import type { AdminScope } from './admin.server.ts'
import { adminAudit } from '../platform/audit.server.ts'

/**
 * A tenant admin's invitation of an author to the CMS (decision 0053): the CMS makes the account
 * with the tenant's authors' role (or adds the role to an account it has) and answers the
 * registration link, which the page shows to pass on, as Strapi's own invitation screen does. The
 * change is the CMS's, so the audit row follows its answer. Null (the page answers 409) when the CMS takes no author for
 * this tenant (the local content service has none; a site not provisioned yet, or suspended) or
 * cannot be reached.
 */
export async function inviteAuthor(scope: AdminScope, tenant: Tenant, email: string): Promise<AuthorInvitation | null> {
	let invitation: AuthorInvitation | null
	try {
		invitation = await scope.ctx.cms.uncached.inviteAuthor(tenant.slug, email)
	} catch (error) {
		if (!(error instanceof ContentUnavailableError)) throw error
		log.error('cms/invite-failed', { tenant: tenant.slug, detail: error.detail })
		return null
	}
	if (!invitation) return null
	await inTransaction(scope.ctx.db, (tx) =>
		auditSteps(
			tx,
			adminAudit(
				scope,
				'author.invited',
				{ kind: 'tenant', id: tenant.id, tenantId: tenant.id },
				{ email: invitation.email, state: invitation.state },
			),
		),
	)
	return invitation
}
