import { data, Form, redirect, Link } from 'react-router'
import { ContentLanguage } from '#app/content/content-language.tsx'
import { Notice, Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { PreviewBanner } from '#app/learning/learning.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { readContent } from '#app/content/cms.server.ts'
import { limitAction, TOO_MANY, readForm, formErrorResult } from '#app/platform/forms.server.ts'
import { markEntryComplete, recordView } from '#app/learning/learning.server.ts'
import { previewBanner, previewSearch } from '#app/learning/preview.server.ts'
import { renderMarkdown, stripLeadingTitle } from '#app/content/markdown.server.ts'
import { LEARNING_NOTICES } from '#app/platform/notices.ts'
import { previewQuizAttempt, submitQuizAttempt } from '#app/learning/quiz.server.ts'
import { isMultipart } from '#app/learning/hand-in-limits.ts'
import type { HandInForm } from '#app/learning/hand-in.server.ts'
import {
	assignmentView,
	entryActionSchema,
	handInAction,
	movedOn,
	quizView,
	requireEntryCourse,
	resolveAccess,
} from '#app/learning/entry-page.server.ts'
import { HandInSection } from '#app/learning/hand-in-section.tsx'
import { QuizSection } from '#app/learning/quiz-section.tsx'
import { courseDueLines } from '#app/learning/due-dates.server.ts'
import { DueBadge } from '#app/learning/due-list.tsx'
import type { Route } from './+types/learn.course.$slug.entry.$entrySlug.ts'
import { badRequest, notFound } from '#app/platform/errors.ts'
import { parseWithZod } from '@conform-to/zod/v4'

export async function loader({ request, context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const { course, draft, ...reader } = await requireEntryCourse(ctx, context, request, params.slug)
	const { preview, scope, progress, position } = await resolveAccess(ctx, reader, course, params.entrySlug)
	const entry = await readContent(`entry ${course.slug}/${params.entrySlug}`, () =>
		ctx.cms.entry(ctx.site, course.slug, params.entrySlug, ctx.locale),
	)
	if (!entry) throw notFound()
	if (!preview) await recordView(ctx, scope, course.slug, entry.slug)

	const { entries, completed } = progress
	const link = (slug: string) => `/learn/course/${course.slug}/entry/${slug}${previewSearch(preview)}`
	const prev = entries[position - 1]
	const next = entries[position + 1]
	const url = new URL(request.url)

	const quiz =
		entry.type === 'quiz' && entry.quiz
			? await quizView(ctx, scope, course, entry.quiz, entry.slug, Boolean(preview), url)
			: null
	const assignment =
		entry.type === 'assignment' ? await assignmentView(ctx, scope, course, entry, Boolean(preview)) : null
	// This entry's due date for the learner (decision 0045), in their zone; none in a preview.
	const due = preview
		? null
		: ((await courseDueLines(ctx, scope, course, progress, (i) => i.entrySlug === entry.slug)).lines[0] ?? null)

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
		due,
		preview: Boolean(preview),
		// Whom a preview link is for and until when (decision 0100).
		previewLink: previewBanner(ctx, preview),
		draft,
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
		courseHref: `/learn/course/${course.slug}${previewSearch(preview)}`,
		quiz,
		assignment,
	}
}

// markEntryComplete and submitQuizAttempt. The page's forms are bare buttons: a refusal is one error for the
// whole page (formErrorResult), with no field values to give back.
export async function action({ request, context, params }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const { course, ...reader } = await requireEntryCourse(ctx, context, request, params.slug)
	const { mode, scope, progress, position } = await resolveAccess(ctx, reader, course, params.entrySlug)
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
	const submission = parseWithZod(form, { schema: entryActionSchema })
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
			{d.preview ? <PreviewBanner draft={d.draft} link={d.previewLink} /> : null}
			<nav aria-label={l.entry.breadcrumb} className="hint breadcrumb">
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
			{d.due ? (
				<p className="entry-due">
					<DueBadge line={d.due} />
				</p>
			) : null}
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
