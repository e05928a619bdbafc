import { requireCourseAdmin } from '#app/utils/admin.server.ts'
import { requireAdminCourse, rosterRows } from '#app/utils/course-analytics.server.ts'
import { flattenEntries } from '#app/utils/learning.server.ts'
import type { Route } from './+types/admin.courses.$slug.export.ts'

// Cells that start with = + - @ would run as formulas in a spreadsheet: prefix them.
const cell = (value: string | number | null) => {
	const text = value === null ? '' : String(value)
	const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
	return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The roster and quiz results of a course as CSV. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
	const scope = await requireCourseAdmin(context, request, params.slug)
	if (!scope.tenant) throw new Response(null, { status: 404 })
	const course = await requireAdminCourse(scope, params.slug)
	const { rows } = await rosterRows(scope, course)
	const quizzes = flattenEntries(course).filter((e) => e.type === 'quiz')
	const header = ['name', 'email', 'status', 'enrolled_at', 'completed_at', 'progress_percent', ...quizzes.flatMap((q) => [`${q.slug}_best_score`, `${q.slug}_attempts`, `${q.slug}_passed`])]
	const lines = rows.map((r) =>
		[r.name, r.email, r.status, r.enrolledAt, r.completedAt, r.progress, ...r.quizzes.flatMap((q) => [q.best, q.attempts, q.passed ? 'yes' : 'no'])].map(cell).join(','),
	)
	return new Response(`${[header.join(','), ...lines].join('\r\n')}\r\n`, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${course.slug}-roster.csv"`,
			'cache-control': 'no-store',
		},
	})
}
