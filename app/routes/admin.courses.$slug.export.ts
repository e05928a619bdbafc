import { stringify } from 'csv-stringify/sync'
import { requireAdminCourse, requireCourseAdmin } from '#app/admin/admin.server.ts'
import { rosterRows } from '#app/admin/course-analytics.server.ts'
import { flattenEntries } from '#app/learning/entries.ts'
import type { Route } from './+types/admin.courses.$slug.export.ts'
import { notFound } from '#app/platform/errors.ts'

// Every cell quoted (a spreadsheet whose list separator is `;` would split `a;=1+1` and run the
// formula), and cells that start like a formula (= + - @ tab cr) prefixed with '. A UTF-8
// byte-order mark first: Excel on Windows reads the file as UTF-8 only with it (decision 0040).
const toCsv = (rows: Array<Array<string | number | null>>) =>
	stringify(rows, { quoted: true, escape_formulas: true, record_delimiter: 'windows', bom: true })

/**
 * The roster, quiz results and assignment standings of a course as CSV. A score and its maximum are
 * separate columns: a spreadsheet reads a cell `8/10` as a date.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const scope = await requireCourseAdmin(context, params.slug)
	if (!scope.tenant) throw notFound()
	const course = await requireAdminCourse(scope, params.slug)
	const { rows } = await rosterRows(scope, course)
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
	]
	const lines = rows.map((r) => [
		r.name,
		r.email,
		r.status,
		r.enrolledAt,
		r.completedAt,
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
	])
	return new Response(toCsv([header, ...lines]), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${course.slug}-roster.csv"`,
			'cache-control': 'no-store',
		},
	})
}
