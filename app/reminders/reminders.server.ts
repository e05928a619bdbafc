import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import { composeEmail, deliver, type MailContext } from '#app/platform/emails.server.ts'
import { REMINDER_EMAILS } from './emails.ts'
import { absoluteUrl } from '#app/platform/forms.server.ts'
import type { Env } from '#app/platform/env.server.ts'
import { type ReminderJobPayloads, reminderJobs } from './jobs.server.ts'
import { canonicalOrigin } from '#app/platform/tenant.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { recipientMailContext, siteName } from '#app/content/site.server.ts'
import { isPublished } from '#app/content/content.ts'
import {
	enrolledCoursesByTenant,
	inactiveEnrollments,
	isOptedOut,
	recordReminderSteps,
	remindableLearners,
	type ReminderKey,
} from '#db/reminders.ts'
import { dueInWindow, learnerTimeZone } from '#app/learning/due-dates.server.ts'
import { formatInstant } from '#app/i18n/format.ts'
import type { Locale, ReminderKind } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserById } from '#db/users.ts'
import { unsubscribeToken } from './unsubscribe.server.ts'

/*
 * Reminders (docs/decisions/0047-reminders.md): a scheduled sweep finds who is due a reminder and,
 * per reminder, records it in reminders_sent and writes its mail's job in one transaction. The key
 * of reminders_sent decides: whichever sweep (process, retry) inserts it first queues the mail, any
 * other finds it taken and moves on. Each kind of reminder is a source below.
 */

/** What the sweep and the reminder mails need beyond a mail's context. */
export type ReminderEnv = Pick<Env, 'AUTH_SECRET' | 'AUTH_URL' | 'APP_BASE_DOMAIN' | 'REMINDER_INACTIVITY_DAYS'>
export type ReminderDeps = Pick<RequestContext, 'db' | 'cms'> & { env: ReminderEnv }

/**
 * Inactivity reminders are for spells that started between N and 4N days ago: a learner idle for a
 * year (or everyone, the day this ships) is not mailed about a course they left long ago.
 */
const INACTIVITY_WINDOW = 4
const DAY_MS = 86_400_000

/** One reminder a source found due: its key in reminders_sent and its mail's job. */
export interface DueReminder {
	key: ReminderKey
	job: ReminderJobPayloads['mail.reminder']
}

/** A kind of reminder: who is due one now. Sources list candidates; the key decides what is sent. */
type ReminderSource = (deps: ReminderDeps, now: Date) => Promise<DueReminder[]>

/** Where a tenant's mails point: its canonical origin with the configured scheme and port. */
function tenantSite(deps: ReminderDeps, tenant: Pick<Tenant, 'slug' | 'custom_domain'>, locale: Locale, id: string) {
	const origin = canonicalOrigin(deps.env.AUTH_URL, tenant as Tenant, deps.env.APP_BASE_DOMAIN)
	return { origin, tenantId: id, locale }
}

const inactivity: ReminderSource = async (deps, now) => {
	const days = deps.env.REMINDER_INACTIVITY_DAYS
	const to = new Date(now.getTime() - days * DAY_MS)
	const from = new Date(now.getTime() - INACTIVITY_WINDOW * days * DAY_MS)
	const rows = await inactiveEnrollments(deps.db, from, to)
	return rows.map((row) => ({
		// The spell is named by its start: a learner who comes back and leaves again gets one for the next spell.
		key: {
			tenantId: row.tenantId,
			userId: row.userId,
			kind: 'inactivity',
			itemKey: `${row.courseSlug}@${row.lastActiveAt.getTime()}`,
		},
		job: {
			...tenantSite(deps, { slug: row.tenantSlug, custom_domain: row.customDomain }, row.locale, row.tenantId),
			tenantId: row.tenantId,
			userId: row.userId,
			kind: 'inactivity',
			courseSlug: row.courseSlug,
			days,
		},
	}))
}

/** Due-date reminders go this long before the due instant (two days: an evening and a day to act). */
const DUE_SOON_HOURS = 48

/**
 * Entries due within DUE_SOON_HOURS for a learner and not done (the learning room's dueInWindow, which
 * applies extensions): one reminder per entry and due instant, so an extended date is a new item.
 */
const dueSoon: ReminderSource = async (deps, now) => {
	const window = { from: now, to: new Date(now.getTime() + DUE_SOON_HOURS * 3_600_000) }
	const out: DueReminder[] = []
	for (const tenant of await enrolledCoursesByTenant(deps.db)) {
		const reader = { db: deps.db, cms: deps.cms, site: tenant.slug }
		const items = await dueInWindow(reader, tenant.tenantId, tenant.courses, window)
		const learners = await remindableLearners(
			deps.db,
			tenant.tenantId,
			'due_soon',
			items.map((i) => i.userId),
		)
		for (const item of items) {
			const locale = learners.get(item.userId)
			if (!locale) continue
			const dueAt = item.dueAt.toISOString()
			out.push({
				key: {
					tenantId: tenant.tenantId,
					userId: item.userId,
					kind: 'due_soon',
					itemKey: `${item.courseSlug}/${item.entrySlug}@${dueAt}`,
				},
				job: {
					...tenantSite(deps, { slug: tenant.slug, custom_domain: tenant.customDomain }, locale, tenant.tenantId),
					tenantId: tenant.tenantId,
					userId: item.userId,
					kind: 'due_soon',
					courseSlug: item.courseSlug,
					entrySlug: item.entrySlug,
					dueAt,
				},
			})
		}
	}
	return out
}

/** The kinds the sweep looks for, each a source of due reminders. */
const SOURCES: ReminderSource[] = [inactivity, dueSoon]

/** Records one reminder and queues its mail, together; false when it was recorded before (by any sweep). */
async function queueReminder(deps: ReminderDeps, due: DueReminder) {
	return inTransaction(deps.db, function* (tx) {
		if (!(yield* recordReminderSteps(tx, due.key))) return false
		yield* reminderJobs.enqueueSteps(tx, 'mail.reminder', due.job)
		return true
	})
}

/** The sweep: every source's due reminders, each queued at most once ever. Answers how many it queued. */
export async function sweepReminders(deps: ReminderDeps, now = new Date()) {
	let queued = 0
	for (const source of SOURCES) {
		for (const due of await source(deps, now)) {
			if (await queueReminder(deps, due)) queued++
		}
	}
	if (queued > 0) log.info('reminders/queued', { reminders: queued })
	return queued
}

/** A person's one-click unsubscribe URL for a kind, on their tenant's host, in their locale. */
export function unsubscribeUrl(
	ctx: Pick<MailContext, 'origin'> & { env: Pick<Env, 'AUTH_SECRET'> },
	tenantId: string,
	userId: string,
	kind: ReminderKind,
	locale: Locale,
) {
	const token = unsubscribeToken(ctx.env.AUTH_SECRET, tenantId, { userId, kind })
	return absoluteUrl(ctx, localePath(locale, `/learn/unsubscribe/${token}`))
}

/** The course's title in the learner's locale; its slug when the content service cannot say (the mail still goes). */
async function courseTitle(ctx: MailContext, slug: string, locale: Locale) {
	try {
		const course = await ctx.cms.course(ctx.site, slug, locale)
		// Unpublished since (or archived): nothing to come back to, no link that answers 404.
		return course && isPublished(course)
			? { title: course.title, entries: course.modules.flatMap((m) => m.entries) }
			: null
	} catch (error) {
		log.warn('reminders/content-unavailable', { course: slug, error: describeError(error) })
		return { title: slug, entries: [] }
	}
}

/**
 * One reminder's mail, in the learner's locale, with its unsubscribe link and headers. Checked again
 * at sending: an account deactivated or a kind turned off since the sweep sends nothing.
 */
export async function mailReminder(
	ctx: MailContext & { env: Pick<Env, 'AUTH_SECRET'> },
	job: ReminderJobPayloads['mail.reminder'],
) {
	const learner = await findUserById(ctx.db, job.userId)
	if (!learner || learner.deactivated_at || learner.tenant_id !== job.tenantId)
		return 'the learner is gone or deactivated'
	if (await isOptedOut(ctx.db, job.tenantId, learner.id, job.kind)) return 'opted out'
	const { locale } = learner
	const course = await courseTitle(ctx, job.courseSlug, locale)
	// A course removed from the catalogue since: nothing to come back to.
	if (!course) return 'the course is no longer published'
	const entry = course.entries.find((e) => e.slug === job.entrySlug)
	const path = job.entrySlug
		? `/learn/course/${job.courseSlug}/entry/${job.entrySlug}`
		: `/learn/course/${job.courseSlug}`
	// In the learner's zone (theirs, else the tenant's, else UTC) as the learning pages write it, naming the zone:
	// a mail is read away from the page that says which zone it is.
	const timeZone = job.dueAt ? await learnerTimeZone(ctx, { tenantId: job.tenantId, userId: learner.id }) : 'UTC'
	const due = job.dueAt ? `${formatInstant(new Date(job.dueAt), locale, timeZone)} (${timeZone})` : ''
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail(REMINDER_EMAILS, {
			kind: job.kind === 'inactivity' ? 'reminder_inactivity' : 'reminder_due',
			to: learner.email,
			locale,
			site: await siteName(to, locale),
			url: absoluteUrl(to, localePath(locale, path)),
			values: { course: course.title, entry: entry?.title ?? job.entrySlug ?? '', days: String(job.days ?? ''), due },
			unsubscribe: unsubscribeUrl(to, job.tenantId, learner.id, job.kind, locale),
		}),
	)
}
