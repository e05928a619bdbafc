import { jobSite } from '#app/platform/jobs.server.ts'
import { awardCertificate } from '#app/certificates/award.server.ts'
import type { RequestContext } from '#app/context.ts'
import { auditSteps } from '#db/audit.ts'
import {
	completeEntrySteps,
	enrollSteps,
	findEnrollment,
	listAllProgress,
	listEnrollments,
	listProgress,
	touchEntry,
	type Enrollment,
	type Scope,
} from '#db/learning.ts'
import { recentAttempts, type QuizAttempt } from '#db/quiz-attempts.ts'
import { learnerPasses, type CoursePass } from '#db/course-results.ts'
import { recentlyGraded, type Submission } from '#db/submissions.ts'
import { inTransaction } from '#db/transaction.ts'
import type { Tenant } from '#db/tenants.ts'
import { seatLimitOf } from '#db/seats.ts'
import { readContent } from '../content/cms.server.ts'
import { isPublished, type Course } from '../content/content.ts'
import { flattenEntries, type FlatEntry } from './entries.ts'
import { ruleEntries, settleResultSteps } from './course-result.server.ts'
import { describeError, log } from '../platform/log.server.ts'
import type { CurrentSession } from '../accounts/session.server.ts'
import { previewAccess, type PreviewAccess } from './preview.server.ts'
import { gone, notFound } from '#app/platform/errors.ts'

/** A published course of this host, or the spec's 404 (unknown, draft) / 410 (archived after publication). */
export async function requireCourse(ctx: RequestContext, slug: string): Promise<Course> {
	const { course, draft } = await readCourse(ctx, slug)
	if (draft) throw notFound()
	return course
}

/**
 * requireCourse for the course home and its entries, which may be previewed before the course is
 * published (issue 40, decision 0100: staff with `?preview=1`, or an author with the CMS's preview
 * link): a draft, or a course unpublished again, is theirs to read, marked `draft`. Everyone else,
 * and staff without the preview query, get the same 404 as before; an archived course stays 410.
 */
export async function requireCourseOrPreview(
	ctx: RequestContext,
	slug: string,
	request: Request,
	session: CurrentSession | null,
): Promise<{ course: Course; draft: boolean; preview: PreviewAccess | null }> {
	const read = await readCourse(ctx, slug)
	const preview = previewAccess(ctx, request, session, { slug: read.course.slug, draft: read.draft })
	if (read.draft && !preview) throw notFound()
	return { ...read, preview }
}

/** The host's course: published, or (draft: true) one that was never published or is not any more; else 404 / 410. */
async function readCourse(ctx: RequestContext, slug: string) {
	if (!ctx.tenant) throw notFound()
	const course = await readContent(`course ${slug}`, () => ctx.cms.course(ctx.site, slug, ctx.locale))
	if (!course) throw notFound()
	if (course.status === 'archived') {
		// Archived after publication: gone for everyone, staff too (spec); archived before it: never there.
		if (course.publishedAt !== null) throw gone()
		throw notFound()
	}
	return { course, draft: !isPublished(course) }
}

/**
 * Per-course flags live in the tenant's feature_flags_json under
 * `courses.<slug>` (the course settings page writes them). `sequential` turns
 * on gating across modules.
 */
export function courseFlags(tenant: Tenant, slug: string) {
	const flags = tenant.feature_flags_json as { courses?: Record<string, { sequential?: boolean }> } | null
	// `seats`: a paid course's seat limit set by a tenant admin (decision 0065), null for none.
	return { sequential: flags?.courses?.[slug]?.sequential === true, seats: seatLimitOf(flags, slug) }
}

export type LockReason = 'complete_previous_in_module' | 'complete_previous_in_course'

/**
 * Which entries are open: all earlier entries of the same module complete
 * (and, with the sequential flag, all earlier entries of the course).
 */
export function entryLocks(
	entries: readonly FlatEntry[],
	completed: ReadonlySet<string>,
	sequential: boolean,
): Map<string, LockReason | null> {
	const locks = new Map<string, LockReason | null>()
	entries.forEach((entry, i) => {
		const earlier = entries.slice(0, i)
		if (earlier.some((e) => e.moduleSlug === entry.moduleSlug && !completed.has(e.slug)))
			locks.set(entry.slug, 'complete_previous_in_module')
		else if (sequential && earlier.some((e) => !completed.has(e.slug)))
			locks.set(entry.slug, 'complete_previous_in_course')
		else locks.set(entry.slug, null)
	})
	return locks
}

/**
 * The learner's standing in a course: enrollment, completed entries, locks and where to continue.
 * A preview's (scope null) reads nothing: no enrollment, nothing complete, nothing locked.
 */
export async function courseProgress(ctx: RequestContext, scope: Scope | null, course: Course) {
	const entries = flattenEntries(course)
	const [enrollment, rows] = !scope
		? [null, []]
		: await Promise.all([findEnrollment(ctx.db, scope, course.slug), listProgress(ctx.db, scope, course.slug)])
	const known = new Set(entries.map((e) => e.slug))
	const completed = new Set(rows.filter((r) => r.completed_at && known.has(r.entry_slug)).map((r) => r.entry_slug))
	const locks = !scope
		? new Map(entries.map((e) => [e.slug, null]))
		: entryLocks(entries, completed, courseFlags(ctx.tenant!, course.slug).sequential)
	const firstOpen = entries.find((e) => !completed.has(e.slug) && !locks.get(e.slug)) ?? null
	// Continue where the learner left off: the most recently viewed open entry not yet complete, else the next open one.
	const lastViewed = rows
		.filter(
			(r) => r.last_viewed_at && known.has(r.entry_slug) && !completed.has(r.entry_slug) && !locks.get(r.entry_slug),
		)
		.sort((a, b) => b.last_viewed_at!.getTime() - a.last_viewed_at!.getTime())[0]
	const continueSlug = lastViewed?.entry_slug ?? firstOpen?.slug ?? null
	return {
		enrollment,
		entries,
		completed,
		locks,
		continueSlug,
		firstOpen,
		percent: entries.length ? Math.round((completed.size / entries.length) * 100) : 0,
	}
}

export function isActiveEnrollment(enrollment: Enrollment | null) {
	return enrollment?.status === 'active' || enrollment?.status === 'completed'
}

/** Content tags this service revalidates after its own writes (spec, Events 1). */
export const tags = {
	course: (slug: string) => `course:${slug}`,
	progress: (userId: string) => `progress:${userId}`,
}

export type EnrollOutcome = { kind: 'enrolled'; change: 'created' | 'reactivated' | null } | { kind: 'paid' }

/** enrollInCourse: free courses only (paid answers 501 upstream); idempotent; one row per user and course, with its audit row in one transaction. */
export async function enrollInCourse(ctx: RequestContext, scope: Scope, course: Course): Promise<EnrollOutcome> {
	if (course.price && course.price.amount > 0) return { kind: 'paid' }
	const change = await inTransaction(ctx.db, function* (tx) {
		const { enrollment, change } = yield* enrollSteps(tx, scope, course.slug)
		if (change) {
			const action = change === 'created' ? 'enrollment.created' : 'enrollment.reactivated'
			yield* auditSteps(tx, {
				actorUserId: scope.userId,
				action,
				targetKind: 'enrollment',
				targetId: enrollment.id,
				tenantId: scope.tenantId,
				metadata: { courseSlug: course.slug },
			})
		}
		return change
	})
	if (change) ctx.tags.revalidate([tags.progress(scope.userId)])
	return { kind: 'enrolled', change }
}

/**
 * markEntryComplete: upserts the entry's progress and, when every entry is
 * done, completes the enrollment (status completed, completed_at, an audit
 * row), and settles the course result (decision 0037), all in one
 * transaction; then revalidates the course and progress tags, and issues the
 * certificate when this made the course passed. Answers whether every entry
 * of the course is now complete. Callers check access mode and gating first.
 */
export async function markEntryComplete(ctx: RequestContext, scope: Scope, course: Course, entrySlug: string) {
	const all = flattenEntries(course).map((e) => e.slug)
	const rule = await ruleEntries(ctx, course)
	const { courseDone, settled } = await inTransaction(ctx.db, function* (tx) {
		const { courseDone } = yield* completeEntrySteps(tx, scope, course.slug, all, entrySlug)
		return { courseDone, settled: yield* settleResultSteps(tx, jobSite(ctx), scope, course, rule) }
	})
	ctx.tags.revalidate([tags.course(course.slug), tags.progress(scope.userId)])
	await awardCertificate(ctx, scope, course, settled)
	return courseDone
}

/** Updates last_viewed_at for resume; a failure is logged and never breaks the page. */
export async function recordView(ctx: RequestContext, scope: Scope, courseSlug: string, entrySlug: string) {
	try {
		await touchEntry(ctx.db, scope, courseSlug, entrySlug)
	} catch (error) {
		log.warn('progress/view-not-recorded', { courseSlug, entrySlug, error: describeError(error) })
	}
}

/** How many returned or graded hand-ins the dashboard lists. */
const GRADED_SHOWN = 5

/**
 * The learner's courses not cancelled, as content says now, each with the entries they completed in
 * it and its locks: read once per dashboard view and shared by its cards and its due lines (issue
 * 47), in a fixed number of queries whatever the number of courses.
 */
export async function learnerCourses(ctx: RequestContext, scope: Scope) {
	const [enrollments, progress] = await Promise.all([listEnrollments(ctx.db, scope), listAllProgress(ctx.db, scope)])
	const visible = enrollments.filter((e) => e.status !== 'cancelled')
	// One content read per enrolled course, in parallel (from the content cache): titles, entry order and counts.
	const courses = await Promise.all(
		visible.map((e) =>
			readContent(`course ${e.course_slug}`, () => ctx.cms.course(ctx.site, e.course_slug, ctx.locale)),
		),
	)
	// A course unpublished (or archived) since answers 404 (410) to learners: it is gone from here too.
	const served = courses.map((c) => (c && isPublished(c) ? c : null))
	const enrolled = visible.flatMap((enrollment, i) => {
		const course = served[i]
		if (!course) return []
		const entries = flattenEntries(course)
		const known = new Set(entries.map((e) => e.slug))
		const completed = new Set(
			progress
				.filter((p) => p.course_slug === course.slug && p.completed_at && known.has(p.entry_slug))
				.map((p) => p.entry_slug),
		)
		const locks = entryLocks(entries, completed, courseFlags(ctx.tenant!, course.slug).sequential)
		return [{ enrollment, course, completed, locks }]
	})
	// Enrolled in a course the content service no longer serves (unpublished, removed): named, never linked.
	const gone = visible.filter((_, i) => !served[i]).map((e) => e.course_slug)
	return { enrolled, progress, gone }
}

export type LearnerCourses = Awaited<ReturnType<typeof learnerCourses>>

/** The learner's home: enrolled courses with progress, entries to resume, recent quiz scores, returned and graded work. */
export async function learnerDashboard(
	ctx: RequestContext,
	scope: Scope,
	{ enrolled, progress, gone }: LearnerCourses,
) {
	const [attempts, graded, passes] = await Promise.all([
		recentAttempts(ctx.db, scope),
		// Twice as many as shown: an entry returned and then graded has two rows, and only its newest is listed.
		recentlyGraded(ctx.db, scope, GRADED_SHOWN * 2),
		learnerPasses(ctx.db, scope),
	])
	const view = dashboardView(enrolled, progress, attempts, graded, passes)
	// An entry of a course enrolled in and no longer served gets no link: it would answer 404.
	const unlinked = <R extends { courseSlug: string; href: string | null }>(row: R) =>
		gone.includes(row.courseSlug) ? { ...row, href: null } : row
	return { ...view, scores: view.scores.map(unlinked), work: view.work.map(unlinked), gone }
}

type ProgressRow = Awaited<ReturnType<typeof listAllProgress>>[number]

/** How far through `entries` a learner is who completed the entries of `done`. */
export function completion(entries: readonly { slug: string }[], done: ReadonlySet<string>) {
	const completed = entries.filter((e) => done.has(e.slug)).length
	return { completed, percent: entries.length ? Math.round((completed / entries.length) * 100) : 0 }
}

/** Resume across devices: the most recently viewed entries not yet complete, in courses not pending. */
function resumeRows(
	progress: ProgressRow[],
	cards: { slug: string; title: string; lang: string; status: Enrollment['status']; entries: readonly FlatEntry[] }[],
) {
	return progress
		.filter((p) => p.last_viewed_at && !p.completed_at)
		.sort((a, b) => b.last_viewed_at!.getTime() - a.last_viewed_at!.getTime())
		.flatMap((p) => {
			const card = cards.find((c) => c.slug === p.course_slug)
			const entry = card?.entries.find((e) => e.slug === p.entry_slug)
			if (!card || !entry || card.status === 'pending') return []
			return [
				{
					href: `/learn/course/${card.slug}/entry/${entry.slug}`,
					title: entry.title,
					// The entry's title and the course's may be served in different locales (decision 0012).
					lang: entry.locale,
					course: card.title,
					courseLang: card.lang,
					viewedAt: p.last_viewed_at!.toISOString(),
				},
			]
		})
		.slice(0, 5)
}

/** The dashboard's view of the learner's rows: a card per course, where to resume, recent scores, graded work. */
export function dashboardView(
	enrolled: { enrollment: Enrollment; course: Course }[],
	progress: ProgressRow[],
	attempts: QuizAttempt[],
	graded: Submission[],
	passes: ReadonlyMap<string, Pick<CoursePass, 'passed'>> = new Map(),
) {
	const cards = enrolled.map(({ enrollment, course }) => {
		const entries = flattenEntries(course)
		const done = new Set(
			progress.filter((p) => p.course_slug === course.slug && p.completed_at).map((p) => p.entry_slug),
		)
		const { completed, percent } = completion(entries, done)
		return {
			slug: course.slug,
			title: course.title,
			// The locale the course's title was served in (en when it has no translation); entry titles say their own.
			lang: course.locale,
			status: enrollment.status,
			// The stored course result (decision 0037): passed by the course's rule, beside the status.
			passed: passes.get(course.slug)?.passed === true,
			percent,
			completedCount: completed,
			total: entries.length,
			entries,
		}
	})
	const resume = resumeRows(progress, cards)
	// An entry of the learner's courses as a row names it: each title in the language it was served in.
	const named = (courseSlug: string, entrySlug: string) => {
		const card = cards.find((c) => c.slug === courseSlug)
		const entry = card?.entries.find((e) => e.slug === entrySlug)
		const title = entry?.title ?? entrySlug
		const href: string | null = `/learn/course/${courseSlug}/entry/${entrySlug}`
		return { title, href, courseSlug, lang: entry?.locale, course: card?.title ?? courseSlug, courseLang: card?.lang }
	}
	const scores = attempts.map((a) => {
		const row = named(a.course_slug, a.entry_slug)
		return {
			key: a.id,
			...row,
			href: row.href && `${row.href}?attempt=${a.attempt_number}`,
			score: a.score,
			passed: a.passed,
			attempt: a.attempt_number,
		}
	})
	// Newest decision first, one per entry: work returned and then graded is listed as graded.
	const seen = new Set<string>()
	const work = graded
		.filter((s): s is Submission & { status: 'returned' | 'graded' } => s.status !== 'submitted')
		.sort((a, b) => (b.graded_at?.getTime() ?? 0) - (a.graded_at?.getTime() ?? 0))
		.filter((s) => {
			const key = `${s.course_slug}\n${s.entry_slug}`
			if (seen.has(key)) return false
			seen.add(key)
			return true
		})
		.slice(0, GRADED_SHOWN)
		.map((s) => ({
			key: s.id,
			...named(s.course_slug, s.entry_slug),
			status: s.status,
			score: s.score,
			maxScore: s.max_score,
			passed: s.status === 'graded' ? s.passed : null,
			submissionNumber: s.submission_number,
			gradedAt: (s.graded_at ?? s.submitted_at).toISOString(),
		}))
	return { courses: cards.map(({ entries: _entries, ...card }) => card), resume, scores, work }
}
