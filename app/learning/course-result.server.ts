import type { RequestContext } from '#app/context.ts'
import { putCoursePassSteps, readStanding, standingSteps, type Standing } from '#db/course-results.ts'
import type { Scope } from '#db/learning.ts'
import type { Tx } from '#db/transaction.ts'
import { owedCertificateSteps } from '#app/certificates/award.server.ts'
import type { JobSite } from '#app/platform/jobs.server.ts'
import type { Locale } from '#app/i18n/locales.ts'
import type { Course, Entry, PassRule } from '../content/content.ts'
import { readContent } from '../content/cms.server.ts'
import { flattenEntries } from './entries.ts'

// A course's result beside its status (decision 0037): completed is the spec's (every entry done);
// passed is the course's pass rule on top of it. Judged from the learner's rows, stored in
// course_passes by the transaction of each write that can change it, and explained on the
// learner's pages by what remains.

/** The rule a course follows when its content states none: every quiz and graded assignment passed. */
const DEFAULT_RULE: PassRule = { quizzes: true, assignments: true, minimumAverage: null }

/** One entry as the rule sees it: whether it is scored (a quiz, a graded assignment). */
export interface RuleEntry {
	slug: string
	title: string
	locale: Locale
	type: Entry['type']
	graded: boolean
}

/**
 * The course's entries for its rule. Whether an assignment is graded is in its entry document (the
 * course lists only types), read through the content cache; an entry the service no longer has is
 * taken as ungraded. Read before the transaction that settles (it may not await anything else).
 */
export async function ruleEntries(ctx: Pick<RequestContext, 'cms' | 'site' | 'locale'>, course: Course) {
	return Promise.all(
		flattenEntries(course).map(async (e): Promise<RuleEntry> => {
			const base = { slug: e.slug, title: e.title, locale: e.locale, type: e.type }
			if (e.type === 'quiz') return { ...base, graded: true }
			if (e.type !== 'assignment') return { ...base, graded: false }
			// A content service that fails (and has no last good copy cached) answers 503, as any page's read.
			const doc = await readContent(`entry ${course.slug}/${e.slug}`, () =>
				ctx.cms.entry(ctx.site, course.slug, e.slug, ctx.locale),
			)
			return { ...base, graded: doc?.assignment?.graded === true }
		}),
	)
}

/** What still stands between the learner and a pass, in the course's order. */
type Remaining =
	| { kind: 'entries'; count: number }
	| { kind: 'quiz'; slug: string; title: string; locale: Locale; best: number | null }
	| { kind: 'assignment'; slug: string; title: string; locale: Locale; state: 'none' | 'awaiting' | 'not_passed' }
	| { kind: 'average'; average: number; minimum: number }

interface CourseResult {
	completed: boolean
	passed: boolean
	/** The average of the scored entries in percent (an entry without a score counts 0); null when none is scored. */
	average: number | null
	remaining: Remaining[]
}

/** The course's result for these rows: pure, so the stored result and the page's explanation are the same judgement. */
export function evaluateResult(rule: PassRule | undefined, entries: readonly RuleEntry[], standing: Standing) {
	const { quizzes, assignments, minimumAverage } = rule ?? DEFAULT_RULE
	const remaining: Remaining[] = []
	const incomplete = entries.filter((e) => !standing.completed.has(e.slug)).length
	if (incomplete > 0) remaining.push({ kind: 'entries', count: incomplete })
	const scores: number[] = []
	for (const e of entries) {
		if (e.type === 'quiz') {
			const mine = standing.attempts.filter((a) => a.entrySlug === e.slug)
			const best = mine.length ? Math.max(...mine.map((a) => a.score)) : null
			scores.push(best ?? 0)
			if (quizzes && !mine.some((a) => a.passed))
				remaining.push({ kind: 'quiz', slug: e.slug, title: e.title, locale: e.locale, best })
		} else if (e.type === 'assignment' && e.graded) {
			const mine = standing.submissions.filter((s) => s.entrySlug === e.slug)
			// The newest grade decides: a later hand-in (after a reopening) is judged when it is graded.
			const grade = mine.filter((s) => s.status === 'graded' && s.score !== null).at(-1)
			scores.push(grade?.maxScore ? Math.round((grade.score! / grade.maxScore) * 100) : 0)
			if (assignments && grade?.passed !== true) {
				const state = mine.length === 0 ? 'none' : mine.at(-1)!.status === 'submitted' ? 'awaiting' : 'not_passed'
				remaining.push({ kind: 'assignment', slug: e.slug, title: e.title, locale: e.locale, state })
			}
		}
	}
	const average = scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null
	if (minimumAverage !== null && average !== null && average < minimumAverage)
		remaining.push({ kind: 'average', average, minimum: minimumAverage })
	return { completed: incomplete === 0, passed: remaining.length === 0, average, remaining } satisfies CourseResult
}

/**
 * Settles the learner's result as steps of the write's transaction: their rows as that transaction
 * sees them, judged, stored. `newlyPassed`: this write passed the course (the caller issues the
 * certificate after the commit; the job written here issues it should that fail).
 */
export function* settleResultSteps(tx: Tx, site: JobSite, scope: Scope, course: Course, entries: readonly RuleEntry[]) {
	const standing = yield* standingSteps(tx, scope, course.slug)
	const result = evaluateResult(course.passRule, entries, standing)
	const { newlyPassed } = yield* putCoursePassSteps(tx, scope, course.slug, result)
	yield* owedCertificateSteps(tx, site, scope, course, newlyPassed)
	return { result, newlyPassed }
}

/**
 * Each scored entry's own result, shown beside its state (issue 52: a quiz whose attempts ran out
 * is complete, and not passed): a quiz passed once an attempt passed, not passed once it has
 * attempts and none passed; a graded assignment by its newest grade's verdict. Absent: nothing to
 * judge yet.
 */
function entryResults(entries: readonly RuleEntry[], standing: Standing) {
	const results: Record<string, boolean> = {}
	for (const e of entries) {
		if (e.type === 'quiz') {
			const mine = standing.attempts.filter((a) => a.entrySlug === e.slug)
			if (mine.length) results[e.slug] = mine.some((a) => a.passed)
		} else if (e.type === 'assignment' && e.graded) {
			const grade = standing.submissions.filter((x) => x.entrySlug === e.slug && x.status === 'graded').at(-1)
			if (grade && grade.passed !== null) results[e.slug] = grade.passed
		}
	}
	return results
}

/**
 * The learner's result now, with what remains and each scored entry's result: the course home's.
 * `completed`: the entries the page has read as complete (courseProgress), not read again.
 */
export async function courseResult(
	ctx: Pick<RequestContext, 'cms' | 'site' | 'locale' | 'db'>,
	scope: Scope,
	course: Course,
	completed?: ReadonlySet<string>,
) {
	const [entries, standing] = await Promise.all([
		ruleEntries(ctx, course),
		readStanding(ctx.db, scope, course.slug, completed),
	])
	return { ...evaluateResult(course.passRule, entries, standing), entries: entryResults(entries, standing) }
}
