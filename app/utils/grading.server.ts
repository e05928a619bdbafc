import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import { submissionWatchers } from '#db/grading.ts'
import type { Locale } from '#db/schema/values.ts'
import type { Submission } from '#db/submissions.ts'
import { findUserById } from '#db/users.ts'
import type { Course } from './content.ts'
import { composeEmail } from './emails.server.ts'
import { absoluteUrl } from './forms.server.ts'
import { flattenEntries } from './learning.server.ts'
import { describeError, log } from './log.server.ts'
import { loadSiteChrome } from './site.server.ts'

// The mails of grading (decision 0028). Each runs after the response (ctx.afterResponse): a mail
// that cannot be sent never undoes or fails a grade or a hand-in.

/** The course in the recipient's language for the mail's titles; the one at hand when the content service fails. */
export async function courseIn(ctx: RequestContext, course: Course, locale: Locale): Promise<Course> {
	if (locale === ctx.locale) return course
	try {
		return (await ctx.cms.course(ctx.site, course.slug, locale)) ?? course
	} catch {
		return course
	}
}

function titles(course: Course, entrySlug: string) {
	const entry = flattenEntries(course).find((e) => e.slug === entrySlug)
	return { course: course.title, entry: entry?.title ?? entrySlug }
}

/** The site's name as mails sign off with it; the tenant's when the content service fails. */
export async function siteName(ctx: RequestContext) {
	try {
		return (await loadSiteChrome(ctx)).name
	} catch {
		return ctx.tenant?.name ?? ''
	}
}

/**
 * Tells the learner, in their own locale, that their work was graded or returned, with a link to
 * the entry where they read the score and feedback (no token: they sign in as usual).
 */
export async function mailGradeNotice(ctx: RequestContext, course: Course, submission: Submission) {
	if (submission.status === 'submitted') return
	try {
		const learner = await findUserById(ctx.db, submission.user_id)
		if (!learner || learner.deactivated_at) return
		const inTheirs = await courseIn(ctx, course, learner.locale)
		const path = `/learn/course/${course.slug}/entry/${submission.entry_slug}`
		await ctx.mailer.send(
			composeEmail({
				kind: submission.status === 'graded' ? 'submission_graded' : 'submission_returned',
				to: learner.email,
				locale: learner.locale,
				site: await siteName(ctx),
				url: absoluteUrl(ctx, localePath(learner.locale, path)),
				values: titles(inTheirs, submission.entry_slug),
			}),
		)
	} catch (error) {
		log.warn('grading/mail_failed', { submissionId: submission.id, error: describeError(error) })
	}
}

/**
 * The per-hand-in notice to staff who opted in on the course's submissions page: call it once a
 * new submission is stored (not for a replayed form). It returns at once; the mails go after the
 * response, only to watchers who may still grade the course at that moment, each in their locale,
 * never to the learner who handed in.
 */
export function notifySubmissionWatchers(ctx: RequestContext, course: Course, submission: Submission): void {
	ctx.afterResponse(() => mailWatchers(ctx, course, submission))
}

async function mailWatchers(ctx: RequestContext, course: Course, submission: Submission) {
	try {
		const [watchers, learner] = await Promise.all([
			submissionWatchers(ctx.db, submission.tenant_id, course.slug),
			findUserById(ctx.db, submission.user_id),
		])
		const recipients = watchers.filter((w) => w.userId !== submission.user_id)
		if (recipients.length === 0) return
		const site = await siteName(ctx)
		const path = `/admin/courses/${course.slug}/submissions/${submission.id}`
		for (const watcher of recipients) {
			const inTheirs = await courseIn(ctx, course, watcher.locale)
			await ctx.mailer.send(
				composeEmail({
					kind: 'submission_received',
					to: watcher.email,
					locale: watcher.locale,
					site,
					url: absoluteUrl(ctx, localePath(watcher.locale, path)),
					values: { ...titles(inTheirs, submission.entry_slug), learner: learner?.name || learner?.email || '' },
				}),
			)
		}
	} catch (error) {
		log.warn('grading/watch_mail_failed', { submissionId: submission.id, error: describeError(error) })
	}
}
