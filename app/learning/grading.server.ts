import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import { findCourseSubmission, submissionWatchers } from '#db/grading.ts'
import type { Locale } from '#db/schema/values.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserById } from '#db/users.ts'
import type { Course } from '../content/content.ts'
import { composeEmail, deliver, type MailContext } from '../platform/emails.server.ts'
import { LEARNING_EMAILS } from './emails.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import { type LearningJobPayloads, type Titles, learningJobs } from './jobs.server.ts'
import { flattenEntries } from './entries.ts'
import { recipientMailContext, siteName } from '../content/site.server.ts'

// The mails of grading (decision 0028), sent by jobs (decision 0033) written in the transaction of
// the grade or the hand-in: a mail that cannot be sent never undoes or fails either, and is retried.

/** The titles of the course and the entry as the request has them: the mail's fallback when the content service fails later. */
export function titlesIn(course: Course, entrySlug: string): Titles {
	const entry = flattenEntries(course).find((e) => e.slug === entrySlug)
	return { course: course.title, entry: entry?.title ?? entrySlug }
}

/** The titles in the recipient's language; those the request had when the content service fails. */
export async function titlesFor(
	ctx: MailContext,
	courseSlug: string,
	entrySlug: string,
	locale: Locale,
	fallback: Titles,
) {
	try {
		const course = await ctx.cms.course(ctx.site, courseSlug, locale)
		return course ? titlesIn(course, entrySlug) : fallback
	} catch {
		return fallback
	}
}

/**
 * Tells the learner, in their own locale, that their work was graded or returned, with a link to
 * the entry where they read the score and feedback (no token: they sign in as usual).
 */
export async function mailGradeNotice(ctx: MailContext, job: LearningJobPayloads['mail.gradeNotice']) {
	const submission = await findCourseSubmission(ctx.db, job.tenantId, job.courseSlug, job.submissionId)
	if (!submission || submission.status === 'submitted') return 'the submission is gone or no longer graded'
	const learner = await findUserById(ctx.db, submission.user_id)
	if (!learner || learner.deactivated_at) return 'the learner is gone or deactivated'
	const path = `/learn/course/${job.courseSlug}/entry/${submission.entry_slug}`
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail(LEARNING_EMAILS, {
			kind: submission.status === 'graded' ? 'submission_graded' : 'submission_returned',
			to: learner.email,
			locale: learner.locale,
			site: await siteName(to, learner.locale),
			url: absoluteUrl(to, localePath(learner.locale, path)),
			values: { ...(await titlesFor(ctx, job.courseSlug, submission.entry_slug, learner.locale, job.titles)) },
		}),
	)
}

/**
 * The per-hand-in notice to staff who opted in on the course's submissions page: one job per new
 * submission (not for a replayed form), written with it, whether or not anyone watches (the
 * learner's answer is the same either way). The job finds the watchers who may still grade the
 * course at that moment, never the learner who handed in, and leaves one job per recipient, so a
 * failed delivery is retried alone.
 */
export async function fanOutSubmissionNotice(ctx: MailContext, job: LearningJobPayloads['mail.submissionReceived']) {
	const submission = await findCourseSubmission(ctx.db, job.tenantId, job.courseSlug, job.submissionId)
	if (!submission) return 'the submission is gone'
	const watchers = await submissionWatchers(ctx.db, job.tenantId, job.courseSlug)
	const recipients = watchers.filter((w) => w.userId !== submission.user_id)
	if (recipients.length === 0) return 'nobody watches the course'
	await inTransaction(ctx.db, function* (tx) {
		for (const watcher of recipients)
			yield* learningJobs.enqueueSteps(tx, 'mail.watcherNotice', { ...job, userId: watcher.userId })
	})
	return `${recipients.length} watcher notices queued`
}

/** One watcher's notice, in their locale. */
export async function mailWatcherNotice(ctx: MailContext, job: LearningJobPayloads['mail.watcherNotice']) {
	const submission = await findCourseSubmission(ctx.db, job.tenantId, job.courseSlug, job.submissionId)
	if (!submission) return 'the submission is gone'
	// Still a watcher who may grade the course (a role change since the fan-out stops it).
	const watcher = (await submissionWatchers(ctx.db, job.tenantId, job.courseSlug)).find((w) => w.userId === job.userId)
	if (!watcher) return 'no longer a watcher who may grade'
	const learner = await findUserById(ctx.db, submission.user_id)
	const path = `/admin/courses/${job.courseSlug}/submissions/${submission.id}`
	const titles = await titlesFor(ctx, job.courseSlug, submission.entry_slug, watcher.locale, job.titles)
	const to = await recipientMailContext(ctx, watcher.userId)
	await deliver(
		to,
		composeEmail(LEARNING_EMAILS, {
			kind: 'submission_received',
			to: watcher.email,
			locale: watcher.locale,
			site: await siteName(to, watcher.locale),
			url: absoluteUrl(to, localePath(watcher.locale, path)),
			values: { ...titles, learner: learner?.name || learner?.email || '' },
		}),
	)
}

/** The site part of a grading job from the request. */
export function gradingJob(
	ctx: Pick<RequestContext, 'origin' | 'locale'>,
	course: Course,
	submission: { id: string; entry_slug: string; tenant_id: string },
) {
	return {
		origin: ctx.origin,
		tenantId: submission.tenant_id,
		locale: ctx.locale,
		courseSlug: course.slug,
		submissionId: submission.id,
		titles: titlesIn(course, submission.entry_slug),
	}
}
