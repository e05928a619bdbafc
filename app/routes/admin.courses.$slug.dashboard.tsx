import { courseAdminPage } from '#app/admin/admin.server.ts'
import { Link } from 'react-router'
import { assignmentAnalytics, entryAnalytics, PAGE_SIZE, rosterRows } from '#app/admin/course-analytics.server.ts'
import { pageParam } from '#app/platform/validation.ts'
import type { Route } from './+types/admin.courses.$slug.dashboard.ts'
import { TenantHint } from '#app/admin/headings.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { SeatsUsed } from '#app/admin/seats.tsx'
import { courseSeats } from '#app/admin/course-settings.server.ts'

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Roster, results and per-entry analytics of one course, drawn as HTML bars. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
	const { page: shown, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return shown
	const page = pageParam.parse(new URL(request.url).searchParams.get('page'))
	const [{ rows, total }, entries, assignments, seats] = await Promise.all([
		rosterRows(scope, course, page),
		entryAnalytics(scope, course),
		assignmentAnalytics(scope, course),
		courseSeats(scope.ctx.db, tenant, course),
	])
	return {
		...shown,
		quizzes: entries.filter((e) => e.type === 'quiz').map((e) => ({ slug: e.slug, title: e.title, locale: e.locale })),
		assignments,
		roster: rows,
		page,
		pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
		total,
		entries,
		canManage: scope.session.user.role !== 'course_admin',
		// A paid course's seats in use and its limit (decision 0065).
		seats,
	}
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	const m = t.m.adminCourses.dashboard
	return [
		{
			title: t.format(m.metaTitle, { course: loaderData && !loaderData.hint ? loaderData.course.title : m.metaCourse }),
		},
	]
}

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

/** The dashboard's data once the page is a course's (not the apex's hint). */
type Dashboard = Exclude<Route.ComponentProps['loaderData'], { hint: true }>

/** Per entry: completions, the average score and attempts by number, as bars. */
function EntryTable({ d }: { d: Dashboard }) {
	const t = useI18n()
	const m = t.m.adminCourses
	const maxAttempts = Math.max(1, ...d.entries.flatMap((e) => e.distribution.map((x) => x.count)))
	return (
		<>
			<h2>{m.dashboard.entries}</h2>
			<ScrollTable label={m.dashboard.entries}>
				<thead>
					<tr>
						<th scope="col">{m.dashboard.entry}</th>
						<th scope="col">{m.dashboard.completed}</th>
						<th scope="col">{m.dashboard.averageScore}</th>
						<th scope="col">{m.dashboard.attemptsByNumber}</th>
					</tr>
				</thead>
				<tbody>
					{d.entries.map((e) => (
						<tr key={e.slug}>
							<td>
								{/* Staff open the entry as a learner sees it, read-only (preview) */}
								<Link prefetch="intent" to={`/learn/course/${d.course.slug}/entry/${e.slug}?preview=1`} lang={e.locale}>
									{e.title}
								</Link>
							</td>
							<td>
								<Bar percent={e.completionRate} label={`${t.percent(e.completionRate)} (${t.number(e.completed)})`} />
							</td>
							<td>
								{e.averageScore === null ? '—' : <Bar percent={e.averageScore} label={t.percent(e.averageScore)} />}
							</td>
							<td>
								{e.distribution.length === 0
									? '—'
									: e.distribution.map((x) => (
											<div key={x.attemptNumber}>
												<Bar
													percent={Math.round((x.count / maxAttempts) * 100)}
													label={t.format(m.dashboard.attemptCount, {
														number: t.number(x.attemptNumber),
														count: t.number(x.count),
													})}
												/>
											</div>
										))}
							</td>
						</tr>
					))}
				</tbody>
			</ScrollTable>
		</>
	)
}

/** Per assignment: hand-ins awaiting, returned, graded and passed, and the average grade. */
function AssignmentTable({ d }: { d: Dashboard }) {
	const t = useI18n()
	const m = t.m.adminCourses
	return (
		<>
			<h2>{m.dashboard.assignments}</h2>
			<ScrollTable label={m.dashboard.assignments}>
				<thead>
					<tr>
						<th scope="col">{m.dashboard.assignment}</th>
						<th scope="col">{m.dashboard.awaiting}</th>
						<th scope="col">{m.dashboard.returned}</th>
						<th scope="col">{m.dashboard.graded}</th>
						<th scope="col">{m.dashboard.passed}</th>
						<th scope="col">{m.dashboard.averageGrade}</th>
					</tr>
				</thead>
				<tbody>
					{d.assignments.map((a) => (
						<tr key={a.slug}>
							<td lang={a.locale}>{a.title}</td>
							<td>{t.number(a.awaiting)}</td>
							<td>{t.number(a.returned)}</td>
							<td>{t.number(a.graded)}</td>
							<td>{t.number(a.passed)}</td>
							<td>
								{a.averageScore === null || a.averageMax === null || a.averagePercent === null ? (
									'—'
								) : (
									<Bar
										percent={a.averagePercent}
										label={t.format(m.dashboard.points, {
											score: t.number(a.averageScore),
											max: t.number(a.averageMax),
										})}
									/>
								)}
							</td>
						</tr>
					))}
				</tbody>
			</ScrollTable>
		</>
	)
}

/** One page of the roster: each learner's status, result, progress, and each quiz's and assignment's standing. */
function RosterTable({ d }: { d: Dashboard }) {
	const t = useI18n()
	const m = t.m.adminCourses
	return (
		<>
			<h2>{t.format(m.dashboard.roster, { count: t.number(d.total) })}</h2>
			{d.roster.length === 0 ? (
				<p className="empty">{m.dashboard.empty}</p>
			) : (
				<ScrollTable label={t.format(m.dashboard.roster, { count: t.number(d.total) })}>
					<thead>
						<tr>
							<th scope="col">{m.dashboard.learner}</th>
							<th scope="col">{m.dashboard.status}</th>
							<th scope="col">{m.dashboard.result}</th>
							<th scope="col">{m.dashboard.progress}</th>
							{d.quizzes.map((q) => (
								<th scope="col" key={q.slug} lang={q.locale}>
									{q.title}
								</th>
							))}
							{d.assignments.map((a) => (
								<th scope="col" key={a.slug} lang={a.locale}>
									{a.title}
								</th>
							))}
						</tr>
					</thead>
					<tbody>
						{d.roster.map((r) => (
							<tr key={r.userId}>
								<td>
									{/* The learner's page is an enrolled learner's (active or completed): a pending or cancelled row links nowhere. */}
									{r.status === 'active' || r.status === 'completed' ? (
										<Link to={`/admin/courses/${d.course.slug}/learners/${r.userId}`}>{`${r.name} <${r.email}>`}</Link>
									) : (
										`${r.name} <${r.email}>`
									)}
								</td>
								<td>{m.enrollmentStatus[r.status]}</td>
								<td>
									{r.passed ? m.dashboard.coursePassed : m.dashboard.courseNotPassed}
									{r.average === null ? null : ` · ${t.percent(r.average)}`}
								</td>
								<td>
									<Bar percent={r.progress} label={t.percent(r.progress)} />
								</td>
								{r.quizzes.map((q) => (
									<td key={q.slug}>
										{q.best === null
											? '—'
											: [
													q.complete ? m.dashboard.entryComplete : null,
													q.passed ? m.dashboard.coursePassed : m.dashboard.courseNotPassed,
													t.plural(m.dashboard.best, q.attempts, { score: t.percent(q.best) }),
												]
													.filter(Boolean)
													.join(' · ')}
										{q.late ? (
											<>
												{' '}
												<span className="badge badge-warn">{t.m.learning.due.late}</span>
											</>
										) : null}
									</td>
								))}
								{r.assignments.map((a) => {
									const status =
										a.passed === null
											? m.dashboard.submissionStatus[a.status]
											: a.passed
												? m.dashboard.gradedPassed
												: m.dashboard.gradedNotPassed
									return (
										<td key={a.slug}>
											{a.complete ? `${m.dashboard.entryComplete} · ` : null}
											{a.score === null || a.maxScore === null
												? status
												: t.format(m.dashboard.withScore, {
														status,
														score: t.format(m.dashboard.points, {
															score: t.number(a.score),
															max: t.number(a.maxScore),
														}),
													})}
											{a.late ? (
												<>
													{' '}
													<span className="badge badge-warn">{t.m.learning.due.late}</span>
												</>
											) : null}
										</td>
									)
								})}
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
		</>
	)
}

export default function CourseDashboard({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.adminCourses
	if (d.hint) return <TenantHint title={m.dashboard.hintTitle} what={m.dashboard.hintWhat} />
	return (
		<section>
			<p className="actions">
				{/* A course admin may open only their courses' pages: the course list would be a 404. */}
				{d.canManage ? (
					<Link prefetch="intent" to={'/admin/courses'}>
						{m.nav.backToCourses}
					</Link>
				) : null}
				<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/submissions`}>
					{t.m.grading.nav.submissions}
				</Link>
				<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/certificates`}>
					{t.m.certificates.admin.nav}
				</Link>
				<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/settings`}>
					{m.nav.settings}
				</Link>
				{d.canManage ? (
					<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/admins`}>
						{m.nav.admins}
					</Link>
				) : null}
				<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/enroll`}>
					{m.nav.enroll}
				</Link>
				<Link prefetch="intent" to={`/admin/courses/${d.course.slug}/announce`}>
					{m.nav.announce}
				</Link>
				<a href={t.href(`/admin/courses/${d.course.slug}/export`)}>{m.dashboard.export}</a>
			</p>
			<h1 lang={d.course.locale}>{d.course.title}</h1>
			{d.seats ? <SeatsUsed seats={d.seats} /> : null}

			<EntryTable d={d} />

			{d.assignments.length ? <AssignmentTable d={d} /> : null}

			<RosterTable d={d} />
			<nav aria-label={m.dashboard.pages} className="actions">
				{d.page > 1 ? <a href={`?page=${d.page - 1}`}>{m.dashboard.previous}</a> : null}
				{d.page < d.pages ? <a href={`?page=${d.page + 1}`}>{m.dashboard.next}</a> : null}
			</nav>
		</section>
	)
}
