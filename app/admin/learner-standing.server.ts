import { randomBytes } from 'node:crypto'
import type { RequestContext } from '#app/context.ts'
import { entryAllowance, secondChancesOf } from '#db/course-results.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { listSubmissions } from '#db/submissions.ts'
import { findUserById, type User } from '#db/users.ts'
import { readContent } from '../content/cms.server.ts'
import type { Course } from '../content/content.ts'
import { assignmentRules } from '../learning/assignments.server.ts'
import { courseResult } from '../learning/course-result.server.ts'
import { flattenEntries } from '../learning/entries.ts'
import { bestAttemptLate } from '../learning/due-dates.ts'

/**
 * What the course's staff see of one learner (decision 0037): the course result, each quiz and
 * assignment with what a second chance would change, and the second chances given so far.
 */
export async function learnerStanding(
	ctx: RequestContext,
	tenantId: string,
	course: Course,
	found: { user: Pick<User, 'id'> },
) {
	const learnerScope = { tenantId, userId: found.user.id }
	const entries = flattenEntries(course).filter((e) => e.type === 'quiz' || e.type === 'assignment')
	const [result, history, rows] = await Promise.all([
		courseResult(ctx, learnerScope, course),
		secondChancesOf(ctx.db, learnerScope, course.slug),
		Promise.all(
			entries.map(async (e) => {
				const doc = await readContent(`entry ${course.slug}/${e.slug}`, () =>
					ctx.cms.entry(ctx.site, course.slug, e.slug, ctx.locale),
				)
				const allowance = await entryAllowance(ctx.db, learnerScope, course.slug, e.slug)
				const base = { slug: e.slug, title: e.title, locale: e.locale, key: randomBytes(18).toString('base64url') }
				if (e.type === 'quiz') {
					const attempts = await listAttempts(ctx.db, learnerScope, course.slug, e.slug)
					return {
						...base,
						type: 'quiz' as const,
						used: attempts.length,
						allowed: (doc?.quiz?.maxAttempts ?? 0) + allowance.extraAttempts,
						best: attempts.length ? Math.max(...attempts.map((a) => a.score)) : null,
						passed: attempts.some((a) => a.passed),
						late: bestAttemptLate(attempts),
					}
				}
				const submissions = await listSubmissions(ctx.db, learnerScope, course.slug, e.slug)
				const newest = submissions.at(-1)
				const graded = doc ? assignmentRules(doc).graded : false
				return {
					...base,
					type: 'assignment' as const,
					graded,
					status: newest?.status ?? null,
					score: newest?.score ?? null,
					maxScore: newest?.max_score ?? null,
					passed: newest?.passed ?? null,
					late: newest?.late ?? false,
					// A final grade after the last reopening: only then is there anything to reopen.
					closed: submissions.some(
						(x) => x.status === 'graded' && x.passed !== false && x.submission_number > allowance.reopenedAfter,
					),
				}
			}),
		),
	])
	const staff = new Map<string, string>()
	for (const g of history) {
		if (g.granted_by && !staff.has(g.granted_by)) {
			const who = await findUserById(ctx.db, g.granted_by)
			staff.set(g.granted_by, who?.name || who?.email || '')
		}
	}
	const titles = new Map(flattenEntries(course).map((e) => [e.slug, e]))
	return {
		result: { passed: result.passed, completed: result.completed, average: result.average },
		entries: rows,
		history: history.map((g) => ({
			id: g.id,
			kind: g.kind,
			entry: titles.get(g.entry_slug)?.title ?? g.entry_slug,
			entryLocale: titles.get(g.entry_slug)?.locale,
			extra: g.extra_attempts,
			reason: g.reason,
			by: g.granted_by ? (staff.get(g.granted_by) ?? '') : '',
			at: g.created_at.toISOString(),
		})),
	}
}
