import { requireCourseAdmin } from '#app/utils/admin.server.ts'
import { entryAnalytics, requireAdminCourse, rosterRows } from '#app/utils/course-analytics.server.ts'
import { PAGE_SIZE } from '#db/admin.ts'
import type { Route } from './+types/admin.courses.$slug.dashboard.ts'
import { TenantHint } from '#app/components/learning.tsx'

/** Roster, results and per-entry analytics of one course, drawn as HTML bars. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
	const scope = await requireCourseAdmin(context, request, params.slug)
	if (!scope.tenant) return { hint: true as const }
	const course = await requireAdminCourse(scope, params.slug)
	const page = Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1)
	const [{ rows, total }, entries] = await Promise.all([rosterRows(scope, course, page), entryAnalytics(scope, course)])
	return {
		hint: false as const,
		course: { slug: course.slug, title: course.title },
		quizzes: entries.filter((e) => e.type === 'quiz').map((e) => ({ slug: e.slug, title: e.title })),
		roster: rows,
		page,
		pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
		total,
		entries,
		canManage: scope.session.user.role !== 'course_admin',
	}
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData && !loaderData.hint ? loaderData.course.title : 'Course'} · Dashboard` }]

function Bar({ percent, label }: { percent: number; label: string }) {
	return (
		<span className="bar-cell">
			<span className="bar-track" aria-hidden="true">
				<span className="bar" style={{ width: `${Math.min(100, Math.max(percent, 1))}%` }} />
			</span>
			{label}
		</span>
	)
}

export default function CourseDashboard({ loaderData: d }: Route.ComponentProps) {
	if (d.hint) return <TenantHint title="Course dashboard" what="Course dashboards" />
	const maxAttempts = Math.max(1, ...d.entries.flatMap((e) => e.distribution.map((x) => x.count)))
	return (
		<section>
			<p className="actions">
				<a href="/admin/courses">← Courses</a>
				<a href={`/admin/courses/${d.course.slug}/settings`}>Settings</a>
				{d.canManage ? <a href={`/admin/courses/${d.course.slug}/admins`}>Admins</a> : null}
				<a href={`/admin/courses/${d.course.slug}/export`}>Download roster and results (CSV)</a>
			</p>
			<h1>{d.course.title}</h1>

			<h2>Entries</h2>
			<table>
				<thead>
					<tr>
						<th scope="col">Entry</th>
						<th scope="col">Completed</th>
						<th scope="col">Average score</th>
						<th scope="col">Attempts by number</th>
					</tr>
				</thead>
				<tbody>
					{d.entries.map((e) => (
						<tr key={e.slug}>
							<td>{e.title}</td>
							<td>
								<Bar percent={e.completionRate} label={`${e.completionRate}% (${e.completed})`} />
							</td>
							<td>{e.averageScore === null ? '—' : <Bar percent={e.averageScore} label={`${e.averageScore}%`} />}</td>
							<td>
								{e.distribution.length === 0
									? '—'
									: e.distribution.map((x) => (
											<div key={x.attemptNumber}>
												<Bar percent={Math.round((x.count / maxAttempts) * 100)} label={`#${x.attemptNumber}: ${x.count}`} />
											</div>
										))}
							</td>
						</tr>
					))}
				</tbody>
			</table>

			<h2>{`Roster (${d.total})`}</h2>
			{d.roster.length === 0 ? (
				<p className="empty">Nobody is enrolled yet.</p>
			) : (
				<table>
					<thead>
						<tr>
							<th scope="col">Learner</th>
							<th scope="col">Status</th>
							<th scope="col">Progress</th>
							{d.quizzes.map((q) => (
								<th scope="col" key={q.slug}>
									{q.title}
								</th>
							))}
						</tr>
					</thead>
					<tbody>
						{d.roster.map((r) => (
							<tr key={r.userId}>
								<td>{`${r.name} <${r.email}>`}</td>
								<td>{r.status}</td>
								<td>
									<Bar percent={r.progress} label={`${r.progress}%`} />
								</td>
								{r.quizzes.map((q) => (
									<td key={q.slug}>{q.best === null ? '—' : `${q.best}% (${q.attempts} ${q.attempts === 1 ? 'attempt' : 'attempts'}${q.passed ? ', passed' : ''})`}</td>
								))}
							</tr>
						))}
					</tbody>
				</table>
			)}
			<nav aria-label="Roster pages" className="actions">
				{d.page > 1 ? <a href={`?page=${d.page - 1}`}>← Previous</a> : null}
				{d.page < d.pages ? <a href={`?page=${d.page + 1}`}>Next →</a> : null}
			</nav>
		</section>
	)
}
