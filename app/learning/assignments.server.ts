import { jobSite } from '#app/platform/jobs.server.ts'
import { awardCertificate } from '#app/certificates/award.server.ts'
import type { RequestContext } from '#app/context.ts'
import { completeEntrySteps, type Scope } from '#db/learning.ts'
import { gradeSubmissionSteps, type GradeInput } from '#db/grading.ts'
import { recordSubmissionSteps, type Submission, type SubmissionInput } from '#db/submissions.ts'
import { inTransaction } from '#db/transaction.ts'
import { HAND_IN_FILE_TYPES, type Assignment, type Course, type Entry } from '../content/content.ts'
import { ruleEntries, settleResultSteps } from './course-result.server.ts'
import { gradingJob } from './grading.server.ts'
import { learningJobs } from './jobs.server.ts'
import { tags } from './learning.server.ts'
import { flattenEntries } from './entries.ts'
import { entryDueAtSteps } from './due-dates.server.ts'

/**
 * An assignment's rules with the content's defaults filled in (decision 0027). An assignment entry
 * without rules is an ungraded hand-in that accepts every hand-in type.
 */
export function assignmentRules(entry: Pick<Entry, 'assignment'>): Required<
	Omit<Assignment, 'instructions' | 'instructionsLocale'>
> & {
	instructions: string | null
	/** The locale the instructions were served in; null: the entry's body's (decision 0012). */
	instructionsLocale: NonNullable<Assignment['instructionsLocale']> | null
} {
	const a = entry.assignment
	return {
		graded: a?.graded ?? false,
		maxScore: a?.maxScore ?? 100,
		passingScore: a?.passingScore ?? null,
		allowedFileTypes: a?.allowedFileTypes ?? [...HAND_IN_FILE_TYPES],
		instructions: a?.instructions ?? null,
		instructionsLocale: a?.instructionsLocale ?? null,
	}
}

export type AssignmentRules = ReturnType<typeof assignmentRules>

/**
 * Whether a graded score passes: at or above the pass mark, or any score when the content sets
 * none. A submission returned for revision never passes.
 */
export function passes(rules: AssignmentRules, score: number) {
	return rules.passingScore === null || score >= rules.passingScore
}

/**
 * Whether a submission's grade ends hand-ins (decision 0030): a passing grade, or feedback on an
 * ungraded assignment (no verdict). After a grade that did not pass the learner may hand in again.
 * recordSubmissionSteps applies the same rule in SQL.
 */
export function isFinalGrade(submission: Pick<Submission, 'status' | 'passed'>) {
	return submission.status === 'graded' && submission.passed !== false
}

/**
 * Stores a hand-in for an enrolled learner on an open entry (the caller checks both). An ungraded
 * assignment is complete on hand-in, in the same transaction (and the course with it when that was
 * the last entry); a graded one waits for a passing grade. A new hand-in (not a replayed form)
 * leaves its jobs in the same transaction: the watchers' notice and the files' housekeeping.
 */
export async function handIn(
	ctx: RequestContext,
	scope: Scope,
	course: Course,
	entrySlug: string,
	rules: AssignmentRules,
	input: SubmissionInput,
) {
	const all = flattenEntries(course).map((e) => e.slug)
	const rule = await ruleEntries(ctx, course)
	const unchanged = { newlyPassed: false }
	const outcome = await inTransaction(ctx.db, function* (tx) {
		const dueAt = yield* entryDueAtSteps(tx, scope, course, entrySlug)
		const recorded = yield* recordSubmissionSteps(tx, scope, course.slug, entrySlug, { ...input, dueAt })
		if (recorded.kind !== 'recorded' || recorded.replayed) return { recorded, courseDone: false, settled: unchanged }
		// Staff who asked to be told (decision 0028), and the housekeeping no answer waits for: files of
		// hand-ins whose own clean-up never ran. Jobs, written with the hand-in (decision 0033).
		yield* learningJobs.enqueueSteps(tx, 'mail.submissionReceived', gradingJob(ctx, course, recorded.submission))
		yield* learningJobs.enqueueSteps(tx, 'files.removeAbandoned', {})
		const { courseDone } = rules.graded
			? { courseDone: false }
			: yield* completeEntrySteps(tx, scope, course.slug, all, entrySlug)
		return { recorded, courseDone, settled: yield* settleResultSteps(tx, jobSite(ctx), scope, course, rule) }
	})
	ctx.tags.revalidate([tags.course(course.slug), tags.progress(scope.userId)])
	await awardCertificate(ctx, scope, course, outcome.settled)
	return outcome
}

/**
 * Grades or returns the learner's newest submission. A passing grade completes the learner's entry
 * (and course) in the same transaction as the grade and its audit row. Null when the submission
 * was no longer awaiting grading.
 */
export async function gradeHandIn(
	ctx: RequestContext,
	course: Course,
	submission: Submission,
	input: GradeInput,
): Promise<Submission | null> {
	const tenantId = submission.tenant_id
	const learner = { tenantId, userId: submission.user_id }
	const all = flattenEntries(course).map((e) => e.slug)
	const rule = await ruleEntries(ctx, course)
	const outcome = await inTransaction(ctx.db, function* (tx) {
		const row = yield* gradeSubmissionSteps(tx, tenantId, submission.id, input)
		if (!row) return null
		if (row.passed) yield* completeEntrySteps(tx, learner, course.slug, all, row.entry_slug)
		// The learner's mail, with the grade: sent (and retried) by the queue, never failing the grade.
		yield* learningJobs.enqueueSteps(tx, 'mail.gradeNotice', gradingJob(ctx, course, row))
		return { row, settled: yield* settleResultSteps(tx, jobSite(ctx), learner, course, rule) }
	})
	if (!outcome) return null
	ctx.tags.revalidate([tags.course(course.slug), tags.progress(learner.userId)])
	await awardCertificate(ctx, learner, course, outcome.settled)
	return outcome.row
}
