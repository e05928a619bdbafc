import { auditSteps, type AuditAction } from '#db/audit.ts'
import { setTenantSettingSteps, type Tenant, type TenantSetting } from '#db/tenants.ts'
import { inTransaction, type Steps, type Tx } from '#db/transaction.ts'
import { tenantTimeZone } from '../learning/due-dates.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { liveCustomDomain, TENANTS_TAG } from '../platform/tenant.server.ts'
import type { AdminScope } from './admin.server.ts'
import { adminJobs } from './jobs.server.ts'

/**
 * One setting of the tenant kept in feature_flags_json (decisions 0062, 0064), with its audit row;
 * the host cache is told at once. Nothing is written when it does not change.
 */
async function saveTenantSetting<K extends keyof TenantSetting>(
	scope: AdminScope,
	tenant: Tenant,
	key: K,
	change: { from: TenantSetting[K]; to: TenantSetting[K] },
	action: AuditAction,
	metadata: Record<string, unknown>,
	also?: (tx: Tx) => Steps<unknown>,
) {
	if (change.from === change.to) return
	await inTransaction(scope.ctx.db, function* (tx) {
		yield* setTenantSettingSteps(tx, tenant.id, key, change.to)
		if (also) yield* also(tx)
		yield* auditSteps(tx, adminAudit(scope, action, { kind: 'tenant', id: tenant.id, tenantId: tenant.id }, metadata))
	})
	scope.ctx.tags.revalidate([TENANTS_TAG])
}

/**
 * The tenant's time zone (decision 0064): the default of every learner who has chosen none, for due
 * dates, reminders and calendar feeds.
 */
export function saveTenantTimeZone(scope: AdminScope, tenant: Tenant, timeZone: string) {
	const change = { from: tenantTimeZone(tenant), to: timeZone }
	// The CMS's site takes the zone too: its authors type due dates in it (decision 0095).
	const provision = (tx: Tx) => adminJobs.enqueueSteps(tx, 'cms.provisionSite', { tenantId: tenant.id })
	return saveTenantSetting(
		scope,
		tenant,
		'timeZone',
		change,
		'tenant.settings_changed',
		{ timeZone: change },
		provision,
	)
}

/**
 * Marks the tenant's custom domain live (links, mails and canonical URLs name it from now on) or not
 * live (they name its subdomain again): decision 0062.
 */
export function setCustomDomainLive(scope: AdminScope, tenant: Tenant, live: boolean) {
	const change = { from: liveCustomDomain(tenant) !== null, to: live }
	return saveTenantSetting(scope, tenant, 'customDomainLive', change, 'tenant.domain_live', {
		domain: tenant.custom_domain,
		...change,
	})
}
