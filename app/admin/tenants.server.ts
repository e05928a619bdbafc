import type { RequestContext } from '#app/context.ts'
import { bumpTenantTokenVersionsSteps } from '#db/admin.ts'
import { auditSteps } from '#db/audit.ts'
import type { TenantStatus } from '#db/schema/values.ts'
import { createTenantSteps, setTenantStatusSteps, type Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { adminJobs } from './jobs.server.ts'
import { offerInvitationSteps, withdrawInvitationsSteps } from '../accounts/invitations.server.ts'
import { tenantOrigin, type AdminScope } from './admin.server.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { TENANTS_TAG } from '../platform/tenant.server.ts'

export { findTenantById, listTenants } from '#db/tenants.ts'

/** Hosts under APP_BASE_DOMAIN are tenants' subdomains and the apex: a custom domain there would take another's. */
export function reservedDomain(ctx: RequestContext, domain: string) {
	return domain === ctx.env.APP_BASE_DOMAIN || domain.endsWith(`.${ctx.env.APP_BASE_DOMAIN}`)
}

/**
 * The status, the sessions it ends, the invitations it withdraws and the audit rows, together; then
 * every process's host lookup is told (TENANTS_TAG).
 */
export async function setTenantStatus(scope: AdminScope, tenant: Tenant, status: TenantStatus) {
	const action = ({ suspended: 'tenant.suspended', active: 'tenant.activated', archived: 'tenant.archived' } as const)[
		status
	]
	await inTransaction(scope.ctx.db, function* (tx) {
		yield* setTenantStatusSteps(tx, tenant.id, status)
		// Its authors are locked out of the CMS, or let back in (decision 0053).
		yield* adminJobs.enqueueSteps(tx, 'cms.provisionSite', { tenantId: tenant.id })
		if (status !== 'active') {
			// Suspension and archiving end every session of the tenant's users at once, and withdraw its
			// pending invitations: a link must not become an account the day the tenant is back (0032).
			yield* bumpTenantTokenVersionsSteps(tx, tenant.id)
			yield* withdrawInvitationsSteps(tx, { tenantId: tenant.id }, (row) =>
				adminAudit(
					scope,
					'invitation.revoked',
					{ kind: 'invitation', id: row.id, tenantId: tenant.id },
					{
						email: row.email,
						role: row.role,
						courseSlug: row.course_slug,
						reason: status === 'suspended' ? 'tenant_suspended' : 'tenant_archived',
					},
				),
			)
		}
		yield* auditSteps(
			tx,
			adminAudit(
				scope,
				action,
				{ kind: 'tenant', id: tenant.id, tenantId: tenant.id },
				{ from: tenant.status, to: status },
			),
		)
	})
	scope.ctx.tags.revalidate([TENANTS_TAG])
}

/**
 * The tenant, its first admin's invitation (mailed from the tenant's own host, in this page's
 * language) and their audit rows, together: a tenant never exists without someone invited to run it.
 * Null when the slug or the domain is taken.
 */
export async function createTenant(
	scope: AdminScope,
	input: { slug: string; name: string; custom_domain?: string; admin_email: string },
) {
	const { ctx } = scope
	const { slug, name, custom_domain, admin_email } = input
	const created = await inTransaction(ctx.db, function* (tx) {
		const tenant = yield* createTenantSteps(tx, { slug, name, custom_domain: custom_domain ?? null })
		if (!tenant) return null
		// Its site, authors' role and media folder in the CMS, made by a job that survives a crash (decision 0053).
		yield* adminJobs.enqueueSteps(tx, 'cms.provisionSite', { tenantId: tenant.id })
		yield* auditSteps(
			tx,
			adminAudit(scope, 'tenant.created', { kind: 'tenant', id: tenant.id, tenantId: tenant.id }, { slug, name }),
		)
		const site = { origin: tenantOrigin(ctx, tenant), tenantId: tenant.id, locale: ctx.locale }
		const invitation = {
			tenantId: tenant.id,
			email: admin_email,
			role: 'tenant_admin' as const,
			invitedBy: scope.session.user.id,
		}
		const { invitation: row } = yield* offerInvitationSteps(tx, site, invitation)
		yield* auditSteps(
			tx,
			adminAudit(
				scope,
				'invitation.sent',
				{ kind: 'invitation', id: row.id, tenantId: tenant.id },
				{ email: row.email, role: row.role, courseSlug: null },
			),
		)
		return tenant
	})
	if (created) ctx.tags.revalidate([TENANTS_TAG])
	return created
}
