import { accountJobHandlers } from './accounts/job-handlers.server.ts'
import type { AccountJobPayloads } from './accounts/jobs.server.ts'
import { adminJobHandlers } from './admin/job-handlers.server.ts'
import type { AdminJobPayloads } from './admin/jobs.server.ts'
import { certificateJobHandlers } from './certificates/job-handlers.server.ts'
import type { CertificateJobPayloads } from './certificates/jobs.server.ts'
import { integrationJobHandlers } from './integrations/job-handlers.server.ts'
import type { IntegrationJobPayloads } from './integrations/jobs.server.ts'
import type { WebhookEnv } from './integrations/webhook-delivery.server.ts'
import { learningJobHandlers } from './learning/job-handlers.server.ts'
import type { LearningJobPayloads } from './learning/jobs.server.ts'
import { jobQueue, jobRunner, type JobDeps, type JobHandlers } from './platform/jobs.server.ts'
import { reminderJobHandlers } from './reminders/job-handlers.server.ts'
import type { ReminderJobPayloads } from './reminders/jobs.server.ts'
import type { ReminderEnv } from './reminders/reminders.server.ts'

/*
 * The one place every room's jobs meet (decision 0033, issue 50): each room declares its payloads
 * (app/<room>/jobs.server.ts) and handlers (app/<room>/job-handlers.server.ts); this module, above
 * every room, joins them into the worker's runner. `tsc` fails here when a kind of job has no handler.
 */

export type JobPayloads = AccountJobPayloads &
	LearningJobPayloads &
	CertificateJobPayloads &
	ReminderJobPayloads &
	AdminJobPayloads &
	IntegrationJobPayloads

/** What the worker's handlers run with: the app's database, content client and mailer, and the settings reminders need. */
export type AppJobDeps = JobDeps & { env: ReminderEnv & WebhookEnv }

const HANDLERS: JobHandlers<AppJobDeps, JobPayloads> = {
	...accountJobHandlers,
	...learningJobHandlers,
	...certificateJobHandlers,
	...reminderJobHandlers,
	...adminJobHandlers,
	...integrationJobHandlers,
}

/** The worker's runner (server/app.ts): the attempt's handler by its name, logged as `job/done`. */
export function createJobRunner(deps: AppJobDeps) {
	return jobRunner(HANDLERS, deps)
}

/** Any room's job, by name (tests and scripts that write a job directly). */
export const { enqueue } = jobQueue<JobPayloads>()
