import { jobQueue, type JobSite } from '#app/platform/jobs.server.ts'

// This room's jobs (docs/decisions/0033-job-queue.md): their payloads and the queue they are written
// with. Their handlers are in ./job-handlers.server.ts; app/jobs.server.ts joins every room's.

/** What admins' actions leave for later: an enrolment's mail, a tenant's place in the CMS. */
export type AdminJobPayloads = {
	/** The learner is told an admin enrolled them (decision 0040), with the course's title as the request had it. */
	'mail.enrolled': JobSite & { tenantId: string; courseSlug: string; userId: string; title: string }
	/**
	 * The tenant's place in the CMS as the tenant is now (decision 0053): its site, authors' role and
	 * media folder, opened or locked by its status. Written with each creation and status change.
	 */
	'cms.provisionSite': { tenantId: string }
}

export const adminJobs = jobQueue<AdminJobPayloads>()
