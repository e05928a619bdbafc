import { stringify } from 'csv-stringify/sync'
import { requireCourseAdmin } from '#app/utils/admin.server.ts'
import { requireAdminCourse, rosterRows } from '#app/utils/course-analytics.server.ts'
import { flattenEntries } from '#app/utils/learning.server.ts'
import type { Route } from './+types/admin.courses.$slug.export.ts'
import { notFound } from '#app/utils/errors.ts'

// Every cell quoted (a spreadsheet whose list separator is `;` would split `a;=1+1` and run the
// formula), and cells that start like a formula (= + - @ tab cr) prefixed with '.
const toCsv = (rows: Array<Array<string | number | null>>) =>
	stringify(rows, { quoted: true, escape_formulas: true, record_delimiter: 'windows' })

/** The roster and quiz results of a course as CSV. */
export async function loader({ context, params }: Route.LoaderArgs) {
	const scope = await requireCourseAdmin(context, params.slug)
	if (!scope.tenant) throw notFound()
	const course = await requireAdminCourse(scope, params.slug)
	const { rows } = await rosterRows(scope, course)
	const quizzes = flattenEntries(course).filter((e) => e.type === 'quiz')
	const header = [
		'name',
		'email',
		'status',
		'enrolled_at',
		'completed_at',
		'progress_percent',
		...quizzes.flatMap((q) => [`${q.slug}_best_score`, `${q.slug}_attempts`, `${q.slug}_passed`]),
	]
	const lines = rows.map((r) => [
		r.name,
		r.email,
		r.status,
		r.enrolledAt,
		r.completedAt,
		r.progress,
		...r.quizzes.flatMap((q) => [q.best, q.attempts, q.passed ? 'yes' : 'no']),
	])
	return new Response(toCsv([header, ...lines]), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${course.slug}-roster.csv"`,
			'cache-control': 'no-store',
		},
	})
}
