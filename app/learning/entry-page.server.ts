// The entry page's server side (app/routes/learn.course.$slug.entry.$entrySlug.tsx): who may see
// the entry and how, what its quiz and assignment show, and the hand-in action.
import { randomBytes } from 'node:crypto'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import type { RequestContext } from '#app/context.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { getSession, type CurrentSession } from '#app/accounts/session.server.ts'
import { readContent } from '#app/content/cms.server.ts'
import { toQuizPublic, type Course, type Entry, type Quiz } from '#app/content/content.ts'
import { renderMarkdown } from '#app/content/markdown.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { notFound } from '#app/platform/errors.ts'
import { limitAction, TOO_MANY, formErrorResult } from '#app/platform/forms.server.ts'
import { withNotice, type NoticeName } from '#app/platform/notices.ts'
import { NO_NUL } from '#app/platform/validation.ts'
import { idFromFormKey } from '#db/ids.ts'
import { entryAllowance } from '#db/course-results.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { listSubmissions, type SubmissionWithFiles } from '#db/submissions.ts'
import { assignmentRules, handIn, isFinalGrade } from './assignments.server.ts'
import { HAND_IN_LIMITS } from './hand-in-limits.ts'
import { discardFiles, readHandIn } from './hand-in.server.ts'
import { courseProgress, isActiveEnrollment, requireCourseOrPreview, type LockReason } from './learning.server.ts'
import { PREVIEW_TOKEN, type LinkPreview, type PreviewAccess } from './preview.server.ts'
import { answersRevealed, reviewAttempt, showAnswersRule } from './quiz.server.ts'
import { drawForAttempt, learnerDueAt } from './quiz-rules.server.ts'

type Scope = { tenantId: string; userId: string }

// A locked entry's reason, said on the entry the learner is sent to instead.
const LOCK_NOTICES = {
	complete_previous_in_module: 'completePreviousInModule',
	complete_previous_in_course: 'completePreviousInCourse',
} as const satisfies Record<LockReason, NoticeName>

/**
 * The entry's course and who reads it: a signed-in user, or an author holding the CMS's preview link,
 * who has no session here (decision 0100). Anyone else is asked to sign in before anything about
 * the course is said; only a request that carries a link is read further without a session.
 */
export async function requireEntryCourse(
	ctx: RequestContext,
	context: Readonly<RouterContextProvider>,
	request: Request,
	slug: string,
): Promise<{ course: Course; draft: boolean } & EntryReader> {
	const carriesLink = new URL(request.url).searchParams.has(PREVIEW_TOKEN)
	const read = await requireCourseOrPreview(
		ctx,
		slug,
		request,
		carriesLink ? getSession(context) : requireSession(context),
	)
	const { preview } = read
	if (preview?.by === 'link') return { ...read, session: null, preview }
	return { ...read, session: requireSession(context), preview }
}

type EntryReader = { session: CurrentSession; preview: PreviewAccess | null } | { session: null; preview: LinkPreview }

/**
 * Who is asking and how: an enrolled learner, or a preview (read-only, no enrollment, no locks).
 * Anyone else goes to the course landing. A locked entry sends the learner to the next open one
 * with the reason.
 */
export async function resolveAccess(
	ctx: RequestContext,
	{ session, preview }: EntryReader,
	course: Course,
	entrySlug: string,
) {
	// A link's reader has no user here: the scope names the link (its signature), for what a preview keys
	// by its reader (a shuffled quiz's order, the rate limit of trying it), so one link's holders do not
	// spend another's. Nothing is stored under it.
	const userId = session ? session.user.id : `link:${preview.signature}`
	const scope = { tenantId: ctx.tenant!.id, userId }
	const progress = await courseProgress(ctx, preview ? null : scope, course)
	const position = progress.entries.findIndex((e) => e.slug === entrySlug)
	if (position === -1) throw notFound()
	if (!preview && !isActiveEnrollment(progress.enrollment))
		throw redirect(localePath(ctx.locale, withNotice(`/learn/course/${course.slug}`, 'enrollFirst')))
	const lock = progress.locks.get(entrySlug)
	if (lock) {
		// Locked by its module: the open entry of that module that unlocks it, not the course's first open
		// entry, which may be another module's (issue 39). Locked by the course's order: the first open entry.
		const moduleSlug = progress.entries[position].moduleSlug
		const next =
			(lock === 'complete_previous_in_module'
				? progress.entries.find(
						(e) => e.moduleSlug === moduleSlug && !progress.completed.has(e.slug) && !progress.locks.get(e.slug),
					)
				: null) ?? progress.firstOpen
		const target = next ? `/learn/course/${course.slug}/entry/${next.slug}` : `/learn/course/${course.slug}`
		throw redirect(localePath(ctx.locale, withNotice(target, LOCK_NOTICES[lock])))
	}
	return { preview, scope, progress, position, mode: preview ? ('previewReadOnly' as const) : ('enrolled' as const) }
}

/** A quiz as its page shows it to the learner (or to staff previewing it, with no attempts). */
export async function quizView(
	ctx: RequestContext,
	scope: Scope,
	course: Course,
	quiz: Quiz,
	entrySlug: string,
	preview: boolean,
	url: URL,
) {
	const [attempts, allowance, dueAt] = preview
		? [[], null, null]
		: await Promise.all([
				listAttempts(ctx.db, scope, course.slug, entrySlug),
				entryAllowance(ctx.db, scope, course.slug, entrySlug),
				// Read only where the rule needs it (the page's query count stays fixed, issue 47).
				showAnswersRule(quiz) === 'after_due_date' ? learnerDueAt(ctx, scope, course, entrySlug) : null,
			])
	// Staff's second chances add attempts (decision 0037): every count below is of the learner's own allowance.
	const server = { ...quiz, maxAttempts: quiz.maxAttempts + (allowance?.extraAttempts ?? 0) }
	const shown = attempts.find((a) => a.attempt_number === Number(url.searchParams.get('attempt')))
	const latest = attempts.at(-1)
	const exhausted = attempts.length >= server.maxAttempts
	// From the learner's state now (every attempt), so the same stored attempt may show more later (decision 0022).
	const revealed = answersRevealed(server, attempts, dueAt)
	const passed = attempts.some((a) => a.passed)
	// A shuffled quiz is drawn for the attempt the form would make (decision 0054): the same on a reload.
	const safe = toQuizPublic(server)
	const review = (a: (typeof attempts)[number]) => reviewAttempt(server, a, revealed)
	return {
		// The client-safe shape: no correct or accepted answers (those come only in a revealed attempt's review).
		public: server.shuffle ? drawForAttempt(safe, scope, course, entrySlug, attempts.length + 1) : safe,
		attemptsUsed: attempts.length,
		attemptsLeft: Math.max(0, server.maxAttempts - attempts.length),
		exhausted,
		passed,
		// The score that counts (the course's pass rules read the best attempt).
		best: attempts.reduce((m, a) => Math.max(m, a.score), 0),
		revealed,
		revealRule: showAnswersRule(server),
		// Every attempt, oldest first, once the quiz is passed or review-only (issue 39: history kept after a pass).
		history: exhausted || passed ? attempts.map(review) : [],
		result: !exhausted && shown ? review(shown) : null,
		// Attempts left is said only beside the newest attempt: it is about now, not about a past attempt.
		resultIsLatest: Boolean(shown && shown === latest),
		// The form starts from the newest attempt's answers when it did not pass, wrong ones marked.
		previous: !exhausted && latest && !latest.passed ? review(latest) : null,
		// Names this rendering's submission: sent again (a retry after an error, a double press) it is the same attempt.
		submissionKey: randomBytes(18).toString('base64url'),
	}
}

export type QuizView = Awaited<ReturnType<typeof quizView>>

/** An assignment as its page shows it: its rules, instructions and what the learner handed in. */
export async function assignmentView(
	ctx: RequestContext,
	scope: Scope,
	course: Course,
	entry: Entry,
	preview: boolean,
) {
	const rules = assignmentRules(entry)
	const [submissions, allowance] = preview
		? [[], null]
		: await Promise.all([
				listSubmissions(ctx.db, scope, course.slug, entry.slug),
				entryAllowance(ctx.db, scope, course.slug, entry.slug),
			])
	const reopenedAfter = allowance?.reopenedAfter ?? 0
	return {
		rules: { ...rules, instructions: undefined },
		instructionsHtml: rules.instructions
			? await renderMarkdown(ctx, rules.instructions, { courseSlug: course.slug })
			: null,
		// Newest first: the learner's latest work and its grade are what they came for. A hand-in still
		// awaiting grading when a newer one came in is never graded (only the newest is): it says so.
		submissions: submissions
			.map((x, i) => ({ ...submissionView(x), superseded: x.status === 'submitted' && i < submissions.length - 1 }))
			.reverse(),
		// A passing grade (or feedback on an ungraded assignment) ends hand-ins; a failing one does not; staff may reopen.
		closed: submissions.some((x) => isFinalGrade(x) && x.submission_number > reopenedAfter),
		reopened: reopenedAfter > 0 && !submissions.some((x) => x.submission_number > reopenedAfter),
		// Names this rendering's hand-in: sent again (a retry after an error, a double press) it is the same submission.
		submissionKey: randomBytes(18).toString('base64url'),
	}
}

export type AssignmentView = Awaited<ReturnType<typeof assignmentView>>

/** A textarea's text as stored: its line breaks arrive as CRLF (the HTML standard's form encoding), kept as LF. */
function plainText(value: string) {
	return value.replace(/\r\n?/g, '\n').trim()
}

/** A submission as its learner sees it: what was handed in, its status, and the grade once there is one. */
function submissionView(x: SubmissionWithFiles) {
	return {
		number: x.submission_number,
		status: x.status,
		submittedAt: x.submitted_at.toISOString(),
		/** Stored at hand-in time (decision 0045). */
		late: x.late,
		text: x.text_answer,
		link: x.link_url,
		files: x.files.map((f) => ({ id: f.id, name: f.file_name, size: f.size_bytes })),
		score: x.score,
		maxScore: x.max_score,
		passed: x.passed,
		feedback: x.feedback,
		gradedAt: x.graded_at?.toISOString() ?? null,
	}
}

// The page's two buttons, told apart by `intent`. A quiz's answers are the fields named q:<question id>, as
// many as it has questions: submitQuizAttempt reads them from the form as posted.
export const entryActionSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('complete') }),
	z.object({ intent: z.literal('submit-quiz') }),
	z.object({
		intent: z.literal('hand-in'),
		// NO_NUL: PostgreSQL cannot store a NUL (22021), so both databases refuse it here, beside its field.
		text: z
			.string()
			.refine((v) => plainText(v).length <= HAND_IN_LIMITS.maxTextChars, 'learning.assignment.tooLong')
			.regex(NO_NUL, 'common.validation.controlCharacters')
			.optional(),
		link: z
			.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: 'learning.assignment.badLink' })
			.max(HAND_IN_LIMITS.maxLinkChars, 'learning.assignment.tooLong')
			.regex(NO_NUL, 'common.validation.controlCharacters')
			.optional(),
		submission: z.string().optional(),
	}),
])

/** Where a learner goes once an entry is complete: the next entry, told it counted, or the course home when the course is done. */
export function movedOn(ctx: RequestContext, course: Course, next: { slug: string } | undefined, courseDone: boolean) {
	if (courseDone && !next)
		return redirect(localePath(ctx.locale, withNotice(`/learn/course/${course.slug}`, 'courseCompleted')))
	const target = next ? `/learn/course/${course.slug}/entry/${next.slug}` : `/learn/course/${course.slug}`
	return redirect(localePath(ctx.locale, withNotice(target, 'entryCompleted')))
}

/**
 * A hand-in (decision 0027): a multipart form whose files stream into the file store as they
 * arrive, checked against the assignment's rules read fresh from the content service. A refused
 * hand-in comes back with the errors beside the fields and the text as typed; its files are
 * removed. Stored, the learner stays on the entry and sees it in their submissions.
 */
export function handInAction(...args: Parameters<typeof receiveHandIn>) {
	// The drain waits for the whole of it (the files stored, claimed or removed) before closing the pool.
	const work = receiveHandIn(...args)
	args[0].holdDrain(work)
	return work
}

async function receiveHandIn(
	ctx: RequestContext,
	request: Request,
	scope: { tenantId: string; userId: string },
	course: Course,
	entrySlug: string,
	here: string,
) {
	const limited = await limitAction(ctx, 'handIn', `user|${scope.userId}`, { result: formErrorResult(TOO_MANY) })
	if (limited) return limited
	const entry = await readContent(`assignment ${course.slug}/${entrySlug}`, () =>
		ctx.cms.uncached.entry(ctx.site, course.slug, entrySlug, ctx.locale),
	)
	if (!entry) throw notFound()
	const rules = assignmentRules(entry)
	const { form, fileIds, problems } = await readHandIn(ctx, scope, request, rules.allowedFileTypes)
	const submission = parseWithZod(form, { schema: entryActionSchema })
	const refused = async (formErrors: string[] = [], status = 400) => {
		await discardFiles(ctx, scope, fileIds)
		return data({ result: submission.reply({ formErrors }), fileProblems: problems }, { status })
	}
	if (submission.status !== 'success') return refused()
	// No button of an assignment sends another intent: a self-report ("Mark as complete") is told what counts.
	if (submission.value.intent !== 'hand-in') return refused(['learning.assignment.handInInstead'])
	if (problems.length > 0) return refused()
	const text = plainText(submission.value.text ?? '')
	const { link } = submission.value
	if (!text && !link && fileIds.length === 0) return refused(['learning.assignment.nothing'])
	const outcome = await handIn(ctx, scope, course, entrySlug, rules, {
		id: idFromFormKey('hand-in', scope, course.slug, entrySlug, submission.value.submission),
		text: text || null,
		link: link ?? null,
		fileIds,
	}).catch(async (error: unknown) => {
		// Not stored (the database failed): its files are nobody's. The error answers (503 while out of reach).
		await discardFiles(ctx, scope, fileIds)
		throw error
	})
	if (outcome.recorded.kind === 'final') return refused(['learning.assignment.alreadyGraded'], 409)
	// The watchers' notice and the files' housekeeping are jobs written with the hand-in (handIn).
	if (outcome.recorded.replayed) await discardFiles(ctx, scope, fileIds)
	// Stays on the entry, where the learner sees what they handed in (and, ungraded, that it is complete).
	if (outcome.courseDone)
		return redirect(localePath(ctx.locale, withNotice(`/learn/course/${course.slug}`, 'courseCompleted')))
	return redirect(localePath(ctx.locale, withNotice(here, 'handedIn')))
}
