import { jobMailContext } from '#app/content/site.server.ts'
import type { JobDeps, JobHandlers } from '#app/platform/jobs.server.ts'
import { fanOutSubmissionNotice, mailGradeNotice, mailWatcherNotice } from './grading.server.ts'
import { removeAbandonedFiles } from './hand-in.server.ts'
import type { LearningJobPayloads } from './jobs.server.ts'
import { mailSecondChance } from './second-chances.server.ts'

// What each of this room's jobs does when a worker runs it (decision 0033): a handler that throws has
// failed its attempt (retried, then given up and logged); its note says why it sent nothing.

export const learningJobHandlers: JobHandlers<JobDeps, LearningJobPayloads> = {
	async 'mail.gradeNotice'(deps, job) {
		return mailGradeNotice(await jobMailContext(deps, job), job)
	},
	async 'mail.submissionReceived'(deps, job) {
		return fanOutSubmissionNotice(await jobMailContext(deps, job), job)
	},
	async 'mail.watcherNotice'(deps, job) {
		return mailWatcherNotice(await jobMailContext(deps, job), job)
	},
	async 'mail.secondChance'(deps, job) {
		return mailSecondChance(await jobMailContext(deps, job), job)
	},
	async 'files.removeAbandoned'(deps) {
		await removeAbandonedFiles(deps)
	},
}
