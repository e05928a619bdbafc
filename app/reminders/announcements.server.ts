import type { RequestContext } from '#app/context.ts'
import { adminAudit, type AuditActor } from '#app/platform/audit.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { composeEmail, deliver, type MailContext } from '#app/platform/emails.server.ts'
import { REMINDER_EMAILS } from './emails.ts'
import type { Env } from '#app/platform/env.server.ts'
import { absoluteUrl } from '#app/platform/forms.server.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import { type ReminderJobPayloads, reminderJobs } from './jobs.server.ts'
import { recipientMailContext, siteName } from '#app/content/site.server.ts'
import { auditSteps } from '#db/audit.ts'
import {
	announcementRecipients,
	createAnnouncementSteps,
	findAnnouncement,
	isOptedOut,
	recentAnnouncements,
	recordReminderSteps,
} from '#db/reminders.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserById } from '#db/users.ts'
import { unsubscribeUrl } from './reminders.server.ts'

/*
 * Course announcements (decision 0047): staff write one, it is stored with its audit row and a
 * fan-out job; the fan-out writes one mail job per learner, each with its row in reminders_sent
 * (kind 'announcement', the announcement's id), so a fan-out retried after a crash mails nobody twice.
 */

export interface AnnouncementForm {
	subject: string
	message: string
}

/** The course's announcements of the last `days` days, newest first, for the form's page. */
export async function latestAnnouncements(
	ctx: Pick<RequestContext, 'db'>,
	tenantId: string,
	courseSlug: string,
	days: number,
) {
	const since = new Date(Date.now() - days * 86_400_000)
	const rows = await recentAnnouncements(ctx.db, tenantId, courseSlug, since)
	return rows.map((a) => ({ id: a.id, subject: a.subject, at: a.createdAt.toISOString() }))
}

/** Stores the announcement, its audit row and its fan-out job together (the caller is an admin guard's scope). */
export async function postAnnouncement(
	scope: AuditActor & { ctx: RequestContext },
	tenant: Tenant,
	courseSlug: string,
	form: AnnouncementForm,
) {
	const { ctx } = scope
	return inTransaction(ctx.db, function* (tx) {
		const row = yield* createAnnouncementSteps(tx, {
			tenantId: tenant.id,
			courseSlug,
			authorId: scope.session.user.id,
			subject: form.subject,
			body: form.message,
		})
		yield* auditSteps(
			tx,
			adminAudit(
				scope,
				'course.announcement_sent',
				{ kind: 'announcement', id: row.id, tenantId: tenant.id },
				{ courseSlug, subject: form.subject },
			),
		)
		yield* reminderJobs.enqueueSteps(tx, 'announcement.fanOut', {
			...jobSite(ctx),
			tenantId: tenant.id,
			announcementId: row.id,
		})
		return row
	})
}

/** One mail job per learner still to reach, each recorded with its job. */
export async function fanOutAnnouncement(ctx: MailContext, job: ReminderJobPayloads['announcement.fanOut']) {
	const announcement = await findAnnouncement(ctx.db, job.tenantId, job.announcementId)
	if (!announcement) return 'the announcement is gone'
	const recipients = await announcementRecipients(ctx.db, job.tenantId, announcement.course_slug, announcement.id)
	for (const learner of recipients) {
		await inTransaction(ctx.db, function* (tx) {
			const key = { tenantId: job.tenantId, userId: learner.userId, kind: 'announcement' as const }
			if (!(yield* recordReminderSteps(tx, { ...key, itemKey: announcement.id }))) return
			yield* reminderJobs.enqueueSteps(tx, 'mail.announcement', {
				...job,
				locale: learner.locale,
				userId: learner.userId,
			})
		})
	}
	return `${recipients.length} learners to reach`
}

/** One learner's mail of an announcement, in their locale, with its unsubscribe link and headers. */
export async function mailAnnouncement(
	ctx: MailContext & { env: Pick<Env, 'AUTH_SECRET'> },
	job: ReminderJobPayloads['mail.announcement'],
) {
	const learner = await findUserById(ctx.db, job.userId)
	if (!learner || learner.deactivated_at || learner.tenant_id !== job.tenantId)
		return 'the learner is gone or deactivated'
	if (await isOptedOut(ctx.db, job.tenantId, learner.id, 'announcement')) return 'opted out'
	const announcement = await findAnnouncement(ctx.db, job.tenantId, job.announcementId)
	if (!announcement) return 'the announcement is gone'
	const { locale } = learner
	let course = announcement.course_slug
	try {
		course = (await ctx.cms.course(ctx.site, announcement.course_slug, locale))?.title ?? course
	} catch {
		// The content service out of reach: the course's slug names it, the announcement still goes.
	}
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail(REMINDER_EMAILS, {
			kind: 'announcement',
			to: learner.email,
			locale,
			site: await siteName(to, locale),
			url: absoluteUrl(to, localePath(locale, `/learn/course/${announcement.course_slug}`)),
			values: { course, subject: announcement.subject, message: announcement.body },
			unsubscribe: unsubscribeUrl(to, job.tenantId, learner.id, 'announcement', locale),
		}),
	)
}
