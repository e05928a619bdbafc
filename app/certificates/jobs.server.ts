import { jobQueue, type JobSite } from '#app/platform/jobs.server.ts'

// This room's jobs (docs/decisions/0033-job-queue.md): their payloads and the queue they are written
// with. Their handlers are in ./job-handlers.server.ts; app/jobs.server.ts joins every room's.

/** The mail of an issued certificate. */
export type CertificateJobPayloads = {
	/** The learner is told their certificate is ready (written with the certificate). */
	'mail.certificateIssued': JobSite & { tenantId: string; courseSlug: string; certificateId: string }
	/**
	 * The certificate a pass earned (written with the pass): issued by the request after its commit, and
	 * by this job when that failed (idempotent: a learner's live certificate is never issued twice, and
	 * one issued since `passedAt` and revoked by staff is not issued again).
	 */
	'certificates.issue': JobSite & { tenantId: string; userId: string; courseSlug: string; passedAt?: string }
}

export const certificateJobs = jobQueue<CertificateJobPayloads>()
