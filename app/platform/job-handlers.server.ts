import type { RequestContext } from '#app/context.ts'
import { mailEnrollment } from '../admin/onboarding.server.ts'
import { mailCertificate } from '#app/certificates/award.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { findTenantById } from '#db/tenants.ts'
import { findUserByEmail, findUserById } from '#db/users.ts'
import type { JobAttempt } from '#server/queue.ts'
import type { Locale } from '#db/schema/values.ts'
import { APEX_SITE } from '../content/cms.server.ts'
import { composeEmail, deliver, mailTokenLink, type MailContext } from './emails.server.ts'
import { absoluteUrl } from './forms.server.ts'
import { fanOutSubmissionNotice, mailGradeNotice, mailWatcherNotice } from '../learning/grading.server.ts'
import { removeAbandonedFiles } from '../learning/hand-in.server.ts'
import { mailSecondChance } from '../learning/second-chances.server.ts'
import { mailInvitation } from '../accounts/invitations.server.ts'
import type { JobName, JobPayloads, JobSite } from './jobs.server.ts'
import { loadSiteChrome } from '../content/site.server.ts'
import type { Mailer } from './mailer.server.ts'
import { log } from './log.server.ts'
import { magicLinkEnabled } from './tenant.server.ts'
import { mailReminder, sweepReminders, type ReminderEnv } from '../reminders/reminders.server.ts'
import { fanOutAnnouncement, mailAnnouncement } from '../reminders/announcements.server.ts'

/*
 * The one place job handlers are registered (decision 0033): what each kind of job does when the
 * worker of some app process runs it. A handler that throws has failed its attempt (retried with
 * backoff, then given up and logged); one that returns quietly had nothing to do (no such account,
 * a deactivated one, an invitation no longer pending). Whether there was anyone to mail is decided
 * here, off the request path, never in the request that wrote the job.
 */

/** What handlers run with: the app's database, content client and mailer, and the settings reminders need. */
export type JobDeps = Pick<RequestContext, 'db' | 'cms'> & { mailer: Mailer; env: ReminderEnv }

/**
 * A handler may answer a note for the log: why it sent nothing (no such account, opted out), or
 * what it did besides mail (a fan-out's jobs). The runner logs it with the mails the attempt sent.
 */
type Handler<N extends JobName> = (deps: JobDeps, job: JobPayloads[N]) => Promise<string | void>

/** The site a job's mail comes from, as the request that wrote it saw it. */
async function siteOf(deps: JobDeps, job: JobSite): Promise<MailContext> {
	const tenant = job.tenantId ? await findTenantById(deps.db, job.tenantId) : null
	return { ...deps, tenant, site: tenant ? tenant.slug : APEX_SITE, origin: job.origin, locale: job.locale }
}

/** The account of an address in an active tenant, unless deactivated: whom forgot-password, magic links and sign-up may mail. */
async function activeAccount(ctx: MailContext, tenantId: string, email: string) {
	if (ctx.tenant?.status !== 'active') return null
	const user = await findUserByEmail(ctx.db, tenantId, email)
	return user && !user.deactivated_at ? user : null
}

/** Tells an account's owner that someone tried to sign up with their address: sign-in and reset links. */
async function mailAccountExists(ctx: MailContext, user: { email: string; locale: Locale }) {
	const site = await loadSiteChrome(ctx)
	await deliver(
		ctx,
		composeEmail({
			kind: 'account_exists',
			to: user.email,
			locale: user.locale,
			site: site.name,
			url: absoluteUrl(ctx, localePath(user.locale, '/learn/sign-in')),
			values: { reset: absoluteUrl(ctx, localePath(user.locale, '/learn/forgot')) },
		}),
	)
}

const HANDLERS: { [N in JobName]: Handler<N> } = {
	async 'mail.verification'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		// Confirmed meanwhile (another link, an invitation), or deactivated: nothing to confirm.
		if (!user || user.email_verified_at || user.deactivated_at) return 'already confirmed, gone or deactivated'
		const query: Record<string, string> = job.callbackUrl ? { callbackUrl: job.callbackUrl } : {}
		await mailTokenLink(await siteOf(deps, job), user, user.email, 'email_verify', undefined, query)
	},
	async 'mail.signUpResend'(deps, job) {
		const ctx = await siteOf(deps, job)
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user) return 'no active account of that address'
		if (user.email_verified_at) return mailAccountExists(ctx, user)
		const query: Record<string, string> = job.callbackUrl ? { callbackUrl: job.callbackUrl } : {}
		await mailTokenLink(ctx, user, user.email, 'email_verify', undefined, query)
	},
	async 'mail.accountExists'(deps, job) {
		const ctx = await siteOf(deps, job)
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user) return 'no active account of that address'
		await mailAccountExists(ctx, user)
	},
	async 'mail.passwordReset'(deps, job) {
		const ctx = await siteOf(deps, job)
		if ('userId' in job) {
			// An admin's "send a reset link": to the account they chose.
			const user = await findUserById(deps.db, job.userId)
			if (!user) return 'the account is gone'
			return mailTokenLink(ctx, user, user.email, 'password_reset')
		}
		// Forgot password: only an account with a local password (spec, Authentication 8).
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user?.password_hash) return 'no active account of that address with a password'
		await mailTokenLink(ctx, user, user.email, 'password_reset')
	},
	async 'mail.magicLink'(deps, job) {
		const ctx = await siteOf(deps, job)
		// The flag may have been turned off since: then no new links (spec, Authentication 9).
		if (!ctx.tenant || !magicLinkEnabled(ctx.tenant)) return 'magic links are off'
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user) return 'no active account of that address'
		await mailTokenLink(ctx, user, user.email, 'magic_link')
	},
	async 'mail.emailChange'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		if (!user || user.deactivated_at) return 'the account is gone or deactivated'
		await mailTokenLink(await siteOf(deps, job), user, job.newEmail, 'email_change', job.newEmail)
	},
	async 'mail.passwordChanged'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		if (!user || user.deactivated_at) return 'the account is gone or deactivated'
		// A reset link (issued now, after the change retired the older ones): whoever did not change it takes the account back.
		await mailTokenLink(
			await siteOf(deps, job),
			user,
			user.email,
			'password_reset',
			undefined,
			undefined,
			'password_changed',
		)
	},
	async 'mail.emailChanged'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		if (!user || user.deactivated_at) return 'the account is gone or deactivated'
		// To the address the account had: the reset link is bound to the account, not to an address, so it
		// works from the mailbox that no longer signs in (decision 0041).
		await mailTokenLink(
			await siteOf(deps, job),
			user,
			job.oldEmail,
			'password_reset',
			undefined,
			undefined,
			'email_changed',
		)
	},
	async 'mail.invitation'(deps, job) {
		return mailInvitation(await siteOf(deps, job), job)
	},
	async 'mail.gradeNotice'(deps, job) {
		return mailGradeNotice(await siteOf(deps, job), job)
	},
	async 'mail.submissionReceived'(deps, job) {
		return fanOutSubmissionNotice(await siteOf(deps, job), job)
	},
	async 'mail.watcherNotice'(deps, job) {
		return mailWatcherNotice(await siteOf(deps, job), job)
	},
	async 'mail.enrolled'(deps, job) {
		return mailEnrollment(await siteOf(deps, job), job)
	},
	async 'mail.certificateIssued'(deps, job) {
		return mailCertificate(await siteOf(deps, job), job)
	},
	async 'mail.secondChance'(deps, job) {
		return mailSecondChance(await siteOf(deps, job), job)
	},
	async 'reminders.sweep'(deps) {
		await sweepReminders(deps)
	},
	async 'mail.reminder'(deps, job) {
		return mailReminder({ ...(await siteOf(deps, job)), env: deps.env }, job)
	},
	async 'announcement.fanOut'(deps, job) {
		return fanOutAnnouncement(await siteOf(deps, job), job)
	},
	async 'mail.announcement'(deps, job) {
		return mailAnnouncement({ ...(await siteOf(deps, job)), env: deps.env }, job)
	},
	async 'cms.provisionSite'(deps, job) {
		// The tenant as it is when the job runs, not as it was written: jobs of two changes that run out
		// of order, or a retry after a later change, still leave the CMS as the tenant is.
		const tenant = await findTenantById(deps.db, job.tenantId)
		if (tenant) await deps.cms.uncached.provisionSite(tenant.slug, { name: tenant.name, status: tenant.status })
	},
	async 'files.removeAbandoned'(deps) {
		await removeAbandonedFiles(deps)
	},
}

/**
 * The worker's runner: the attempt's handler by its name. Each attempt logs what it did (`job/done`
 * with the mails a transport accepted, and the handler's note: why it sent none), so an
 * operator tells a mail job that had nobody to tell from one whose mail was lost.
 */
export function createJobRunner(deps: JobDeps) {
	return async (job: JobAttempt) => {
		const handler = HANDLERS[job.name as JobName] as Handler<JobName> | undefined
		// A job of a kind this build does not know (written by a newer one): failed, so it is retried by another process.
		if (!handler) throw new Error(`no handler for job ${job.name}`)
		let mails = 0
		const mailer: Mailer = {
			...deps.mailer,
			send: async (email) => {
				const sent = await deps.mailer.send(email)
				if (sent) mails++
				return sent
			},
		}
		const note = await handler({ ...deps, mailer }, job.payload as JobPayloads[JobName])
		log.info('job/done', { job: job.name, id: job.id, mails, ...(note ? { note } : {}) })
	}
}
