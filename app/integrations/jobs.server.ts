import { jobQueue } from '#app/platform/jobs.server.ts'
import type { WebhookDeliverJob } from '#db/webhooks.ts'

// This room's jobs (docs/decisions/0033-job-queue.md): their payloads and the queue they are written
// with. Their handlers are in ./job-handlers.server.ts; app/jobs.server.ts joins every room's.

export type IntegrationJobPayloads = {
	/** One attempt of an event at an endpoint (decision 0072); written by db/webhooks.ts with the change. */
	'webhook.deliver': WebhookDeliverJob
	/** The tenant's admins are told that an endpoint failing for too long was disabled. */
	'mail.webhookDisabled': { tenantId: string; endpointId: string }
}

export const integrationJobs = jobQueue<IntegrationJobPayloads>()
