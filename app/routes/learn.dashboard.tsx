import { ProgressBar } from '#app/learning/learning.tsx'
import { Link } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { learnerCourses, learnerDashboard } from '#app/learning/learning.server.ts'
import type { Route } from './+types/learn.dashboard.ts'
import { ScrollTable } from '#app/ui/table.tsx'
import { VerifyReminder } from '#app/accounts/verify-reminder.tsx'
import { userCertificates } from '#app/certificates/records.server.ts'
import { dashboardDueLines } from '#app/learning/due-dates.server.ts'
import { DueList } from '#app/learning/due-list.tsx'
import { DeviceZone } from '#app/learning/device-zone.tsx'

/** The learner's home: enrolled courses with progress, entries to resume, recent quiz scores, returned and graded work. Scoped by tenant and user. */
export async function loader({ context }: Route.LoaderArgs) {
	const { user } = requireSession(context)
	const ctx = getRequestContext(context)
	const me = { name: user.name, email: user.email, locale: ctx.locale, verified: Boolean(user.email_verified_at) }
	if (!ctx.tenant)
		return { ...me, courses: [], gone: [], resume: [], scores: [], work: [], certificates: [], due: null }
	const scope = { tenantId: ctx.tenant.id, userId: user.id }
	// Read once, shared by the cards and the due lines (issue 47).
	const courses = await learnerCourses(ctx, scope)
	const [view, certificates, due] = await Promise.all([
		learnerDashboard(ctx, scope, courses),
		userCertificates(ctx.db, ctx.tenant.id, user.id),
		// Overdue and due soon (decision 0045), in the learner's zone.
		dashboardDueLines(ctx, scope, courses.enrolled),
	])
	return {
		...me,
		...view,
		due,
		// Live ones only: a reissued certificate's predecessor is no longer the learner's to show.
		certificates: certificates
			.filter((c) => !c.revoked_at)
			.map((c) => ({ publicId: c.public_id, course: c.course_title, issuedAt: c.issued_at.toISOString() })),
	}
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.learning.dashboard.title }]

export default function Dashboard({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.learning.dashboard
	// The stored status shown as words; an unknown one is shown as stored.
	const status = (s: string) => (Object.hasOwn(m.status, s) ? m.status[s as keyof typeof m.status] : s)
	return (
		<section>
			<h1>{t.format(m.welcome, { name: d.name })}</h1>
			<p className="lead">{t.format(m.signedInAs, { email: d.email })}</p>
			{d.verified ? null : <VerifyReminder />}
			{d.due ? <DeviceZone chosen={d.due.zoneChosen} zone={d.due.timeZone} /> : null}
			{d.due && d.due.lines.length ? <DueList lines={d.due.lines} timeZone={d.due.timeZone} showCourse /> : null}
			{d.resume.length ? (
				<section aria-labelledby="resume-heading">
					<h2 id="resume-heading">{t.m.learning.continue}</h2>
					<ul className="resume">
						{d.resume.map((r) => (
							<li key={r.href}>
								<Link prefetch="intent" to={r.href} lang={r.lang}>
									{r.title}
								</Link>{' '}
								<span className="hint">
									{t.rich(m.viewed, {
										course: <span lang={r.courseLang}>{r.course}</span>,
										date: formatDate(r.viewedAt, d.locale),
									})}
								</span>
							</li>
						))}
					</ul>
				</section>
			) : null}
			{d.certificates.length ? (
				<section aria-labelledby="certificates-heading">
					<h2 id="certificates-heading">{t.m.certificates.dashboard.title}</h2>
					<ul className="cards">
						{d.certificates.map((c) => (
							<li key={c.publicId} className="card">
								<h3>
									<Link to={`/learn/certificates/${c.publicId}`}>
										{t.format(t.m.certificates.dashboard.view, { course: c.course })}
									</Link>
								</h3>
								<p className="hint">{t.format(t.m.certificates.dashboard.issued, { date: t.day(c.issuedAt) })}</p>
							</li>
						))}
					</ul>
				</section>
			) : null}
			<h2>{m.myCourses}</h2>
			{d.courses.length === 0 ? (
				<p className="empty">
					{m.empty}{' '}
					<Link prefetch="intent" to={'/learn'}>
						{m.browse}
					</Link>
				</p>
			) : (
				<ul className="cards" aria-label={m.myCourses}>
					{d.courses.map((c) => (
						<li key={c.slug} className="card">
							<h3 lang={c.lang}>
								<Link prefetch="intent" to={`/learn/course/${c.slug}`}>
									{c.title}
								</Link>
							</h3>
							<p className="hint">
								{status(c.status)}
								{c.passed || c.status === 'completed' ? (
									<>
										{' · '}
										<span className={c.passed ? 'badge badge-ok' : 'badge'}>
											{c.passed ? t.m.learning.result.passed : t.m.learning.result.notPassed}
										</span>
									</>
								) : null}
							</p>
							<ProgressBar
								percent={c.percent}
								label={t.plural(t.m.learning.entriesComplete, c.total, { done: t.number(c.completedCount) })}
							/>
						</li>
					))}
				</ul>
			)}
			{d.gone.length ? (
				<p className="hint">
					{m.gone}: {d.gone.join(', ')}
				</p>
			) : null}
			<ScoreTable d={d} />
			<WorkTable d={d} />
		</section>
	)
}

/** An entry of a course the learner had: a link while the course is served, its title alone once it is not. */
function EntryLink({ href, lang, title }: { href: string | null; lang?: string; title: string }) {
	const t = useI18n()
	if (href === null)
		return (
			<span lang={lang}>
				{title} ({t.m.learning.dashboard.gone})
			</span>
		)
	return (
		<Link prefetch="intent" to={href} lang={lang}>
			{title}
		</Link>
	)
}

type DashboardData = Route.ComponentProps['loaderData']

/** The learner's quiz scores: each quiz, its course, the attempt and the score. */
function ScoreTable({ d }: { d: DashboardData }) {
	const t = useI18n()
	const m = t.m.learning.dashboard
	if (!d.scores.length) return null
	return (
		<section>
			<h2>{m.scores}</h2>
			<ScrollTable label={m.scores}>
				<thead>
					<tr>
						<th scope="col">{m.columns.quiz}</th>
						<th scope="col">{m.columns.course}</th>
						<th scope="col">{m.columns.attempt}</th>
						<th scope="col">{m.columns.score}</th>
					</tr>
				</thead>
				<tbody>
					{d.scores.map((s) => (
						<tr key={s.key}>
							<td>
								<EntryLink href={s.href} lang={s.lang} title={s.title} />
							</td>
							<td lang={s.courseLang}>{s.course}</td>
							<td>{t.number(s.attempt)}</td>
							<td>{t.format(s.passed ? m.passed : m.notPassed, { score: t.percent(s.score) })}</td>
						</tr>
					))}
				</tbody>
			</ScrollTable>
		</section>
	)
}

/** The learner's graded and returned hand-ins: each assignment, its course, its result and when. */
function WorkTable({ d }: { d: DashboardData }) {
	const t = useI18n()
	const m = t.m.learning.dashboard
	if (!d.work.length) return null
	return (
		<section>
			<h2>{m.work}</h2>
			<ScrollTable label={m.work}>
				<thead>
					<tr>
						<th scope="col">{m.columns.assignment}</th>
						<th scope="col">{m.columns.course}</th>
						<th scope="col">{m.columns.result}</th>
						<th scope="col">{m.columns.date}</th>
					</tr>
				</thead>
				<tbody>
					{d.work.map((w) => {
						const points =
							w.score === null || w.maxScore === null
								? null
								: t.format(m.points, { score: t.number(w.score), max: t.number(w.maxScore) })
						return (
							<tr key={w.key}>
								<td>
									<EntryLink href={w.href} lang={w.lang} title={w.title} />
								</td>
								<td lang={w.courseLang}>{w.course}</td>
								{/* Status and score share a cell: a fifth column would not fit a phone without scrolling. */}
								<td>
									<div>{m.workStatus[w.status]}</div>
									{points === null ? null : (
										<div>
											{w.passed === null ? points : t.format(w.passed ? m.passed : m.notPassed, { score: points })}
										</div>
									)}
								</td>
								<td>{formatDate(w.gradedAt, d.locale)}</td>
							</tr>
						)
					})}
				</tbody>
			</ScrollTable>
		</section>
	)
}
