import { jobQueue, type JobSite } from '#app/platform/jobs.server.ts'

// This room's jobs (docs/decisions/0033-job-queue.md): their payloads and the queue they are written
// with. Their handlers are in ./job-handlers.server.ts; app/jobs.server.ts joins every room's.

/** The reminder sweep, its mails and course announcements (decision 0047). */
export type ReminderJobPayloads = {
	/**
	 * The reminder sweep (decision 0047), scheduled once per REMINDER_SWEEP_SECONDS across every process:
	 * records each reminder due and writes its mail's job in one transaction per reminder.
	 */
	'reminders.sweep': Record<string, never>
	/** One reminder mail, recorded in reminders_sent by the sweep that wrote this job. */
	'mail.reminder': JobSite & {
		tenantId: string
		userId: string
		kind: 'inactivity' | 'due_soon'
		courseSlug: string
		/** The due kind's entry and its due date (ISO), absent for inactivity. */
		entrySlug?: string
		dueAt?: string
		/** Inactivity: the days of the threshold, as the mail says them. */
		days?: number
	}
	/** An announcement's fan-out (written with it): one 'mail.announcement' per learner still to reach. */
	'announcement.fanOut': JobSite & { tenantId: string; announcementId: string }
	/** One learner's mail of an announcement. */
	'mail.announcement': JobSite & { tenantId: string; announcementId: string; userId: string }
}

export const reminderJobs = jobQueue<ReminderJobPayloads>()
