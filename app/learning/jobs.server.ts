import { jobQueue, type JobSite } from '#app/platform/jobs.server.ts'
import type { SecondChanceKind } from '#db/schema/values.ts'

// This room's jobs (docs/decisions/0033-job-queue.md): their payloads and the queue they are written
// with. Their handlers are in ./job-handlers.server.ts; app/jobs.server.ts joins every room's.

/** The titles of a course and an entry as the request had them, for when the content service fails later. */
export interface Titles {
	course: string
	entry: string
}

/** Grading notices, second chances and the hand-ins' housekeeping. */
export type LearningJobPayloads = {
	/** The learner is told their work was graded or returned. */
	'mail.gradeNotice': JobSite & { tenantId: string; courseSlug: string; submissionId: string; titles: Titles }
	/** Staff who opted in are told of a hand-in. */
	'mail.submissionReceived': JobSite & {
		tenantId: string
		courseSlug: string
		submissionId: string
		titles: Titles
	}
	/** One watcher's notice of a hand-in (left by the job above, one per recipient). */
	'mail.watcherNotice': LearningJobPayloads['mail.submissionReceived'] & { userId: string }
	/** The learner is told staff gave them a second chance (decision 0037), written with the grant. */
	'mail.secondChance': JobSite & {
		tenantId: string
		courseSlug: string
		entrySlug: string
		userId: string
		kind: SecondChanceKind
		titles: Titles
	}
	/** Housekeeping: files of hand-ins whose own clean-up never ran. */
	'files.removeAbandoned': Record<string, never>
}

export const learningJobs = jobQueue<LearningJobPayloads>()
