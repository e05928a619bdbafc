import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { FormError, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { CourseAdminHeading, TenantHint } from '#app/admin/headings.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { adminAction, courseAdminPage } from '#app/admin/admin.server.ts'
import { readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { flattenEntries } from '#app/learning/entries.ts'
import { withNotice } from '#app/platform/notices.ts'
import { gradingQueue, isWatching, setWatching } from '#app/learning/grading-queue.server.ts'
import { SUBMISSION_STATUSES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.courses.$slug.submissions.ts'

/** The queue shows at most this many rows; filters narrow it. */
const QUEUE_LIMIT = 200

// A filter value the course does not have (an unknown entry, a made-up status) is no filter.
const filters = z.object({
	entry: z.string().max(200).optional().catch(undefined),
	status: z.enum(SUBMISSION_STATUSES).optional().catch(undefined),
})

// The page's one form; a checkbox is sent as `on` when checked and absent when not.
const schema = z
	.object({ intent: z.literal('watch', 'grading.grade.errors.unknownIntent'), watch: z.unknown().optional() })
	.transform((form) => ({ watch: form.watch === 'on' }))

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** A course's grading queue: assigned course admins, tenant admins and super admins (on the tenant's host). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return page
	const assignments = flattenEntries(course)
		.filter((e) => e.type === 'assignment')
		.map((e) => ({ slug: e.slug, title: e.title, locale: e.locale }))
	const url = new URL(request.url)
	const asked = filters.parse({
		entry: url.searchParams.get('entry') || undefined,
		status: url.searchParams.get('status') || undefined,
	})
	const entry = assignments.some((a) => a.slug === asked.entry) ? asked.entry : undefined
	const { db } = scope.ctx
	const me = { tenantId: tenant.id, userId: scope.session.user.id, courseSlug: course.slug }
	const [rows, watching] = await Promise.all([
		gradingQueue(db, tenant.id, course.slug, { entrySlug: entry, status: asked.status }, QUEUE_LIMIT),
		isWatching(db, me),
	])
	const titleOf = new Map(assignments.map((a) => [a.slug, a]))
	return {
		...page,
		assignments,
		filters: { entry: entry ?? '', status: asked.status ?? '' },
		watching,
		truncated: rows.length === QUEUE_LIMIT,
		rows: rows.map((r) => ({
			id: r.id,
			name: r.name,
			email: r.email,
			entry: titleOf.get(r.entrySlug)?.title ?? r.entrySlug,
			entryLocale: titleOf.get(r.entrySlug)?.locale,
			number: r.submissionNumber,
			status: r.status,
			score: r.score,
			maxScore: r.maxScore,
			submittedAt: r.submittedAt.toISOString(),
			late: r.late,
			waiting: r.waiting,
		})),
	}
}

/** Turns the per-hand-in email on or off for the signed-in staff member and this course. */
export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success')
			return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
		await setWatching(
			scope.ctx.db,
			{ tenantId: tenant.id, userId: scope.session.user.id, courseSlug: course.slug },
			submission.value.watch,
		)
		return redirect(
			localePath(scope.ctx.locale, withNotice(`/admin/courses/${course.slug}/submissions`, 'gradingWatchSaved')),
		)
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	const m = t.m.grading.queue
	return [
		{
			title: t.format(m.metaTitle, { course: loaderData && !loaderData.hint ? loaderData.course.title : m.metaCourse }),
		},
	]
}

export default function SubmissionsQueue({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.grading
	if (d.hint) return <TenantHint title={m.queue.hintTitle} what={m.queue.hintWhat} />
	return (
		<section>
			<CourseAdminHeading course={d.course} title={m.queue.title} />
			<RedirectNotice accept={['submissionGraded', 'submissionReturned', 'gradingWatchSaved']} />
			<FormError result={actionData?.result} />
			<p className="hint">{m.queue.intro}</p>
			{d.assignments.length === 0 ? (
				<p className="empty">{m.queue.noAssignments}</p>
			) : (
				<Form method="get" className="filters" role="search" aria-label={m.queue.filters}>
					<label>
						{m.queue.assignment}{' '}
						<select name="entry" defaultValue={d.filters.entry}>
							<option value="">{m.queue.any}</option>
							{d.assignments.map((a) => (
								<option key={a.slug} value={a.slug} lang={a.locale}>
									{a.title}
								</option>
							))}
						</select>
					</label>
					<label>
						{m.queue.status}{' '}
						<select name="status" defaultValue={d.filters.status}>
							<option value="">{m.queue.any}</option>
							{SUBMISSION_STATUSES.map((s) => (
								<option key={s} value={s}>
									{m.status[s]}
								</option>
							))}
						</select>
					</label>
					<button type="submit" className="button button-secondary">
						{m.queue.filter}
					</button>
				</Form>
			)}
			{d.rows.length === 0 ? (
				<p className="empty">{m.queue.empty}</p>
			) : (
				<ScrollTable label={m.queue.table}>
					<thead>
						<tr>
							<th scope="col">{m.queue.learner}</th>
							<th scope="col">{m.queue.assignment}</th>
							<th scope="col">{m.queue.number}</th>
							<th scope="col">{m.queue.status}</th>
							<th scope="col">{m.queue.score}</th>
							<th scope="col">{m.queue.submittedAt}</th>
						</tr>
					</thead>
					<tbody>
						{d.rows.map((r) => (
							<tr key={r.id}>
								<td>
									<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/submissions/${r.id}`}>
										{r.name || r.email}
									</Link>{' '}
									<span className="break">&lt;{r.email}&gt;</span>
									{r.waiting > 0 ? <span className="hint"> · {t.plural(m.queue.waiting, r.waiting)}</span> : null}
								</td>
								<td lang={r.entryLocale}>{r.entry}</td>
								<td>{t.number(r.number)}</td>
								<td>{m.status[r.status]}</td>
								<td>
									{r.score === null || r.maxScore === null
										? '—'
										: t.format(m.grade.scoreOf, { score: t.number(r.score), max: t.number(r.maxScore) })}
								</td>
								<td>
									{t.date(r.submittedAt)}
									{r.late ? (
										<>
											{' '}
											<span className="badge badge-warn">{t.m.learning.due.late}</span>
										</>
									) : null}
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
			{d.truncated ? <p className="hint">{t.format(m.queue.truncated, { count: t.number(d.rows.length) })}</p> : null}
			<Form method="post" className="stack">
				<input type="hidden" name="intent" value="watch" />
				<label className="choice">
					<input type="checkbox" name="watch" defaultChecked={d.watching} /> {m.queue.watch}
				</label>
				<Submit className="button button-secondary">{m.queue.saveWatch}</Submit>
			</Form>
		</section>
	)
}
