import { jobMailContext } from '#app/content/site.server.ts'
import type { JobDeps, JobHandlers } from '#app/platform/jobs.server.ts'
import { findTenantById } from '#db/tenants.ts'
import { tenantTimeZone } from '../learning/due-dates.ts'
import type { AdminJobPayloads } from './jobs.server.ts'
import { mailEnrollment } from './onboarding.server.ts'

// What each of this room's jobs does when a worker runs it (decision 0033): a handler that throws has
// failed its attempt (retried, then given up and logged); its note says why it sent nothing.

export const adminJobHandlers: JobHandlers<JobDeps, AdminJobPayloads> = {
	async 'mail.enrolled'(deps, job) {
		return mailEnrollment(await jobMailContext(deps, job), job)
	},
	async 'cms.provisionSite'(deps, job) {
		// The tenant as it is when the job runs, not as it was written: jobs of two changes that run out
		// of order, or a retry after a later change, still leave the CMS as the tenant is.
		const tenant = await findTenantById(deps.db, job.tenantId)
		if (tenant)
			await deps.cms.uncached.provisionSite(tenant.slug, {
				name: tenant.name,
				status: tenant.status,
				// Authors type due dates in it (decision 0095).
				timeZone: tenantTimeZone(tenant),
			})
	},
}
