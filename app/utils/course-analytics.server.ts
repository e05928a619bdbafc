import type { AdminScope } from './admin.server.ts'
import { readContent } from './cms.server.ts'
import type { Course } from './content.ts'
import { flattenEntries } from './learning.server.ts'
import { courseEntryStats, courseRoster } from '#db/admin.ts'
import { notFound } from '#app/utils/errors.ts'

/** The course as the content service has it, in any state (admins see drafts too); 404 when unknown. */
export async function requireAdminCourse(scope: AdminScope, slug: string): Promise<Course> {
	const course = await readContent(`course ${slug}`, () => scope.ctx.cms.course(scope.ctx.site, slug, scope.ctx.locale))
	if (!course) throw notFound()
	return course
}

/** Per-entry analytics: completion rate among enrolled learners, average quiz score, attempts by number. */
export async function entryAnalytics(scope: AdminScope, course: Course) {
	const stats = await courseEntryStats(scope.ctx.db, scope.tenant!.id, course.slug)
	return flattenEntries(course).map((entry) => {
		const completed = Number(stats.completions.find((c) => c.entrySlug === entry.slug)?.completed ?? 0)
		const score = stats.scores.find((s) => s.entrySlug === entry.slug)
		return {
			slug: entry.slug,
			title: entry.title,
			type: entry.type,
			completed,
			completionRate: stats.enrolled ? Math.round((completed / stats.enrolled) * 100) : 0,
			averageScore: score ? Math.round(Number(score.average)) : null,
			attempts: score ? Number(score.attempts) : 0,
			distribution: stats.distribution
				.filter((d) => d.entrySlug === entry.slug)
				.map((d) => ({ attemptNumber: d.attemptNumber, count: Number(d.n) }))
				.sort((a, b) => a.attemptNumber - b.attemptNumber),
		}
	})
}

/** Roster rows with progress and best quiz scores (the dashboard table and the CSV export). */
export async function rosterRows(scope: AdminScope, course: Course, page?: number) {
	const { roster, progress, attempts, total } = await courseRoster(scope.ctx.db, scope.tenant!.id, course.slug, page)
	const entries = flattenEntries(course)
	const quizzes = entries.filter((e) => e.type === 'quiz')
	const rows = roster.map((r) => {
		const done = new Set(progress.filter((p) => p.userId === r.userId).map((p) => p.entrySlug))
		const completed = entries.filter((e) => done.has(e.slug)).length
		return {
			userId: r.userId,
			name: r.name,
			email: r.email,
			status: r.status,
			enrolledAt: r.enrolledAt.toISOString(),
			completedAt: r.completedAt?.toISOString() ?? null,
			progress: entries.length ? Math.round((completed / entries.length) * 100) : 0,
			quizzes: quizzes.map((q) => {
				const mine = attempts.filter((a) => a.userId === r.userId && a.entrySlug === q.slug)
				return {
					slug: q.slug,
					best: mine.length ? Math.max(...mine.map((a) => a.score)) : null,
					attempts: mine.length,
					passed: mine.some((a) => a.passed),
				}
			}),
		}
	})
	return { rows, total }
}
