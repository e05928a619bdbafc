import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import { awardCertificate } from '#app/certificates/award.server.ts'
import {
	insertSecondChanceSteps,
	quizPassedSteps,
	reopenQuizEntrySteps,
	type SecondChanceInput,
} from '#db/course-results.ts'
import { idFromFormKey, newId } from '#db/ids.ts'
import { findEnrollment, type Scope } from '#db/learning.ts'
import type { SecondChanceKind } from '#db/schema/values.ts'
import { assignmentClosedAtSteps, lockLearnerEntry } from '#db/submissions.ts'
import { inTransaction, rollback, runSteps } from '#db/transaction.ts'
import { findUserById, type User } from '#db/users.ts'
import type { Course } from '../content/content.ts'
import { ruleEntries, settleResultSteps } from './course-result.server.ts'
import { answersShownTo } from './quiz-rules.server.ts'
import { composeEmail, deliver, type MailContext } from '../platform/emails.server.ts'
import { LEARNING_EMAILS } from './emails.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import { titlesFor, titlesIn } from './grading.server.ts'
import { jobSite } from '../platform/jobs.server.ts'
import { type LearningJobPayloads, learningJobs } from './jobs.server.ts'
import { isActiveEnrollment, tags } from './learning.server.ts'
import { recipientMailContext, siteName } from '../content/site.server.ts'

// Second chances (decision 0037): course staff give a learner more attempts at a quiz or reopen an
// assignment after a final grade, with a reason. The grant, its audit row, the entry and course
// result that follow it and the learner's mail (a job) are one transaction.

/** The learner a staff page may act on: a user of this tenant enrolled (active or completed) in the course; else null (404). */
export async function courseLearner(ctx: RequestContext, tenantId: string, courseSlug: string, userId: string) {
	if (userId.includes('\u0000')) return null
	const user = await findUserById(ctx.db, userId)
	if (!user || user.tenant_id !== tenantId) return null
	const enrollment = await findEnrollment(ctx.db, { tenantId, userId }, courseSlug)
	return isActiveEnrollment(enrollment) ? { user, enrollment: enrollment! } : null
}

export interface GrantInput {
	kind: SecondChanceKind
	entrySlug: string
	extraAttempts: number
	reason: string
	/** The form's one-time key: the same form sent again grants nothing more. */
	key: unknown
	staffUserId: string
	/** Staff confirmed granting attempts to a learner who has been shown the quiz's answers (decision 0054). */
	confirmed?: boolean
}

export type GrantOutcome = 'granted' | 'replayed' | 'already_passed' | 'not_closed' | 'answers_shown'

/**
 * Grants the second chance. A quiz already passed needs none ('already_passed'); an assignment is
 * reopened only after a final grade ('not_closed': its learner may hand in already). More attempts
 * reopen a quiz entry that was complete because its attempts ran out, and the enrollment with it.
 */
export async function grantSecondChance(
	ctx: RequestContext,
	course: Course,
	learner: User,
	input: GrantInput,
): Promise<GrantOutcome> {
	const scope: Scope = { tenantId: learner.tenant_id!, userId: learner.id }
	const rule = await ruleEntries(ctx, course)
	const id = idFromFormKey('second-chance', scope, course.slug, input.entrySlug, input.key) ?? newId()
	// More attempts after the answers were shown would be a free pass: staff confirm it, and the grant says so.
	const answersShown = input.kind === 'quiz_attempts' && (await answersShownTo(ctx, scope, course, input.entrySlug))
	// A quiz passed meanwhile needs no confirmation: the transaction refuses it ('already_passed').
	if (
		answersShown &&
		!input.confirmed &&
		!(await runSteps(ctx.db, (tx) => quizPassedSteps(tx, scope, course.slug, input.entrySlug)))
	)
		return 'answers_shown'
	const grant: Omit<SecondChanceInput, 'afterNumber'> = {
		id,
		kind: input.kind,
		entrySlug: input.entrySlug,
		extraAttempts: input.kind === 'quiz_attempts' ? input.extraAttempts : 0,
		reason: input.reason,
		grantedBy: input.staffUserId,
		audit: {
			actorUserId: input.staffUserId,
			tenantId: scope.tenantId,
			metadata: { learnerEmail: learner.email, ...(input.kind === 'quiz_attempts' ? { answersShown } : {}) },
		},
	}
	const outcome = await inTransaction(ctx.db, function* (tx) {
		let afterNumber = 0
		if (input.kind === 'quiz_attempts') {
			if (yield* quizPassedSteps(tx, scope, course.slug, input.entrySlug))
				return rollback({ outcome: 'already_passed' as const })
		} else {
			// Serialised with the learner's hand-ins and grades of the entry (PostgreSQL; SQLite's writes are serial).
			yield* lockLearnerEntry(tx, {
				tenant_id: scope.tenantId,
				user_id: scope.userId,
				course_slug: course.slug,
				entry_slug: input.entrySlug,
			})
			const closed = yield* assignmentClosedAtSteps(tx, scope, course.slug, input.entrySlug)
			if (closed === null) return rollback({ outcome: 'not_closed' as const })
			afterNumber = closed
		}
		const stored = yield* insertSecondChanceSteps(tx, scope, course.slug, { ...grant, afterNumber })
		if (!stored) return { outcome: 'replayed' as const }
		if (input.kind === 'quiz_attempts')
			yield* reopenQuizEntrySteps(tx, scope, course.slug, input.entrySlug, input.staffUserId)
		const settled = yield* settleResultSteps(tx, jobSite(ctx), scope, course, rule)
		yield* learningJobs.enqueueSteps(tx, 'mail.secondChance', {
			...jobSite(ctx),
			tenantId: scope.tenantId,
			courseSlug: course.slug,
			entrySlug: input.entrySlug,
			userId: scope.userId,
			kind: input.kind,
			titles: titlesIn(course, input.entrySlug),
		})
		return { outcome: 'granted' as const, settled }
	})
	if (outcome.outcome === 'granted') {
		ctx.tags.revalidate([tags.course(course.slug), tags.progress(scope.userId)])
		// A reopening can only take a pass away, but a rule change since the last write may have made one.
		await awardCertificate(ctx, scope, course, outcome.settled)
	}
	return outcome.outcome
}

/** The job's mail: the learner, in their locale, with a link to the entry. */
export async function mailSecondChance(ctx: MailContext, job: LearningJobPayloads['mail.secondChance']) {
	const learner = await findUserById(ctx.db, job.userId)
	if (!learner || learner.deactivated_at || learner.tenant_id !== job.tenantId) return
	const path = `/learn/course/${job.courseSlug}/entry/${job.entrySlug}`
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail(LEARNING_EMAILS, {
			kind: job.kind === 'quiz_attempts' ? 'attempts_granted' : 'assignment_reopened',
			to: learner.email,
			locale: learner.locale,
			site: await siteName(to, learner.locale),
			url: absoluteUrl(to, localePath(learner.locale, path)),
			values: { ...(await titlesFor(ctx, job.courseSlug, job.entrySlug, learner.locale, job.titles)) },
		}),
	)
}
