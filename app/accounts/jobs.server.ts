import { jobQueue, type JobSite } from '#app/platform/jobs.server.ts'

// This room's jobs (docs/decisions/0033-job-queue.md): their payloads and the queue they are written
// with. Their handlers are in ./job-handlers.server.ts; app/jobs.server.ts joins every room's.

/** A learner's own account: confirmation, sign-in, reset and change links, and invitations. */
export type AccountJobPayloads = {
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
	/** A tenant admin made a copy of the person's data (decision 0063): they are told, with their account's link. */
	'mail.archiveMade': JobSite & { tenantId: string; userId: string }
	/** An invitation's link (its token is rotated when it is sent). */
	'mail.invitation': JobSite & { tenantId: string; invitationId: string }
}

export const accountJobs = jobQueue<AccountJobPayloads>()
