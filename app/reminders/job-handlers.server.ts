import { jobMailContext } from '#app/content/site.server.ts'
import type { JobDeps, JobHandlers } from '#app/platform/jobs.server.ts'
import { fanOutAnnouncement, mailAnnouncement } from './announcements.server.ts'
import type { ReminderJobPayloads } from './jobs.server.ts'
import { mailReminder, sweepReminders, type ReminderEnv } from './reminders.server.ts'

// What each of this room's jobs does when a worker runs it (decision 0033): a handler that throws has
// failed its attempt (retried, then given up and logged); its note says why it sent nothing.

export const reminderJobHandlers: JobHandlers<JobDeps & { env: ReminderEnv }, ReminderJobPayloads> = {
	async 'reminders.sweep'(deps) {
		await sweepReminders(deps)
	},
	async 'mail.reminder'(deps, job) {
		return mailReminder({ ...(await jobMailContext(deps, job)), env: deps.env }, job)
	},
	async 'announcement.fanOut'(deps, job) {
		return fanOutAnnouncement(await jobMailContext(deps, job), job)
	},
	async 'mail.announcement'(deps, job) {
		return mailAnnouncement({ ...(await jobMailContext(deps, job)), env: deps.env }, job)
	},
}
