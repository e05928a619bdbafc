import { jobMailContext } from '#app/content/site.server.ts'
import type { JobDeps, JobHandlers } from '#app/platform/jobs.server.ts'
import { issueOwedCertificate, mailCertificate, type CertificateEnv } from './award.server.ts'
import type { CertificateJobPayloads } from './jobs.server.ts'

// What each of this room's jobs does when a worker runs it (decision 0033): a handler that throws has
// failed its attempt (retried, then given up and logged); its note says why it sent nothing.

export const certificateJobHandlers: JobHandlers<JobDeps & { env: CertificateEnv }, CertificateJobPayloads> = {
	async 'mail.certificateIssued'(deps, job) {
		return mailCertificate(await jobMailContext(deps, job), job)
	},
	async 'certificates.issue'(deps, job) {
		return issueOwedCertificate(deps, job)
	},
}
