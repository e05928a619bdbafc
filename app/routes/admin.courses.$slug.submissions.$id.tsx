import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { FormError, Notice, Submit } from '#app/ui/feedback.tsx'
import { formatBytes } from '#app/i18n/format.ts'
import { Field, TextAreaField, useActionForm } from '#app/ui/form.tsx'
import { TenantHint } from '#app/admin/headings.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { adminAction, type AdminScope, courseAdminPage } from '#app/admin/admin.server.ts'
import { assignmentRules, gradeHandIn, passes, type AssignmentRules } from '#app/learning/assignments.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { readContent } from '#app/content/cms.server.ts'
import type { Course } from '#app/content/content.ts'
import { withNotice } from '#app/platform/notices.ts'
import { NO_NUL } from '#app/platform/validation.ts'
import {
	findCourseSubmission,
	submissionHistory,
	type SubmissionWithFiles,
} from '#app/learning/grading-queue.server.ts'
import { findUserById } from '#app/accounts/users.server.ts'
import type { Route } from './+types/admin.courses.$slug.submissions.$id.ts'

const FEEDBACK_MAX = 5000

/**
 * One schema per button, told apart by `intent`. A score is asked for only when the assignment is
 * graded; returning the work needs feedback (the learner must know what to revise) and no score.
 */
function gradeSchema(rules: AssignmentRules) {
	const feedback = z
		.string()
		.trim()
		.max(FEEDBACK_MAX, 'grading.grade.errors.feedbackTooLong')
		.regex(NO_NUL, 'grading.grade.errors.feedbackInvalid')
	const score = z
		.number({ error: 'grading.grade.errors.scoreRequired' })
		.int('grading.grade.errors.scoreRequired')
		.min(0, 'grading.grade.errors.scoreRequired')
		.max(rules.maxScore, 'grading.grade.errors.scoreRequired')
	return z.discriminatedUnion(
		'intent',
		[
			z.object({
				intent: z.literal('grade'),
				score: rules.graded ? score : z.unknown().transform(() => undefined),
				feedback: feedback.optional(),
			}),
			z.object({
				intent: z.literal('return'),
				feedback: z.string({ error: 'grading.grade.errors.feedbackRequired' }).pipe(feedback),
			}),
		],
		{ error: 'grading.grade.errors.unknownIntent' },
	)
}

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/**
 * The submission of this tenant and this course, and its assignment entry: anything else (another
 * course's or tenant's id, an entry the content no longer has) is 404.
 */
async function load(
	{ ctx }: AdminScope,
	tenant: NonNullable<AdminScope['tenant']>,
	course: Course,
	id: string,
	fresh: boolean,
) {
	// No stored id contains NUL, and PostgreSQL refuses it in a query parameter (`/submissions/%00`).
	if (id.includes('\u0000')) throw notFound()
	const submission = await findCourseSubmission(ctx.db, tenant.id, course.slug, id)
	if (!submission) throw notFound()
	// The action grades against the content's rules as they are now, not as a cache last saw them.
	const read = fresh ? ctx.cms.uncached : ctx.cms
	const entry = await readContent(`entry ${course.slug}/${submission.entry_slug}`, () =>
		read.entry(ctx.site, course.slug, submission.entry_slug, ctx.locale),
	)
	if (!entry || entry.type !== 'assignment') throw notFound()
	return { submission, entry, rules: assignmentRules(entry) }
}

const safeLink = (url: string | null) => {
	if (!url) return null
	try {
		const parsed = new URL(url)
		return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
	} catch {
		return null
	}
}

function shown(s: SubmissionWithFiles) {
	return {
		id: s.id,
		number: s.submission_number,
		status: s.status,
		text: s.text_answer,
		link: s.link_url,
		// Only http and https become links: `javascript:` or `data:` stay text.
		href: safeLink(s.link_url),
		score: s.score,
		maxScore: s.max_score,
		passed: s.passed,
		feedback: s.feedback,
		submittedAt: s.submitted_at.toISOString(),
		gradedAt: s.graded_at?.toISOString() ?? null,
		files: s.files.map((f) => ({ id: f.id, name: f.file_name, size: f.size_bytes })),
	}
}

export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return page
	const { submission, entry, rules } = await load(scope, tenant, course, params.id, false)
	const [learner, history] = await Promise.all([
		findUserById(scope.ctx.db, submission.user_id),
		submissionHistory(scope.ctx.db, submission),
	])
	const current = history.find((s) => s.id === submission.id)!
	const newest = history[history.length - 1]
	return {
		...page,
		// Titles keep the locales they were served in (decision 0012).
		entry: { title: entry.title, locale: entry.locale },
		rules: { graded: rules.graded, maxScore: rules.maxScore, passingScore: rules.passingScore },
		learner: { name: learner?.name ?? '', email: learner?.email ?? '' },
		submission: shown(current),
		newestId: newest.id === submission.id ? null : newest.id,
		awaiting: submission.status === 'submitted' && newest.id === submission.id,
		earlier: history
			.filter((s) => s.submission_number < submission.submission_number)
			.reverse()
			.map(shown),
	}
}

export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request, params }: Route.ActionArgs) => {
		const { submission, rules } = await load(scope, tenant, course, params.id, true)
		const form = parseWithZod(await readForm(request), { schema: gradeSchema(rules) })
		if (form.status !== 'success') return data({ result: replyWithHidden(form, ['intent']) }, { status: 400 })
		const value = form.value
		const score = value.intent === 'grade' && typeof value.score === 'number' ? value.score : null
		const graded = await gradeHandIn(scope.ctx, course, submission, {
			status: value.intent === 'grade' ? 'graded' : 'returned',
			score,
			maxScore: rules.maxScore,
			// An ungraded assignment's "grade" is feedback only: no score, no verdict (it completed on hand-in).
			passed: score === null ? null : passes(rules, score),
			feedback: value.feedback ?? '',
			gradedBy: scope.session.user.id,
		})
		// A double press, a second grader, or a newer hand-in: nothing was written.
		if (!graded)
			return data({ result: form.reply({ formErrors: ['grading.grade.errors.notAwaiting'] }) }, { status: 409 })
		return redirect(
			localePath(
				scope.ctx.locale,
				withNotice(
					`/admin/courses/${course.slug}/submissions`,
					graded.status === 'graded' ? 'submissionGraded' : 'submissionReturned',
				),
			),
		)
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.grading.grade.metaTitle }]

type Shown = ReturnType<typeof shown>

/** What the learner handed in, as plain text: React escapes it, and nothing is parsed as HTML or Markdown. */
function HandedIn({ s }: { s: Shown }) {
	const t = useI18n()
	const m = t.m.grading.grade
	return (
		<dl className="submission-facts">
			<dt>{m.text}</dt>
			<dd>{s.text ? <div className="handed-in">{s.text}</div> : m.noText}</dd>
			<dt>{m.link}</dt>
			<dd>
				{!s.link ? (
					m.noLink
				) : s.href ? (
					<a href={s.href} rel="noopener noreferrer nofollow ugc" target="_blank">
						{s.link}
					</a>
				) : (
					<>
						<code>{s.link}</code> ({m.linkNotOpened})
					</>
				)}
			</dd>
			<dt>{m.files}</dt>
			<dd>
				{s.files.length === 0 ? (
					m.noFiles
				) : (
					<ul>
						{s.files.map((f) => (
							<li key={f.id}>
								<a href={`/api/files/${f.id}`} download>
									{f.name}
								</a>{' '}
								({formatBytes(f.size, t.locale)})
							</li>
						))}
					</ul>
				)}
			</dd>
		</dl>
	)
}

function Outcome({ s }: { s: Shown }) {
	const t = useI18n()
	const m = t.m.grading.grade
	return (
		<dl className="submission-facts">
			<dt>{m.status}</dt>
			<dd>{t.m.grading.status[s.status]}</dd>
			{s.score !== null && s.maxScore !== null ? (
				<>
					<dt>{m.score}</dt>
					<dd>
						{t.format(m.scoreOf, { score: t.number(s.score), max: t.number(s.maxScore) })}
						{s.passed === null ? null : ` · ${s.passed ? m.passed : m.notPassed}`}
					</dd>
				</>
			) : null}
			{s.status === 'submitted' ? null : (
				<>
					<dt>{m.feedback}</dt>
					<dd>{s.feedback ? <div className="handed-in">{s.feedback}</div> : m.noFeedback}</dd>
				</>
			)}
		</dl>
	)
}

export default function GradeSubmission({ loaderData: d, actionData }: Route.ComponentProps) {
	const [form, fields] = useActionForm(actionData && 'result' in actionData ? actionData.result : undefined)
	const t = useI18n()
	const m = t.m.grading.grade
	if (d.hint) return <TenantHint title={m.hintTitle} what={m.hintWhat} />
	const s = d.submission
	const queue = `/admin/courses/${d.course.slug}/submissions`
	return (
		<section className="narrow">
			<p>
				<Link prefetch="intent" to={queue}>
					{m.backToQueue}
				</Link>
			</p>
			<h1>
				{t.rich(m.title, {
					entry: <span lang={d.entry.locale}>{d.entry.title}</span>,
					learner: d.learner.name || d.learner.email,
				})}
			</h1>
			<p className="submission-facts">
				{d.learner.name} <span className="break">&lt;{d.learner.email}&gt;</span> ·{' '}
				<span lang={d.course.locale}>{d.course.title}</span>
			</p>

			<h2>{m.assignment}</h2>
			{d.rules.graded ? (
				<dl className="submission-facts">
					<dt>{m.maxScore}</dt>
					<dd>{t.number(d.rules.maxScore)}</dd>
					<dt>{m.passMark}</dt>
					<dd>{d.rules.passingScore === null ? m.anyGradePasses : t.number(d.rules.passingScore)}</dd>
				</dl>
			) : (
				<p>{m.ungraded}</p>
			)}

			<h2>{t.format(m.submission, { number: t.number(s.number) })}</h2>
			<p className="hint">
				{m.submittedAt} {t.date(s.submittedAt)}
			</p>
			<HandedIn s={s} />
			<Outcome s={s} />

			{/* Outside the form: a refused grade (409) re-renders a page whose submission no longer awaits grading. */}
			<FormError errors={form.errors} id={form.errorId} />
			{d.awaiting ? (
				<>
					<h2 id="grade-form">{m.form}</h2>
					<Form method="post" className="stack" aria-labelledby="grade-form" {...getFormProps(form)}>
						{d.rules.graded ? (
							// No min/max/required attributes: the action validates, and answers in the page's language (0020).
							<Field
								label={t.format(m.scoreLabel, { max: t.number(d.rules.maxScore) })}
								hint={
									d.rules.passingScore === null
										? t.format(m.scoreHint, { pass: m.anyGradePasses })
										: t.format(m.scoreHintAgain, { pass: t.number(d.rules.passingScore) })
								}
								meta={fields.score}
								autoComplete="off"
								inputMode="numeric"
								size={String(d.rules.maxScore).length + 2}
							/>
						) : null}
						<TextAreaField label={m.feedbackLabel} hint={m.feedbackHint} meta={fields.feedback} rows={8} />
						<p className="actions">
							<Submit name="intent" value="grade">
								{m.gradeIt}
							</Submit>
							<Submit name="intent" value="return" className="button button-secondary">
								{m.returnForRevision}
							</Submit>
						</p>
					</Form>
				</>
			) : (
				<Notice tone="info" role="note">
					{d.newestId ? (
						<>
							{m.superseded} <Link to={`${queue}/${d.newestId}`}>{m.openNewest}</Link>
						</>
					) : (
						t.format(m.closed, { status: t.m.grading.status[s.status] })
					)}
				</Notice>
			)}

			<h2>{m.history}</h2>
			{d.earlier.length === 0 ? (
				<p className="empty">{m.noHistory}</p>
			) : (
				d.earlier.map((e) => (
					<article key={e.id}>
						<h3>{t.format(m.submission, { number: t.number(e.number) })}</h3>
						<p className="hint">
							{m.submittedAt} {t.date(e.submittedAt)}
						</p>
						<HandedIn s={e} />
						<Outcome s={e} />
					</article>
				))
			)}
		</section>
	)
}
