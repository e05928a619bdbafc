import { randomBytes } from 'node:crypto'
import type { SubmissionResult } from '@conform-to/react'
import { useEffect, useRef } from 'react'
import { data, Form, redirect, Link } from 'react-router'
import { ContentLanguage } from '#app/content/content-language.tsx'
import { Notice, Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { PreviewBanner } from '#app/learning/learning.tsx'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath, type Locale } from '#app/i18n/locales.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { readContent } from '#app/content/cms.server.ts'
import { toQuizPublic, type Course } from '#app/content/content.ts'
import { limitAction, TOO_MANY, readForm, formErrorResult } from '#app/platform/forms.server.ts'
import {
	canPreview,
	courseProgress,
	isActiveEnrollment,
	markEntryComplete,
	recordView,
	requireCourse,
	wantsPreview,
	type LockReason,
} from '#app/learning/learning.server.ts'
import { renderMarkdown, stripLeadingTitle } from '#app/content/markdown.server.ts'
import { withNotice, LEARNING_NOTICES, type NoticeName } from '#app/platform/notices.ts'
import {
	answersRevealed,
	DEFAULT_REVEAL,
	previewQuizAttempt,
	reviewAttempt,
	submitQuizAttempt,
	type AttemptReview,
} from '#app/learning/quiz.server.ts'
import type { CurrentSession } from '#app/accounts/session.server.ts'
import { assignmentRules, handIn, isFinalGrade } from '#app/learning/assignments.server.ts'
import { formatBytes } from '#app/platform/format.ts'
import { HAND_IN_LIMITS, isMultipart } from '#app/learning/hand-in-limits.ts'
import { discardFiles, readHandIn, type FileProblem, type HandInForm } from '#app/learning/hand-in.server.ts'
import { idFromFormKey } from '#db/ids.ts'
import { entryAllowance } from '#db/course-results.ts'
import { listAttempts } from '#db/learning.ts'
import { listSubmissions, type SubmissionWithFiles } from '#db/submissions.ts'
import type { Route } from './+types/learn.course.$slug.entry.$entrySlug.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { badRequest, notFound } from '#app/platform/errors.ts'
import { NO_NUL } from '#app/platform/validation.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'

// A locked entry's reason, said on the entry the learner is sent to instead.
const LOCK_NOTICES = {
	complete_previous_in_module: 'completePreviousInModule',
	complete_previous_in_course: 'completePreviousInCourse',
} as const satisfies Record<LockReason, NoticeName>

/**
 * Who is asking and how: an enrolled learner, or staff previewing (read-only,
 * no enrollment, no locks). Anyone else goes to the course landing. A locked
 * entry sends the learner to the next open one with the reason.
 */
async function resolveAccess(
	ctx: RequestContext,
	session: CurrentSession,
	request: Request,
	course: Course,
	entrySlug: string,
) {
	const preview = wantsPreview(request) && canPreview(session, course.slug)
	const scope = { tenantId: ctx.tenant!.id, userId: session.user.id }
	const progress = await courseProgress(ctx, scope, course, preview)
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

// Lessons and quizzes ship JavaScript: the next entry is prefetched, answers keep their state, submits show progress.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ request, context, params }: Route.LoaderArgs) {
	const session = requireSession(context)
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const { preview, scope, progress, position } = await resolveAccess(ctx, session, request, course, params.entrySlug)
	const entry = await readContent(`entry ${course.slug}/${params.entrySlug}`, () =>
		ctx.cms.entry(ctx.site, course.slug, params.entrySlug, ctx.locale),
	)
	if (!entry) throw notFound()
	if (!preview) await recordView(ctx, scope, course.slug, entry.slug)

	const { entries, completed } = progress
	const link = (slug: string) => `/learn/course/${course.slug}/entry/${slug}${preview ? '?preview=1' : ''}`
	const prev = entries[position - 1]
	const next = entries[position + 1]
	const url = new URL(request.url)

	let quiz = null
	if (entry.type === 'quiz' && entry.quiz) {
		const [attempts, allowance] = preview
			? [[], null]
			: await Promise.all([
					listAttempts(ctx.db, scope, course.slug, entry.slug),
					entryAllowance(ctx.db, scope, course.slug, entry.slug),
				])
		// Staff's second chances add attempts (decision 0037): every count below is of the learner's own allowance.
		const server = { ...entry.quiz, maxAttempts: entry.quiz.maxAttempts + (allowance?.extraAttempts ?? 0) }
		const shown = attempts.find((a) => a.attempt_number === Number(url.searchParams.get('attempt')))
		const latest = attempts.at(-1)
		const exhausted = attempts.length >= server.maxAttempts
		// From the learner's state now (every attempt), so the same stored attempt may show more later (decision 0022).
		const revealed = answersRevealed(server, attempts)
		const review = (a: (typeof attempts)[number]) => reviewAttempt(server, a, revealed)
		quiz = {
			// The client-safe shape: no correct or accepted answers (those come only in a revealed attempt's review).
			public: toQuizPublic(server),
			attemptsUsed: attempts.length,
			attemptsLeft: Math.max(0, server.maxAttempts - attempts.length),
			exhausted,
			passed: attempts.some((a) => a.passed),
			best: attempts.reduce((m, a) => Math.max(m, a.score), 0),
			revealed,
			revealRule: server.revealAnswers ?? DEFAULT_REVEAL,
			// Every attempt, oldest first, once the quiz is passed or review-only (issue 39: history kept after a pass).
			history: exhausted || attempts.some((a) => a.passed) ? attempts.map(review) : [],
			result: !exhausted && shown ? review(shown) : null,
			// Attempts left is said only beside the newest attempt: it is about now, not about a past attempt.
			resultIsLatest: Boolean(shown && shown === latest),
			// The form starts from the newest attempt's answers when it did not pass, wrong ones marked.
			previous: !exhausted && latest && !latest.passed ? review(latest) : null,
			// Names this rendering's submission: sent again (a retry after an error, a double press) it is the same attempt.
			submissionKey: randomBytes(18).toString('base64url'),
		}
	}

	let assignment = null
	if (entry.type === 'assignment') {
		const rules = assignmentRules(entry)
		const [submissions, allowance] = preview
			? [[], null]
			: await Promise.all([
					listSubmissions(ctx.db, scope, course.slug, entry.slug),
					entryAllowance(ctx.db, scope, course.slug, entry.slug),
				])
		const reopenedAfter = allowance?.reopenedAfter ?? 0
		assignment = {
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

	return {
		course: { slug: course.slug, title: course.title },
		entry: {
			slug: entry.slug,
			type: entry.type,
			title: entry.title,
			// The entry's title is the page's heading: a body that opens with it does not say it twice.
			bodyHtml: await renderMarkdown(ctx, stripLeadingTitle(entry.body, entry.title), { courseSlug: course.slug }),
			moduleTitle: entries[position].moduleTitle,
		},
		// The locales the entry and its course were served in (en when there is no translation in the page's locale);
		// the body, the module's title and prev/next titles may fall back apart (decision 0012).
		contentLocale: entry.locale,
		bodyLocale: entry.bodyLocale ?? entry.locale,
		moduleLocale: entries[position].moduleLocale,
		courseLocale: course.locale,
		done: completed.has(entry.slug),
		preview,
		position: position + 1,
		total: entries.length,
		prev: prev ? { title: prev.title, locale: prev.locale, href: link(prev.slug) } : null,
		next: next
			? {
					title: next.title,
					locale: next.locale,
					href: link(next.slug),
					// Locks follow progress: finishing this entry may open the next one.
					locked: Boolean(progress.locks.get(next.slug)),
				}
			: null,
		courseHref: `/learn/course/${course.slug}${preview ? '?preview=1' : ''}`,
		quiz,
		assignment,
	}
}

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
const schema = z.discriminatedUnion('intent', [
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

// markEntryComplete and submitQuizAttempt. The page's forms are bare buttons: a refusal is one error for the
// whole page (formErrorResult), with no field values to give back.
export async function action({ request, context, params }: Route.ActionArgs) {
	const session = requireSession(context)
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const { mode, scope, progress, position } = await resolveAccess(ctx, session, request, course, params.entrySlug)
	const refuse = (message: string, status: number) => data({ result: formErrorResult(message) }, { status })
	const entry = progress.entries[position]
	const here = `/learn/course/${course.slug}/entry/${entry.slug}`
	if (entry.type === 'assignment') {
		// Before any body is read: preview writes nothing, not even a file.
		if (mode === 'previewReadOnly') return refuse('learning.entry.previewReadOnly', 403)
		return handInAction(ctx, request, scope, course, entry.slug, here)
	}
	// The server entry lets a multipart body of up to 31 MB reach every entry (it cannot tell an assignment
	// from a lesson), and readForm would buffer it whole: no button of a lesson or quiz sends one. Refused
	// unread; the request adapter drops the rest of the body.
	if (isMultipart(request.headers.get('content-type'))) {
		await request.body?.cancel()
		throw new Response('learning.entry.noFiles', { status: 415 })
	}
	const form = await readForm(request)
	const submission = parseWithZod(form, { schema })
	/** A quiz's answers as posted: one field per question (q:<question id>). */
	const answers = () => {
		const given: Record<string, string> = {}
		for (const [key, value] of form) if (key.startsWith('q:') && typeof value === 'string') given[key.slice(2)] = value
		return given
	}
	if (mode === 'previewReadOnly') {
		// Staff may try the quiz (decision 0026); completing an entry stays refused.
		if (submission.status !== 'success' || submission.value.intent !== 'submit-quiz')
			return refuse('learning.entry.previewReadOnly', 403)
		// Limited like a learner's submission: each one fetches the quiz uncached from the content service.
		const limited = await limitAction(ctx, 'quizSubmission', `user|${scope.userId}`, {
			result: formErrorResult(TOO_MANY),
		})
		if (limited) return limited
		const review = await previewQuizAttempt(ctx, course, entry.slug, answers())
		if (!review) throw badRequest()
		// Rendered by this page from the action's data: there is no stored attempt to redirect to.
		return data({ result: undefined, previewReadOnly: true as const, review })
	}
	// No button of the page sends another intent. Thrown, not returned: re-rendering the page would record a view.
	if (submission.status !== 'success') throw badRequest()
	// The hand-in form is an assignment's only.
	if (submission.value.intent === 'hand-in') throw badRequest()

	if (submission.value.intent === 'submit-quiz') {
		const limited = await limitAction(ctx, 'quizSubmission', `user|${scope.userId}`, {
			result: formErrorResult(TOO_MANY),
		})
		if (limited) return limited
		const outcome = await submitQuizAttempt(ctx, scope, course, entry.slug, answers(), form.get('submission'))
		if (outcome.kind === 'not_a_quiz') throw badRequest()
		if (outcome.kind === 'exhausted') return refuse('learning.entry.attemptsExhausted', 409)
		return redirect(localePath(ctx.locale, `${here}?attempt=${outcome.result.attemptNumber}`))
	}

	if (entry.type === 'quiz') return refuse('learning.entry.quizNotCompletable', 400)
	const courseDone = await markEntryComplete(ctx, scope, course, entry.slug)
	return movedOn(ctx, course, progress.entries[position + 1], courseDone)
}

/** Where a learner goes once an entry is complete: the next entry, told it counted, or the course home when the course is done. */
function movedOn(ctx: RequestContext, course: Course, next: { slug: string } | undefined, courseDone: boolean) {
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
async function handInAction(
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
	const submission = parseWithZod(form, { schema })
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

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
	{
		title: loaderData
			? `${loaderData.entry.title} · ${loaderData.course.title}`
			: metaI18n(matches).m.learning.entry.fallbackTitle,
	},
]

export default function EntryPage({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const l = t.m.learning
	return (
		<article className="entry-view">
			{d.preview ? <PreviewBanner /> : null}
			<nav aria-label={l.entry.breadcrumb} className="hint">
				<Link prefetch="intent" to={d.courseHref} lang={d.courseLocale}>
					{d.course.title}
				</Link>{' '}
				{t.rich(l.entry.position, {
					module: <span lang={d.moduleLocale}>{d.entry.moduleTitle}</span>,
					position: t.number(d.position),
					total: t.number(d.total),
				})}
			</nav>
			<RedirectNotice accept={LEARNING_NOTICES} />
			{d.assignment ? null : <FormError result={actionData?.result} />}
			<h1 lang={d.contentLocale}>{d.entry.title}</h1>
			<ContentLanguage served={d.contentLocale === t.locale ? d.bodyLocale : d.contentLocale} />
			<div className="prose" lang={d.bodyLocale} dangerouslySetInnerHTML={{ __html: d.entry.bodyHtml }} />

			{d.quiz ? (
				<QuizSection
					quiz={d.quiz}
					preview={d.preview}
					previewReview={d.preview && actionData && 'review' in actionData ? actionData.review : null}
					lang={d.bodyLocale}
				/>
			) : null}

			{d.assignment ? (
				<HandInSection
					assignment={d.assignment}
					done={d.done}
					preview={d.preview}
					lang={d.bodyLocale}
					result={actionData?.result}
					fileProblems={(actionData as { fileProblems?: HandInForm['problems'] } | undefined)?.fileProblems ?? []}
				/>
			) : null}

			{d.entry.type === 'lesson' ? (
				d.done ? (
					<Notice tone="ok">{l.entry.completedLesson}</Notice>
				) : (
					<Form method="post">
						<input type="hidden" name="intent" value="complete" />
						<Submit disabled={d.preview}>{l.entry.markComplete}</Submit>
					</Form>
				)
			) : null}

			<nav aria-label={l.entry.navLabel} className="entry-nav">
				{d.prev ? (
					<Link prefetch="intent" to={d.prev.href} rel="prev" lang={d.prev.locale}>
						← {d.prev.title}
					</Link>
				) : (
					<span />
				)}
				{d.next?.locked ? (
					// Not a link: the entry would only send the learner back with the same reason.
					<span className="entry-next-locked">
						<span lang={d.next.locale}>{d.next.title}</span> ({l.entry.nextLocked})
					</span>
				) : d.next ? (
					<Link prefetch="intent" to={d.next.href} rel="next" lang={d.next.locale}>
						{d.next.title} →
					</Link>
				) : (
					<Link prefetch="intent" to={d.courseHref}>
						{l.backToCourse}
					</Link>
				)}
			</nav>
		</article>
	)
}

type QuizData = NonNullable<Route.ComponentProps['loaderData']['quiz']>

/**
 * `lang` is the locale the quiz's prompts and options were served in. `previewReview` is staff's
 * graded try in preview, never stored: shown with the answers, and its answers fill the form.
 */
function QuizSection({
	quiz,
	preview,
	previewReview,
	lang,
}: {
	quiz: QuizData
	preview: boolean
	previewReview: AttemptReview | null
	lang: Locale
}) {
	const t = useI18n()
	const m = t.m.learning.quiz
	const { public: q, result } = quiz
	const previous = previewReview ?? quiz.previous
	const summary = [
		t.format(m.passMark, { score: t.percent(q.passingScore) }),
		t.plural(m.attemptsUsed, q.maxAttempts, { used: t.number(quiz.attemptsUsed) }),
		quiz.attemptsUsed ? t.format(m.bestScore, { score: t.percent(quiz.best) }) : null,
	]
	const given = previous ? Object.fromEntries(previous.questions.map((x) => [x.questionId, x])) : {}
	return (
		<section aria-labelledby="quiz-heading" className="quiz">
			<h2 id="quiz-heading">{m.heading}</h2>
			<p className="hint">{summary.filter(Boolean).join(' · ')}</p>
			{quiz.exhausted ? (
				<>
					<Notice tone="info">{t.plural(m.allUsed, q.maxAttempts)}</Notice>
					<h3 id="quiz-attempts">{m.yourAttempts}</h3>
					<ol className="quiz-attempts" aria-labelledby="quiz-attempts">
						{quiz.history.map((a) => (
							<li key={a.attemptNumber}>
								<AttemptReport attempt={a} quiz={q} revealed={quiz.revealed} rule={quiz.revealRule} lang={lang} />
							</li>
						))}
					</ol>
				</>
			) : (
				<>
					{result ? (
						<AttemptReport
							attempt={result}
							quiz={q}
							revealed={quiz.revealed}
							rule={quiz.revealRule}
							lang={lang}
							attemptsLeft={quiz.resultIsLatest ? quiz.attemptsLeft : undefined}
							role="status"
						/>
					) : null}
					{previewReview ? (
						<AttemptReport attempt={previewReview} quiz={q} revealed rule="always" lang={lang} role="status" preview />
					) : null}
					{quiz.passed && !result ? <Notice tone="ok">{m.passed}</Notice> : null}
					{/* Every attempt after a pass, but the one just reported above (not twice). */}
					{quiz.history.some((a) => a.attemptNumber !== result?.attemptNumber) ? (
						<>
							<h3 id="quiz-attempts">{m.yourAttempts}</h3>
							<ol className="quiz-attempts" aria-labelledby="quiz-attempts">
								{quiz.history
									.filter((a) => a.attemptNumber !== result?.attemptNumber)
									.map((a) => (
										<li key={a.attemptNumber}>
											<AttemptReport attempt={a} quiz={q} revealed={quiz.revealed} rule={quiz.revealRule} lang={lang} />
										</li>
									))}
							</ol>
						</>
					) : null}
					{preview ? <p className="hint">{m.previewNote}</p> : null}
					{/* Keyed by the attempt it starts from: with JavaScript the form is rebuilt from that attempt's answers, as without. */}
					<Form
						key={previous ? `${previous.attemptNumber}:${previous.submittedAt}` : 0}
						method="post"
						className="stack"
					>
						<input type="hidden" name="intent" value="submit-quiz" />
						<input type="hidden" name="submission" value={quiz.submissionKey} />
						{previous ? <p className="hint">{previewReview ? m.previewAnswersKept : m.answersKept}</p> : null}
						{q.questions.map((question, i) => {
							const before = given[question.id]
							const wrong = Boolean(before && !before.correct)
							const statusId = `question-${i + 1}-status`
							const name = `q:${question.id}`
							return (
								<fieldset
									key={question.id}
									className={wrong ? 'question question-incorrect' : 'question'}
									aria-describedby={wrong ? statusId : undefined}
								>
									<legend lang={question.locale ?? lang}>
										{i + 1}. {question.prompt}
									</legend>
									{wrong ? (
										<p id={statusId} className="question-status">
											{m.incorrect}
										</p>
									) : null}
									{question.type === 'multiple_choice' ? (
										question.options.map((o) => (
											<label key={o.id} className="choice" lang={question.locale ?? lang}>
												<input type="radio" name={name} value={o.id} defaultChecked={before?.given === o.id} required />{' '}
												{o.text}
											</label>
										))
									) : question.type === 'true_false' ? (
										<>
											<label className="choice">
												<input
													type="radio"
													name={name}
													value="true"
													defaultChecked={before?.given === 'true'}
													required
												/>{' '}
												{m.trueLabel}
											</label>
											<label className="choice">
												<input type="radio" name={name} value="false" defaultChecked={before?.given === 'false'} />{' '}
												{m.falseLabel}
											</label>
										</>
									) : (
										<label className="field">
											<span>{m.answer}</span>
											<input
												type="text"
												name={name}
												defaultValue={before?.given}
												autoComplete="off"
												maxLength={500}
												required
											/>
										</label>
									)}
								</fieldset>
							)
						})}
						<Submit>{preview ? m.previewSubmit : t.plural(m.submit, quiz.attemptsLeft)}</Submit>
					</Form>
				</>
			)}
		</section>
	)
}

/**
 * One stored attempt: its number, date, score and outcome, then per question the learner's answer and
 * whether it was right; the correct answer and explanation only when the page says they are revealed.
 * `attemptsLeft` is given only for the learner's newest attempt.
 */
function AttemptReport({
	attempt,
	quiz,
	revealed,
	rule,
	lang,
	attemptsLeft,
	role = 'note',
	preview = false,
}: {
	attempt: AttemptReview
	quiz: QuizData['public']
	revealed: boolean
	rule: QuizData['revealRule']
	lang: Locale
	attemptsLeft?: number
	role?: 'status' | 'note'
	/** Staff's try in preview: not an attempt, so no number or date, and said to be unsaved. */
	preview?: boolean
}) {
	const t = useI18n()
	const m = t.m.learning.quiz
	const questions = new Map(quiz.questions.map((x) => [x.id, x]))
	/** An answer as the learner saw it: an option's text, True or False, or the text typed. */
	/**
	 * An answer as the learner saw it: an option's text or the text typed, in the question's language;
	 * True, False and "no answer" are the interface's words, in the page's.
	 */
	const shown = (questionId: string, value: string) => {
		const question = questions.get(questionId)
		if (value === '') return m.noAnswer
		if (question?.type === 'true_false') return value === 'true' ? m.trueLabel : m.falseLabel
		const text =
			question?.type === 'multiple_choice' ? (question.options.find((o) => o.id === value)?.text ?? value) : value
		return <span lang={question?.locale ?? lang}>{text}</span>
	}
	return (
		<Notice tone={attempt.passed ? 'ok' : 'error'} role={role}>
			<p>
				<strong>
					{t.format(preview ? m.previewResult : m.result, {
						number: t.number(attempt.attemptNumber),
						score: t.percent(attempt.score),
						correct: t.number(attempt.correctCount),
						total: t.number(attempt.totalCount),
						outcome: attempt.passed ? m.resultPassed : m.resultNotPassed,
					})}
				</strong>
			</p>
			<p className="hint">
				{preview ? m.previewNotSaved : t.format(m.submitted, { date: t.date(attempt.submittedAt) })}
			</p>
			{attemptsLeft === undefined ? null : <p>{attemptsLeft === 0 ? m.noneLeft : t.plural(m.left, attemptsLeft)}</p>}
			<ul className="quiz-feedback">
				{attempt.questions.map((f) => (
					<li key={f.questionId}>
						<span className="feedback-prompt" lang={questions.get(f.questionId)?.locale ?? lang}>
							{questions.get(f.questionId)?.prompt ?? f.questionId}
						</span>{' '}
						<strong>{f.correct ? m.correct : m.notCorrect}</strong>{' '}
						{t.rich(m.yourAnswerWas, {
							answer: shown(f.questionId, f.given),
						})}
						{f.correctAnswer === undefined ? null : (
							<>
								{' '}
								{t.rich(m.correctAnswer, {
									answer: shown(f.questionId, f.correctAnswer),
								})}
							</>
						)}
						{f.explanation ? (
							<>
								{' '}
								<span lang={questions.get(f.questionId)?.locale ?? lang}>{f.explanation}</span>
							</>
						) : null}
					</li>
				))}
			</ul>
			{revealed ? null : <p className="hint">{rule === 'never' ? m.revealNever : m.revealLater}</p>}
		</Notice>
	)
}

type AssignmentData = NonNullable<Route.ComponentProps['loaderData']['assignment']>
type HandInResult = SubmissionResult<string[]> | undefined

/**
 * The hand-in form and everything handed in so far. A plain multipart form: it works without
 * JavaScript, and a refused hand-in comes back with the text as typed and each error beside its
 * field (files must be chosen again: no browser lets a page keep them).
 */
function HandInSection({
	assignment: a,
	done,
	preview,
	lang,
	result,
	fileProblems,
}: {
	assignment: AssignmentData
	done: boolean
	preview: boolean
	lang: Locale
	result: HandInResult
	fileProblems: { fileName: string; problem: FileProblem }[]
}) {
	const t = useI18n()
	const m = t.m.learning.assignment
	const { rules } = a
	// Without JavaScript the returned page has an empty file field; with it, the same field would keep the
	// refused files. Emptied on every answer, so both say what the page says: choose them again.
	const files = useRef<HTMLInputElement>(null)
	useEffect(() => {
		if (files.current) files.current.value = ''
	}, [result])
	const latest = a.submissions[0]
	const errors = result?.error ?? {}
	const given = (result?.initialValue ?? {}) as Record<string, string | undefined>
	const size = formatBytes(HAND_IN_LIMITS.maxFileBytes, t.locale)
	const problemText = (p: FileProblem) =>
		t.format(m.fileProblems[p], { size, count: t.number(HAND_IN_LIMITS.maxFiles) })
	const fieldError = (name: string) =>
		errors[name]?.length ? (
			<p id={`hand-in-${name}-error`} className="field-error">
				{errors[name]!.map(t.text).join(' ')}
			</p>
		) : null
	const describedBy = (name: string, hint?: string) =>
		[hint, errors[name]?.length ? `hand-in-${name}-error` : null].filter(Boolean).join(' ') || undefined
	// Once the newest hand-in has been graded or returned, its score and feedback come first (issue 39):
	// the learner came from the mail to read them, not to see an empty form.
	const feedbackFirst = latest !== undefined && latest.status !== 'submitted'
	const history = a.submissions.length ? (
		<>
			<h3 id="hand-in-history">{m.history}</h3>
			<ol className="submissions" aria-labelledby="hand-in-history" reversed>
				{a.submissions.map((x) => (
					<li key={x.number} className="submission">
						<p>
							<strong>{t.format(m.submission, { number: t.number(x.number) })}</strong> ·{' '}
							{x.superseded ? m.superseded : m.status[x.status]}
						</p>
						<p className="hint">{t.format(m.submittedAt, { date: t.date(x.submittedAt) })}</p>
						{x.text ? <p className="submission-text">{x.text}</p> : <p className="hint">{m.noText}</p>}
						{x.link ? (
							<p>
								<a href={x.link} rel="noopener noreferrer nofollow ugc" className="break">
									{x.link}
								</a>
							</p>
						) : null}
						{x.files.length ? (
							<ul className="submission-files">
								{x.files.map((f) => (
									<li key={f.id}>
										<a href={`/api/files/${f.id}`} download>
											{f.name}
										</a>{' '}
										<span className="hint">({formatBytes(f.size, t.locale)})</span>
									</li>
								))}
							</ul>
						) : null}
						{x.score !== null && x.maxScore !== null ? (
							<p>
								{t.format(m.score, { score: t.number(x.score), max: t.number(x.maxScore) })}
								{x.passed === null ? null : <> · {x.passed ? m.passed : m.notPassed}</>}
							</p>
						) : null}
						{x.feedback ? (
							<div className="submission-feedback">
								<p>
									<strong>{m.feedback}</strong>
									{x.gradedAt ? (
										<span className="hint"> · {t.format(m.gradedAt, { date: t.date(x.gradedAt) })}</span>
									) : null}
								</p>
								<p className="submission-text">{x.feedback}</p>
							</div>
						) : null}
					</li>
				))}
			</ol>
		</>
	) : null
	return (
		<section aria-labelledby="hand-in-heading" className="hand-in stack">
			<h2 id="hand-in-heading">{m.heading}</h2>
			<p className="hint">
				{rules.graded
					? t.format(m.gradedRule, {
							max: t.number(rules.maxScore),
							pass:
								rules.passingScore === null
									? m.anyGradePasses
									: t.format(m.passMark, { score: t.number(rules.passingScore) }),
						})
					: m.ungradedRule}
			</p>
			{a.instructionsHtml ? (
				<div
					className="prose"
					lang={rules.instructionsLocale ?? lang}
					dangerouslySetInnerHTML={{ __html: a.instructionsHtml }}
				/>
			) : null}
			{done ? (
				<Notice tone="ok">{t.m.learning.entry.completedAssignment}</Notice>
			) : latest?.status === 'returned' ? (
				<Notice tone="info">{m.returnedHint}</Notice>
			) : latest?.status === 'graded' && latest.passed === false ? (
				<Notice tone="info">{m.notPassedHint}</Notice>
			) : null}
			{a.reopened ? <Notice tone="info">{m.reopened}</Notice> : null}
			{feedbackFirst ? history : null}
			{a.closed ? (
				<Notice tone="info" role="note">
					{m.alreadyGraded}
				</Notice>
			) : (
				// Keyed by the hand-ins so far: once one is stored the form starts empty again, with JavaScript as without.
				<Form key={a.submissions.length} method="post" encType="multipart/form-data" className="stack" noValidate>
					<FormError errors={errors[''] ?? undefined} />
					<input type="hidden" name="intent" value="hand-in" />
					<input type="hidden" name="submission" value={a.submissionKey} />
					<div className="field">
						<label htmlFor="hand-in-text">{m.text}</label>
						<textarea
							id="hand-in-text"
							name="text"
							rows={6}
							maxLength={HAND_IN_LIMITS.maxTextChars}
							defaultValue={given.text}
							aria-invalid={errors.text?.length ? true : undefined}
							aria-describedby={describedBy('text')}
						/>
						{fieldError('text')}
					</div>
					<div className="field">
						<label htmlFor="hand-in-link">{m.link}</label>
						<p id="hand-in-link-hint" className="hint">
							{m.linkHint}
						</p>
						<input
							id="hand-in-link"
							name="link"
							type="url"
							inputMode="url"
							maxLength={HAND_IN_LIMITS.maxLinkChars}
							defaultValue={given.link}
							aria-invalid={errors.link?.length ? true : undefined}
							aria-describedby={describedBy('link', 'hand-in-link-hint')}
						/>
						{fieldError('link')}
					</div>
					<div className="field">
						<label htmlFor="hand-in-files">{m.files}</label>
						<p id="hand-in-files-hint" className="hint">
							{t.format(m.filesHint, {
								count: t.number(HAND_IN_LIMITS.maxFiles),
								size,
								types: rules.allowedFileTypes.map((x) => `.${x}`).join(', '),
							})}
						</p>
						<input
							ref={files}
							id="hand-in-files"
							name="files"
							type="file"
							multiple
							accept={rules.allowedFileTypes.map((x) => `.${x}`).join(',')}
							aria-invalid={fileProblems.length ? true : undefined}
							aria-describedby={['hand-in-files-hint', fileProblems.length ? 'hand-in-files-error' : null]
								.filter(Boolean)
								.join(' ')}
						/>
						{fileProblems.length ? (
							<div id="hand-in-files-error" className="field-error">
								<ul>
									{fileProblems.map((p) => (
										<li key={`${p.fileName}|${p.problem}`}>
											{p.fileName ? <>{p.fileName}: </> : null}
											{problemText(p.problem)}
										</li>
									))}
								</ul>
								<p>{m.filesAgain}</p>
							</div>
						) : null}
					</div>
					<Submit disabled={preview}>{latest ? m.submitAgain : m.submit}</Submit>
				</Form>
			)}
			{feedbackFirst ? null : history}
		</section>
	)
}
