import { randomBytes } from 'node:crypto'
import { data, Form, redirect, Link } from 'react-router'
import { ContentLanguage } from '#app/components/content-language.tsx'
import { Notice, Submit, FormError, RedirectNotice } from '#app/components/feedback.tsx'
import { PreviewBanner } from '#app/components/learning.tsx'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath, type Locale } from '#app/i18n/locales.ts'
import { requireSession } from '#app/utils/auth.server.ts'
import { readContent } from '#app/utils/cms.server.ts'
import { toQuizPublic, type Course } from '#app/utils/content.ts'
import { limitAction, TOO_MANY, readForm, formErrorResult } from '#app/utils/forms.server.ts'
import {
	canPreview,
	courseProgress,
	isActiveEnrollment,
	markEntryComplete,
	recordView,
	requireCourse,
	wantsPreview,
	type LockReason,
} from '#app/utils/learning.server.ts'
import { renderMarkdown } from '#app/utils/markdown.server.ts'
import { withNotice, LEARNING_NOTICES, type NoticeName } from '#app/utils/notices.ts'
import { attemptResult, submitQuizAttempt, type AttemptResult } from '#app/utils/quiz.server.ts'
import type { CurrentSession } from '#app/utils/session.server.ts'
import { listAttempts } from '#db/learning.ts'
import type { Route } from './+types/learn.course.$slug.entry.$entrySlug.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { badRequest, notFound } from '#app/utils/errors.ts'
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
		const target = progress.firstOpen
			? `/learn/course/${course.slug}/entry/${progress.firstOpen.slug}`
			: `/learn/course/${course.slug}`
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
		const attempts = preview ? [] : await listAttempts(ctx.db, scope, course.slug, entry.slug)
		const shown = Number(url.searchParams.get('attempt'))
		const result = attempts.find((a) => a.attempt_number === shown)
		const best = attempts.reduce((m, a) => Math.max(m, a.score), 0)
		quiz = {
			// Only the client-safe shape reaches the page: no correct or accepted answers.
			public: toQuizPublic(entry.quiz),
			attemptsUsed: attempts.length,
			exhausted: attempts.length >= entry.quiz.maxAttempts,
			passed: attempts.some((a) => a.passed),
			best,
			result: result ? attemptResult(result, entry.quiz.maxAttempts, entry.quiz.questions.length) : null,
			// Names this rendering's submission: sent again (a retry after an error, a double press) it is the same attempt.
			submissionKey: randomBytes(18).toString('base64url'),
		}
	}

	return {
		course: { slug: course.slug, title: course.title },
		entry: {
			slug: entry.slug,
			type: entry.type,
			title: entry.title,
			bodyHtml: await renderMarkdown(ctx, entry.body, { courseSlug: course.slug }),
			moduleTitle: entries[position].moduleTitle,
		},
		// The locales the entry and its course were served in (en when there is no translation in the page's locale).
		contentLocale: entry.locale,
		courseLocale: course.locale,
		done: completed.has(entry.slug),
		preview,
		position: position + 1,
		total: entries.length,
		prev: prev ? { title: prev.title, href: link(prev.slug) } : null,
		next: next
			? {
					title: next.title,
					href: link(next.slug),
					locked: Boolean(progress.locks.get(next.slug)) && !completed.has(entry.slug),
				}
			: null,
		courseHref: `/learn/course/${course.slug}${preview ? '?preview=1' : ''}`,
		quiz,
	}
}

// The page's two buttons, told apart by `intent`. A quiz's answers are the fields named q:<question id>, as
// many as it has questions: submitQuizAttempt reads them from the form as posted.
const schema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('complete') }),
	z.object({ intent: z.literal('submit-quiz') }),
])

// markEntryComplete and submitQuizAttempt. The page's forms are bare buttons: a refusal is one error for the
// whole page (formErrorResult), with no field values to give back.
export async function action({ request, context, params }: Route.ActionArgs) {
	const session = requireSession(context)
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const { mode, scope, progress, position } = await resolveAccess(ctx, session, request, course, params.entrySlug)
	const form = await readForm(request)
	const submission = parseWithZod(form, { schema })
	const refuse = (message: string, status: number) => data({ result: formErrorResult(message) }, { status })
	if (mode === 'previewReadOnly') return refuse('learning.entry.previewReadOnly', 403)
	// No button of the page sends another intent. Thrown, not returned: re-rendering the page would record a view.
	if (submission.status !== 'success') throw badRequest()
	const entry = progress.entries[position]
	const here = `/learn/course/${course.slug}/entry/${entry.slug}`

	if (submission.value.intent === 'submit-quiz') {
		const limited = await limitAction(ctx, 'quizSubmission', `user|${scope.userId}`, {
			result: formErrorResult(TOO_MANY),
		})
		if (limited) return limited
		const answers: Record<string, string> = {}
		for (const [key, value] of form)
			if (key.startsWith('q:') && typeof value === 'string') answers[key.slice(2)] = value
		const outcome = await submitQuizAttempt(ctx, scope, course, entry.slug, answers, form.get('submission'))
		if (outcome.kind === 'not_a_quiz') throw badRequest()
		if (outcome.kind === 'exhausted') return refuse('learning.entry.attemptsExhausted', 409)
		return redirect(localePath(ctx.locale, `${here}?attempt=${outcome.result.attemptNumber}`))
	}

	if (entry.type === 'quiz') return refuse('learning.entry.quizNotCompletable', 400)
	const courseDone = await markEntryComplete(ctx, scope, course, entry.slug)
	const next = progress.entries[position + 1]
	if (courseDone && !next)
		return redirect(localePath(ctx.locale, withNotice(`/learn/course/${course.slug}`, 'courseCompleted')))
	return redirect(
		localePath(ctx.locale, next ? `/learn/course/${course.slug}/entry/${next.slug}` : `/learn/course/${course.slug}`),
	)
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

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
				{t.format(l.entry.position, {
					module: d.entry.moduleTitle,
					position: t.number(d.position),
					total: t.number(d.total),
				})}
			</nav>
			<RedirectNotice accept={LEARNING_NOTICES} />
			<FormError result={actionData?.result} />
			<h1 lang={d.contentLocale}>{d.entry.title}</h1>
			<ContentLanguage served={d.contentLocale} />
			<div className="prose" lang={d.contentLocale} dangerouslySetInnerHTML={{ __html: d.entry.bodyHtml }} />

			{d.quiz ? <QuizSection quiz={d.quiz} preview={d.preview} lang={d.contentLocale} /> : null}

			{d.entry.type !== 'quiz' ? (
				d.done ? (
					<Notice tone="ok">
						{d.entry.type === 'assignment' ? l.entry.completedAssignment : l.entry.completedLesson}
					</Notice>
				) : (
					<Form method="post">
						<input type="hidden" name="intent" value="complete" />
						<Submit disabled={d.preview}>
							{d.entry.type === 'assignment' ? l.entry.finishedAssignment : l.entry.markComplete}
						</Submit>
					</Form>
				)
			) : null}

			<nav aria-label={l.entry.navLabel} className="entry-nav">
				{d.prev ? (
					<Link prefetch="intent" to={d.prev.href} rel="prev" lang={d.courseLocale}>
						← {d.prev.title}
					</Link>
				) : (
					<span />
				)}
				{d.next ? (
					<Link prefetch="intent" to={d.next.href} rel="next" lang={d.courseLocale}>
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

/** `lang` is the locale the quiz's prompts and options were served in. */
function QuizSection({ quiz, preview, lang }: { quiz: QuizData; preview: boolean; lang: Locale }) {
	const t = useI18n()
	const m = t.m.learning.quiz
	const { public: q, result } = quiz
	const remaining = q.maxAttempts - quiz.attemptsUsed
	const summary = [
		t.format(m.passMark, { score: t.percent(q.passingScore) }),
		t.plural(m.attemptsUsed, q.maxAttempts, { used: t.number(quiz.attemptsUsed) }),
		quiz.attemptsUsed ? t.format(m.bestScore, { score: t.percent(quiz.best) }) : null,
	]
	return (
		<section aria-labelledby="quiz-heading" className="quiz">
			<h2 id="quiz-heading">{m.heading}</h2>
			<p className="hint">{summary.filter(Boolean).join(' · ')}</p>
			{result ? (
				<AttemptFeedback
					result={result}
					prompts={Object.fromEntries(q.questions.map((x) => [x.id, x.prompt]))}
					lang={lang}
				/>
			) : null}
			{quiz.exhausted ? (
				<Notice tone="info">{t.plural(m.allUsed, q.maxAttempts)}</Notice>
			) : quiz.passed && !result ? (
				<Notice tone="ok">{m.passed}</Notice>
			) : null}
			{quiz.exhausted ? null : (
				<Form method="post" className="stack">
					<input type="hidden" name="intent" value="submit-quiz" />
					<input type="hidden" name="submission" value={quiz.submissionKey} />
					{q.questions.map((question, i) => (
						<fieldset key={question.id} className="question">
							<legend lang={lang}>
								{i + 1}. {question.prompt}
							</legend>
							{question.type === 'multiple_choice' ? (
								question.options.map((o) => (
									<label key={o.id} className="choice" lang={lang}>
										<input type="radio" name={`q:${question.id}`} value={o.id} required /> {o.text}
									</label>
								))
							) : question.type === 'true_false' ? (
								<>
									<label className="choice">
										<input type="radio" name={`q:${question.id}`} value="true" required /> {m.trueLabel}
									</label>
									<label className="choice">
										<input type="radio" name={`q:${question.id}`} value="false" /> {m.falseLabel}
									</label>
								</>
							) : (
								<label className="field">
									<span>{m.answer}</span>
									<input type="text" name={`q:${question.id}`} autoComplete="off" maxLength={500} required />
								</label>
							)}
						</fieldset>
					))}
					<Submit disabled={preview}>{t.plural(m.submit, remaining)}</Submit>
				</Form>
			)}
		</section>
	)
}

function AttemptFeedback({
	result,
	prompts,
	lang,
}: {
	result: AttemptResult
	prompts: Record<string, string>
	lang: Locale
}) {
	const t = useI18n()
	const m = t.m.learning.quiz
	return (
		<Notice tone={result.passed ? 'ok' : 'error'} role="status">
			<p>
				<strong>
					{t.format(m.result, {
						number: t.number(result.attemptNumber),
						score: t.percent(result.score),
						correct: t.number(result.correctCount),
						total: t.number(result.totalCount),
						outcome: result.passed ? m.resultPassed : m.resultNotPassed,
					})}
				</strong>
			</p>
			<p>{result.attemptsRemaining === 0 ? m.noneLeft : t.plural(m.left, result.attemptsRemaining)}</p>
			<ul>
				{result.perQuestionFeedback.map((f) => (
					<li key={f.questionId}>
						{/* The explanation was stored with the attempt, in the locale the quiz was graded in: it is content, shown as stored. */}
						<span className="feedback-prompt" lang={lang}>
							{prompts[f.questionId] ?? f.questionId}
						</span>{' '}
						{`${f.correct ? m.correct : m.notCorrect} ${f.explanation}`}
					</li>
				))}
			</ul>
		</Notice>
	)
}
