import { jobQueue, type JobSite } from '#app/platform/jobs.server.ts'

// This room's jobs (docs/decisions/0033-job-queue.md): their payloads and the queue they are written
// with. Their handlers are in ./job-handlers.server.ts; app/jobs.server.ts joins every room's.

/** The mail of an issued certificate. */
export type CertificateJobPayloads = {
	/** The learner is told their certificate is ready (written with the certificate). */
	'mail.certificateIssued': JobSite & { tenantId: string; courseSlug: string; certificateId: string }
}

export const certificateJobs = jobQueue<CertificateJobPayloads>()
