import { coursePasses } from '#db/course-results.ts'
import type { AdminScope } from './admin.server.ts'
import type { Course } from '../content/content.ts'
import { completion } from '../learning/learning.server.ts'
import { flattenEntries, type FlatEntry } from '../learning/entries.ts'
import { bestAttemptLate } from '../learning/due-dates.ts'
import { courseEntryStats, courseRoster } from '#db/course-roster.ts'

export { PAGE_SIZE } from '#db/admin.ts'
import {
	assignmentFigures,
	latestSubmissions,
	type AssignmentFigures,
	type LatestSubmission,
} from '#db/assignment-reports.ts'

/** Per-entry analytics: completion rate among enrolled learners, average quiz score, attempts by number. */
export async function entryAnalytics(scope: AdminScope, course: Course) {
	const stats = await courseEntryStats(scope.ctx.db, scope.tenant!.id, course.slug)
	return flattenEntries(course).map((entry) => {
		const completed = Number(stats.completions.find((c) => c.entrySlug === entry.slug)?.completed ?? 0)
		const score = stats.scores.find((s) => s.entrySlug === entry.slug)
		return {
			slug: entry.slug,
			title: entry.title,
			locale: entry.locale,
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

/** A figure to one decimal: an average of points out of 10 is 7.5, not 7 or 7.4999. */
const tenths = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10)

/** The dashboard's row per assignment entry, in course order, from the counted figures (absent: none handed in). */
export function assignmentView(
	entries: readonly (Pick<FlatEntry, 'slug' | 'title' | 'type'> & Partial<Pick<FlatEntry, 'locale'>>)[],
	figures: AssignmentFigures[],
) {
	return entries
		.filter((e) => e.type === 'assignment')
		.map((entry) => {
			const f = figures.find((x) => x.entrySlug === entry.slug)
			return {
				slug: entry.slug,
				title: entry.title,
				locale: entry.locale,
				awaiting: f?.awaiting ?? 0,
				returned: f?.returned ?? 0,
				graded: f?.graded ?? 0,
				passed: f?.passed ?? 0,
				averageScore: tenths(f?.averageScore ?? null),
				averageMax: tenths(f?.averageMax ?? null),
				averagePercent: f?.averageRatio == null ? null : Math.round(f.averageRatio * 100),
			}
		})
}

/** Hand-in figures per assignment entry of the course: each learner's newest submission counted once. */
export async function assignmentAnalytics(scope: AdminScope, course: Course) {
	return assignmentView(flattenEntries(course), await assignmentFigures(scope.ctx.db, scope.tenant!.id, course.slug))
}

/** A learner's standing on one assignment, for a roster cell and the export. */
export function assignmentStanding(slug: string, latest: LatestSubmission | undefined) {
	return {
		slug,
		status: latest?.status ?? ('not_submitted' as const),
		// A score a grader gave, also on work returned for revision; none while it awaits grading.
		score: latest && latest.status !== 'submitted' ? latest.score : null,
		maxScore: latest && latest.status !== 'submitted' && latest.score !== null ? latest.maxScore : null,
		passed: latest?.status === 'graded' ? latest.passed : null,
		late: latest?.late ?? false,
	}
}

/** Roster rows with progress, best quiz scores and assignment standings (the dashboard table and the CSV export). */
export async function rosterRows(scope: AdminScope, course: Course, page?: number) {
	const { roster, progress, attempts, total } = await courseRoster(scope.ctx.db, scope.tenant!.id, course.slug, page)
	const entries = flattenEntries(course)
	const quizzes = entries.filter((e) => e.type === 'quiz')
	const assignments = entries.filter((e) => e.type === 'assignment')
	const submissions = assignments.length
		? await latestSubmissions(
				scope.ctx.db,
				scope.tenant!.id,
				course.slug,
				roster.map((r) => r.userId),
			)
		: []
	// Keyed, not searched: a full export has a row per learner and assignment.
	const latest = new Map(submissions.map((s) => [`${s.userId}\n${s.entrySlug}`, s]))
	// The stored course results (decision 0037); a learner with no row has had no write since they began.
	const passes = await coursePasses(
		scope.ctx.db,
		scope.tenant!.id,
		course.slug,
		roster.map((r) => r.userId),
	)
	// Keyed too, by learner and by learner and quiz: the export's rows times its progress rows would be
	// 10,000 × 100,000 comparisons for a course of 10,000 learners.
	const doneBy = new Map<string, Set<string>>()
	for (const p of progress) doneBy.set(p.userId, (doneBy.get(p.userId) ?? new Set()).add(p.entrySlug))
	const attemptsBy = new Map<string, typeof attempts>()
	for (const a of attempts) {
		const key = `${a.userId}\n${a.entrySlug}`
		const list = attemptsBy.get(key)
		if (list) list.push(a)
		else attemptsBy.set(key, [a])
	}
	const rows = roster.map((r) => {
		const done = doneBy.get(r.userId) ?? new Set<string>()
		return {
			userId: r.userId,
			name: r.name,
			email: r.email,
			status: r.status,
			enrolledAt: r.enrolledAt.toISOString(),
			completedAt: r.completedAt?.toISOString() ?? null,
			progress: completion(entries, done).percent,
			passed: passes.get(r.userId)?.passed === true,
			average: passes.get(r.userId)?.average ?? null,
			quizzes: quizzes.map((q) => {
				const mine = attemptsBy.get(`${r.userId}\n${q.slug}`) ?? []
				return {
					slug: q.slug,
					best: mine.length ? Math.max(...mine.map((a) => a.score)) : null,
					attempts: mine.length,
					passed: mine.some((a) => a.passed),
					// The spec's state (complete when attempts run out), shown beside the result (issue 52).
					complete: done.has(q.slug),
					late: bestAttemptLate(mine),
				}
			}),
			assignments: assignments.map((a) => ({
				...assignmentStanding(a.slug, latest.get(`${r.userId}\n${a.slug}`)),
				complete: done.has(a.slug),
			})),
		}
	})
	return { rows, total }
}
