import { Link } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import { PostButton } from '#app/ui/feedback.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import type { learningRecord } from './admin-enrollments.server.ts'

type LearningRecord = Awaited<ReturnType<typeof learningRecord>>

/** The user's enrollments with progress, and their latest quiz attempts. */
export function UserLearning({ record }: { record: LearningRecord }) {
	const t = useI18n()
	const m = t.m.admin.user.enrollments
	const statuses = t.m.adminCourses.enrollmentStatus
	return (
		<>
			<h2>{m.title}</h2>
			{record.enrollments.length === 0 ? (
				<p className="empty">{m.empty}</p>
			) : (
				<ScrollTable label={m.title}>
					<thead>
						<tr>
							<th scope="col">{m.course}</th>
							<th scope="col">{m.status}</th>
							<th scope="col">{m.result}</th>
							<th scope="col">{m.progress}</th>
							<th scope="col">{m.enrolledAt}</th>
						</tr>
					</thead>
					<tbody>
						{record.enrollments.map((e) => (
							<tr key={e.courseSlug}>
								<td>
									{/* The row's action sits under the course's name, in the first column: on a phone the
									    table scrolls sideways, and a last column would start off-screen (issue 40). */}
									<div className="row-actions">
										{/* A course the content service no longer has has no dashboard to open. */}
										{e.total === null ? (
											<span lang={e.lang}>{e.title}</span>
										) : (
											<Link prefetch="intent" to={`/admin/courses/${e.courseSlug}/dashboard`} lang={e.lang}>
												{e.title}
											</Link>
										)}
										{e.status === 'cancelled' ? (
											<PostButton link fields={{ intent: 'reenroll', courseSlug: e.courseSlug }}>
												{t.format(m.reenroll, { course: e.title })}
											</PostButton>
										) : (
											<PostButton link fields={{ intent: 'cancel-enrollment', courseSlug: e.courseSlug }}>
												{t.format(m.cancelIn, { course: e.title })}
											</PostButton>
										)}
									</div>
								</td>
								<td>{statuses[e.status]}</td>
								<td>
									{e.total === null ? (
										'—'
									) : (
										<Link to={`/admin/courses/${e.courseSlug}/learners/${record.userId}`}>
											{e.passed ? t.m.adminCourses.dashboard.coursePassed : t.m.adminCourses.dashboard.courseNotPassed}
										</Link>
									)}
								</td>
								<td>
									{e.total === null
										? '—'
										: t.format(m.progressOf, {
												done: t.number(e.completedCount ?? 0),
												total: t.number(e.total),
												percent: t.percent(e.percent ?? 0),
											})}
								</td>
								<td>{t.date(e.enrolledAt)}</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
			<h2>{m.quizTitle}</h2>
			{record.attempts.length === 0 ? (
				<p className="empty">{m.noAttempts}</p>
			) : (
				<ScrollTable label={m.quizTitle}>
					<thead>
						<tr>
							<th scope="col">{m.course}</th>
							<th scope="col">{m.quiz}</th>
							<th scope="col">{m.score}</th>
							<th scope="col">{m.passed}</th>
							<th scope="col">{m.date}</th>
						</tr>
					</thead>
					<tbody>
						{record.attempts.map((a) => (
							<tr key={a.key}>
								<td lang={a.courseLang}>{a.course}</td>
								<td>
									{t.rich(m.attempt, {
										quiz: <span lang={a.lang}>{a.title}</span>,
										number: t.number(a.attempt),
									})}
								</td>
								<td>{t.percent(a.score)}</td>
								<td>{a.passed ? m.yes : m.no}</td>
								<td>{a.at ? t.date(a.at) : '—'}</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
		</>
	)
}
