import type { RequestContext } from '#app/context.ts'
import type { Database } from '#db/client.ts'
import { enqueueJobSteps } from '#db/jobs.ts'
import type { Locale, SecondChanceKind } from '#db/schema/values.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'

/*
 * The app's one way to leave work for later (docs/decisions/0033-job-queue.md): a job, written in
 * the transaction of the change it follows, run by the worker of some app process (server/queue.ts)
 * with retries. Handlers: app/platform/job-handlers.server.ts. Payloads carry ids and addresses, never
 * a secret: a mail's token is issued by its handler when it sends.
 */

/** Where a job's mail points and in which language: the host's origin, its tenant, the request's locale. */
export interface JobSite {
	origin: string
	tenantId: string | null
	locale: Locale
}

/** The titles of a course and an entry as the request had them, for when the content service fails later. */
export interface Titles {
	course: string
	entry: string
}

export interface JobPayloads {
	/** A confirmation link to a user whose address is not proven (sign-up, sign-in, a resend). */
	'mail.verification': JobSite & { userId: string; callbackUrl?: string }
	/** Sign-up with an address that has an account here: that account's owner is told, with sign-in and reset links. */
	'mail.accountExists': JobSite & { tenantId: string; email: string }
	/**
	 * "Send it again" after a sign-up (issue 40), for whoever has this address here: a new confirmation link
	 * while it is unconfirmed, the account-exists mail once it is, nothing without an account.
	 */
	'mail.signUpResend': JobSite & { tenantId: string; email: string; callbackUrl?: string }
	/** A reset link: to a known user (an admin's), or to whoever has this address here, if anyone (forgot password). */
	'mail.passwordReset': JobSite & ({ userId: string } | { tenantId: string; email: string })
	/** A sign-in link to whoever has this address here, if anyone. */
	'mail.magicLink': JobSite & { tenantId: string; email: string }
	/** The link confirming a new address, sent to that address. */
	'mail.emailChange': JobSite & { userId: string; newEmail: string }
	/** The account's owner is told their password was changed, with a reset link (decision 0041). */
	'mail.passwordChanged': JobSite & { userId: string }
	/** The address an account had is told it was replaced, with a reset link (decision 0041). */
	'mail.emailChanged': JobSite & { userId: string; oldEmail: string }
	/** An invitation's link (its token is rotated when it is sent). */
	'mail.invitation': JobSite & { tenantId: string; invitationId: string }
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
	'mail.watcherNotice': JobPayloads['mail.submissionReceived'] & { userId: string }
	/** The learner is told an admin enrolled them (decision 0040), with the course's title as the request had it. */
	'mail.enrolled': JobSite & { tenantId: string; courseSlug: string; userId: string; title: string }
	/** The learner is told their certificate is ready (written with the certificate). */
	'mail.certificateIssued': JobSite & { tenantId: string; courseSlug: string; certificateId: string }
	/** The learner is told staff gave them a second chance (decision 0037), written with the grant. */
	'mail.secondChance': JobSite & {
		tenantId: string
		courseSlug: string
		entrySlug: string
		userId: string
		kind: SecondChanceKind
		titles: Titles
	}
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
	/**
	 * The tenant's place in the CMS as the tenant is now (decision 0053): its site, authors' role and
	 * media folder, opened or locked by its status. Written with each creation and status change.
	 */
	'cms.provisionSite': { tenantId: string }
	/** Housekeeping: files of hand-ins whose own clean-up never ran. */
	'files.removeAbandoned': Record<string, never>
}

export type JobName = keyof JobPayloads

/** One job as a step of the caller's transaction. */
export function enqueueSteps<N extends JobName>(tx: Tx, name: N, payload: JobPayloads[N]) {
	return enqueueJobSteps(tx, name, payload as Record<string, unknown>)
}

/** One job, when it is the only write of the action. */
export function enqueue<N extends JobName>(db: Database, name: N, payload: JobPayloads[N]) {
	return inTransaction(db, (tx) => enqueueSteps(tx, name, payload))
}

/** The request's site for a job. */
export function jobSite(ctx: Pick<RequestContext, 'origin' | 'tenant' | 'locale'>): JobSite {
	return { origin: ctx.origin, tenantId: ctx.tenant?.id ?? null, locale: ctx.locale }
}
