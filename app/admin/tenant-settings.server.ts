import { auditSteps } from '#db/audit.ts'
import { setTenantSettingSteps, type Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { tenantTimeZone } from '../learning/due-dates.server.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { TENANTS_TAG } from '../platform/tenant.server.ts'
import type { AdminScope } from './admin.server.ts'

/**
 * The tenant's time zone (decision 0064): the default of every learner who has chosen none, for due
 * dates, reminders and calendar feeds. Saved with its audit row; the host cache is told at once.
 */
export async function saveTenantTimeZone(scope: AdminScope, tenant: Tenant, timeZone: string) {
	const from = tenantTimeZone(tenant)
	if (from === timeZone) return
	await inTransaction(scope.ctx.db, function* (tx) {
		yield* setTenantSettingSteps(tx, tenant.id, 'timeZone', timeZone)
		yield* auditSteps(
			tx,
			adminAudit(
				scope,
				'tenant.settings_changed',
				{ kind: 'tenant', id: tenant.id, tenantId: tenant.id },
				{
					timeZone: { from, to: timeZone },
				},
			),
		)
	})
	scope.ctx.tags.revalidate([TENANTS_TAG])
}
