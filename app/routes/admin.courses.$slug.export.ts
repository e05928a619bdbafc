import { requireAdminCourse, requireCourseAdmin } from '#app/admin/admin.server.ts'
import { rosterRows } from '#app/admin/course-analytics.server.ts'
import { localCell, toCsv, utcCell } from '#app/admin/csv-export.server.ts'
import { learnerTimeZone } from '#app/learning/due-dates.server.ts'
import { flattenEntries } from '#app/learning/entries.ts'
import type { Route } from './+types/admin.courses.$slug.export.ts'
import { notFound } from '#app/platform/errors.ts'

/**
 * The roster, quiz results and assignment standings of a course as CSV, in the separator of the
 * admin's locale and with dates on the admin's wall clock (decision 0055). A score and its maximum
 * are separate columns: a spreadsheet reads a cell `8/10` as a date.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const scope = await requireCourseAdmin(context, params.slug)
	if (!scope.tenant) throw notFound()
	const course = await requireAdminCourse(scope, params.slug)
	const [{ rows }, timeZone] = await Promise.all([
		rosterRows(scope, course),
		// The admin's own zone, else the tenant's (the one their pages show due dates in).
		learnerTimeZone(scope.ctx, { tenantId: scope.tenant.id, userId: scope.session.user.id }),
	])
	const entries = flattenEntries(course)
	const quizzes = entries.filter((e) => e.type === 'quiz')
	const assignments = entries.filter((e) => e.type === 'assignment')
	const header = [
		'name',
		'email',
		'status',
		'enrolled_at',
		'completed_at',
		'progress_percent',
		// `_complete` is the spec's entry state (a quiz is complete when its attempts run out), `_passed` its result.
		...quizzes.flatMap((q) => [`${q.slug}_best_score`, `${q.slug}_attempts`, `${q.slug}_complete`, `${q.slug}_passed`]),
		// `_late`: the newest hand-in came after its due date (decision 0045), as stored when handed in.
		...assignments.flatMap((a) => [
			`${a.slug}_status`,
			`${a.slug}_score`,
			`${a.slug}_max_score`,
			`${a.slug}_complete`,
			`${a.slug}_passed`,
			`${a.slug}_late`,
		]),
		// The course result (decision 0037), last so that the columns before it keep their places.
		'course_passed',
		'average_percent',
		// Then, so that no column before moves, the instants for machines and the zone of the dates above.
		'enrolled_at_utc',
		'completed_at_utc',
		'time_zone',
		// Last, so that no column before moves: the score that counts came after the due date (decision 0061).
		...quizzes.map((q) => `${q.slug}_late`),
	]
	const lines = rows.map((r) => {
		const enrolledAt = new Date(r.enrolledAt)
		const completedAt = r.completedAt === null ? null : new Date(r.completedAt)
		return [
			r.name,
			r.email,
			r.status,
			localCell(enrolledAt, timeZone),
			localCell(completedAt, timeZone),
			r.progress,
			...r.quizzes.flatMap((q) => [q.best, q.attempts, q.complete ? 'yes' : 'no', q.passed ? 'yes' : 'no']),
			// passed is empty until the newest submission is graded (and when the grade carries no verdict).
			...r.assignments.flatMap((a) => [
				a.status,
				a.score,
				a.maxScore,
				a.complete ? 'yes' : 'no',
				a.passed === null ? null : a.passed ? 'yes' : 'no',
				a.status === 'not_submitted' ? null : a.late ? 'yes' : 'no',
			]),
			r.passed ? 'yes' : 'no',
			r.average,
			utcCell(enrolledAt),
			utcCell(completedAt),
			timeZone,
			...r.quizzes.map((q) => (q.attempts === 0 ? null : q.late ? 'yes' : 'no')),
		]
	})
	return new Response(toCsv([header, ...lines], scope.ctx.locale), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${course.slug}-roster.csv"`,
			'cache-control': 'no-store',
		},
	})
}
