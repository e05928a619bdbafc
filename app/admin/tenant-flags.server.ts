import type { Tenant } from '#db/tenants.ts'

/** The tenant's magicLink flag; enabled when absent (spec). */
export function magicLinkEnabled(tenant: Tenant) {
	return tenant.feature_flags_json?.magicLink !== false
}
