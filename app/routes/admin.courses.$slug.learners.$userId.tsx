import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { ConfirmStep, FormError, Notice, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { TenantHint } from '#app/admin/headings.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { adminAction, courseAdminPage } from '#app/admin/admin.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { askToConfirm, confirmed, firstError, postedIntent, readForm } from '#app/platform/forms.server.ts'
import { flattenEntries } from '#app/learning/entries.ts'
import { withNotice, type NoticeName } from '#app/platform/notices.ts'
import { courseLearner, grantSecondChance } from '#app/learning/second-chances.server.ts'
import { learnerStanding } from '#app/admin/learner-standing.server.ts'
import { extendLearnerDueDate, learnerDueDates } from '#app/learning/due-dates.server.ts'
import { ExtensionForm } from '#app/learning/extension-form.tsx'
import { NO_NUL } from '#app/platform/validation.ts'
import type { Route } from './+types/admin.courses.$slug.learners.$userId.ts'

/*
 * One learner in one course, for the course's staff (decision 0037): their status and result, each
 * quiz and assignment, and the second chances staff may give with a reason (more attempts at a quiz
 * not passed; an assignment reopened after a final grade). Plain POST forms, one per entry: they
 * work without JavaScript, and a refusal comes back beside the form it belongs to.
 */

const reason = z
	.string({ error: 'adminCourses.learner.errors.reasonRequired' })
	.trim()
	.min(1, 'adminCourses.learner.errors.reasonRequired')
	.max(500, 'adminCourses.learner.errors.reasonRequired')
	.regex(NO_NUL, 'adminCourses.learner.errors.reasonRequired')
const entrySlug = z
	.string('adminCourses.learner.errors.unknownEntry')
	.regex(/^[a-z0-9-]{1,100}$/, 'adminCourses.learner.errors.unknownEntry')

const schema = z.discriminatedUnion(
	'intent',
	[
		z.object({
			intent: z.literal('grant-attempts'),
			entry: entrySlug,
			attempts: z.coerce
				.number({ error: 'adminCourses.learner.errors.attempts' })
				.int('adminCourses.learner.errors.attempts')
				.min(1, 'adminCourses.learner.errors.attempts')
				.max(10, 'adminCourses.learner.errors.attempts'),
			reason,
			key: z.string().optional(),
			...confirmed,
		}),
		z.object({ intent: z.literal('reopen'), entry: entrySlug, reason, key: z.string().optional() }),
		// A new due date for this learner (decision 0045): a wall-clock time in the learner's time zone.
		z.object({
			intent: z.literal('extend-due'),
			entry: entrySlug,
			dueAt: z
				.string('adminCourses.dueDates.invalidDate')
				.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'adminCourses.dueDates.invalidDate'),
			reason,
		}),
	],
	{ error: 'adminCourses.learner.errors.unknownIntent' },
)

// Administration ships JavaScript (client-side navigation, pending states); the forms work without it.
export const handle = { scripts: true } satisfies ScriptsHandle

const NOTICES_HERE = ['attemptsGranted', 'assignmentReopened', 'dueExtended'] as const satisfies readonly NoticeName[]

export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return { ...page, learner: null }
	const { ctx } = scope
	const found = await courseLearner(ctx, tenant.id, course.slug, params.userId)
	if (!found) throw notFound()
	const standing = await learnerStanding(ctx, tenant.id, course, found)
	const due = await learnerDueDates(ctx, { tenantId: tenant.id, userId: found.user.id }, course)
	return {
		due,
		...page,
		learner: { id: found.user.id, name: found.user.name, email: found.user.email, status: found.enrollment.status },
		...standing,
	}
}

export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request, params }: Route.ActionArgs) => {
		const { ctx } = scope
		const found = await courseLearner(ctx, tenant.id, course.slug, params.userId)
		if (!found) throw notFound()
		const submission = parseWithZod(await readForm(request), { schema })
		// Which form a refusal is shown beside, invalid posts too: an entry may have both a second
		// chance and a due date, each a form of its own (postedIntent).
		const { entry: posted } = submission.payload
		const entryOf = typeof posted === 'string' ? posted : ''
		const forDue = postedIntent(submission) === 'extend-due'
		const refuse = (error: string, status = 400) => data({ entry: entryOf, forDue, error }, { status })
		if (submission.status !== 'success')
			return refuse(firstError(submission) ?? 'adminCourses.learner.errors.unknownIntent')
		const input = submission.value
		if (input.intent === 'extend-due') {
			const outcome = await extendLearnerDueDate(ctx, course, found.user, {
				entrySlug: input.entry,
				local: input.dueAt,
				reason: input.reason,
				staffUserId: scope.session.user.id,
			})
			if (outcome !== 'extended') return refuse(`adminCourses.dueDates.${outcome}`)
			return redirect(
				localePath(ctx.locale, withNotice(`/admin/courses/${course.slug}/learners/${found.user.id}`, 'dueExtended')),
			)
		}
		const entry = flattenEntries(course).find((e) => e.slug === input.entry)
		const wanted = input.intent === 'grant-attempts' ? 'quiz' : 'assignment'
		if (!entry || entry.type !== wanted) return refuse('adminCourses.learner.errors.unknownEntry')
		const outcome = await grantSecondChance(ctx, course, found.user, {
			kind: input.intent === 'grant-attempts' ? 'quiz_attempts' : 'assignment_reopen',
			entrySlug: entry.slug,
			extraAttempts: input.intent === 'grant-attempts' ? input.attempts : 0,
			reason: input.reason,
			key: input.key,
			staffUserId: scope.session.user.id,
			confirmed: input.intent === 'grant-attempts' && input.confirmed === 'yes',
		})
		if (outcome === 'answers_shown' && input.intent === 'grant-attempts')
			// Nothing granted yet: the same fields again, confirmed (decision 0054).
			return askToConfirm({
				question: 'adminCourses.learner.confirmAnswersShown',
				button: 'adminCourses.learner.grantAnyway',
				values: { learner: found.user.name || found.user.email, entry: entry.title },
				fields: {
					intent: input.intent,
					entry: entry.slug,
					attempts: String(input.attempts),
					reason: input.reason,
					...(input.key ? { key: input.key } : {}),
				},
			})
		if (outcome === 'already_passed') return refuse('adminCourses.learner.errors.alreadyPassed', 409)
		if (outcome === 'not_closed') return refuse('adminCourses.learner.errors.notClosed', 409)
		// Granted, or this form's grant already stored (a replay): either way the page now shows it.
		const notice = input.intent === 'grant-attempts' ? 'attemptsGranted' : 'assignmentReopened'
		return redirect(
			localePath(ctx.locale, withNotice(`/admin/courses/${course.slug}/learners/${found.user.id}`, notice)),
		)
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData: d, matches }) => {
	const t = metaI18n(matches)
	if (!d || d.hint || !d.learner) return [{ title: t.m.adminCourses.learner.back }]
	return [
		{
			title: t.format(t.m.adminCourses.learner.metaTitle, {
				learner: d.learner.name || d.learner.email,
				course: d.course.title,
			}),
		},
	]
}

type Row = Extract<Route.ComponentProps['loaderData'], { hint: false }>['entries'][number]

/** One entry's second chance: a plain form with its reason, and its error beside it. */
function ChanceForm({ row, error }: { row: Row; error: string | null }) {
	const t = useI18n()
	const m = t.m.adminCourses.learner
	const id = (name: string) => `${row.slug}-${name}`
	const canGrant = row.type === 'quiz' ? !row.passed : row.closed
	// A refusal for an entry that no longer offers one (the quiz was passed meanwhile) is said here too.
	if (!canGrant) return error ? <p className="field-error">{t.text(error)}</p> : <>{m.none}</>
	return (
		<Form method="post" className="stack">
			<input type="hidden" name="intent" value={row.type === 'quiz' ? 'grant-attempts' : 'reopen'} />
			<input type="hidden" name="entry" value={row.slug} />
			<input type="hidden" name="key" value={row.key} />
			{row.type === 'quiz' ? (
				<div className="field">
					<label htmlFor={id('attempts')}>{m.extraAttempts}</label>
					<input id={id('attempts')} name="attempts" inputMode="numeric" defaultValue="1" size={3} autoComplete="off" />
				</div>
			) : null}
			<div className="field">
				<label htmlFor={id('reason')}>{m.reason}</label>
				<p id={id('reason-hint')} className="hint">
					{m.reasonHint}
				</p>
				<textarea
					id={id('reason')}
					name="reason"
					rows={2}
					maxLength={500}
					aria-invalid={error ? true : undefined}
					aria-describedby={[id('reason-hint'), error ? id('error') : null].filter(Boolean).join(' ')}
				/>
				{error ? (
					<p id={id('error')} className="field-error">
						{t.text(error)}
					</p>
				) : null}
			</div>
			<Submit>{row.type === 'quiz' ? m.grant : m.reopen}</Submit>
		</Form>
	)
}

function standing(t: ReturnType<typeof useI18n>, row: Row) {
	const m = t.m.adminCourses.learner
	if (row.type === 'quiz') {
		if (row.used === 0) return m.noAttempts
		const used = t.plural(m.quiz, row.allowed, { used: t.number(row.used) })
		const best = row.best === null ? '' : ` · ${t.format(m.best, { score: t.percent(row.best) })}`
		return `${used}${best} · ${row.passed ? m.passed : m.notPassed}`
	}
	if (!row.status) return m.notHandedIn
	if (row.status === 'submitted') return m.awaiting
	if (row.status === 'returned') return m.returned
	if (row.passed === null) return m.ungraded
	const score =
		row.score !== null && row.maxScore !== null
			? `${t.format(t.m.adminCourses.dashboard.points, { score: t.number(row.score), max: t.number(row.maxScore) })} · `
			: ''
	return `${score}${row.passed ? m.passed : m.notPassed}`
}

export default function CourseLearner({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.adminCourses.learner
	if (d.hint)
		return <TenantHint title={t.m.adminCourses.dashboard.hintTitle} what={t.m.adminCourses.dashboard.hintWhat} />
	if (!d.learner) return null
	const refused = actionData && 'error' in actionData ? actionData : null
	const known =
		refused && (d.entries.some((e) => e.slug === refused.entry) || d.due.entries.some((e) => e.slug === refused.entry))
	return (
		<section>
			<p>
				<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/dashboard`}>
					{m.back}
				</Link>
			</p>
			<h1>
				{t.rich(m.title, {
					learner: d.learner.name || d.learner.email,
					course: <span lang={d.course.locale}>{d.course.title}</span>,
				})}
			</h1>
			<RedirectNotice accept={NOTICES_HERE} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			{refused && !known ? <FormError errors={[refused.error]} /> : null}
			<FormError result={actionData && 'result' in actionData ? actionData.result : null} />
			<dl className="submission-facts">
				<dt>{m.status}</dt>
				<dd>{t.m.adminCourses.enrollmentStatus[d.learner.status]}</dd>
				<dt>{m.result}</dt>
				<dd>
					<span className={d.result.passed ? 'badge badge-ok' : 'badge'}>
						{d.result.passed ? t.m.adminCourses.dashboard.coursePassed : t.m.adminCourses.dashboard.courseNotPassed}
					</span>
				</dd>
				{d.result.average === null ? null : (
					<>
						<dt>{m.average}</dt>
						<dd>{t.percent(d.result.average)}</dd>
					</>
				)}
			</dl>
			<h2>{m.entries}</h2>
			<ScrollTable label={m.entries}>
				<thead>
					<tr>
						<th scope="col">{m.entry}</th>
						<th scope="col">{m.standing}</th>
						<th scope="col">{m.secondChance}</th>
					</tr>
				</thead>
				<tbody>
					{d.entries.map((row) => (
						<tr key={row.slug}>
							<th scope="row" lang={row.locale}>
								{row.title}
							</th>
							<td>
								{standing(t, row)}
								{/* As on the roster: a late hand-in, or a quiz whose best score came late (decision 0061). */}
								{row.late ? (
									<>
										{' '}
										<span className="badge badge-warn">{t.m.learning.due.late}</span>
									</>
								) : null}
							</td>
							<td>
								{/* A new grant in the history starts the form afresh (with JavaScript the page is not reloaded). */}
								<ChanceForm
									key={d.history.length}
									row={row}
									error={refused?.entry === row.slug && !refused.forDue ? refused.error : null}
								/>
							</td>
						</tr>
					))}
				</tbody>
			</ScrollTable>
			<h2 id="due-dates">{t.m.adminCourses.dueDates.heading}</h2>
			{d.due.entries.length === 0 ? (
				<p className="empty">{t.m.adminCourses.dueDates.notDue}</p>
			) : (
				<ul className="due-extensions">
					{d.due.entries.map((row) => (
						<li key={row.slug}>
							<ExtensionForm
								key={`${row.slug}-${row.dueLocal}`}
								row={row}
								timeZone={d.due.timeZone}
								error={refused?.entry === row.slug && refused.forDue ? refused.error : null}
							/>
						</li>
					))}
				</ul>
			)}
			<h2>{m.history}</h2>
			{d.history.length === 0 ? (
				<p className="empty">{m.historyEmpty}</p>
			) : (
				<ul>
					{d.history.map((g) => (
						<li key={g.id}>
							<span lang={g.entryLocale}>{g.entry}</span>:{' '}
							{g.kind === 'quiz_attempts' ? t.plural(m.historyAttempts, g.extra) : m.historyReopened} ·{' '}
							<span className="hint">{t.format(m.historyBy, { who: g.by, date: t.date(g.at) })}</span>
							<Notice tone="info">{g.reason}</Notice>
						</li>
					))}
				</ul>
			)}
		</section>
	)
}
