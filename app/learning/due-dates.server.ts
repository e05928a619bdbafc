import { formatInstant } from '#app/i18n/format.ts'
import type { RequestContext } from '#app/context.ts'
import type { Database } from '#db/client.ts'
import {
	awaitingHandIns,
	dueExtensionSteps,
	dueExtensionsOf,
	enrolledAtSteps,
	findTimeZone,
	putDueExtensionSteps,
	putTimeZone,
	tenantDueFacts,
} from '#db/due-dates.ts'
import { listAllProgress, listEnrollments, type Enrollment, type Scope } from '#db/learning.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'
import type { User } from '#db/users.ts'
import type { CmsClient } from '../content/cms.server.ts'
import { readContent } from '../content/cms.server.ts'
import { isPublished, type Course, type Entry } from '../content/content.ts'
import { flattenEntries } from './entries.ts'
import {
	dueAtFor,
	dueState,
	instantInZone,
	isTimeZone,
	localInZone,
	tenantTimeZone,
	type DueState,
} from './due-dates.ts'
import { tags, type LockReason } from './learning.server.ts'

// Due dates (decision 0045): what is due for a learner, and across a tenant for the reminders;
// a learner's time zone; staff extensions. The rule itself is app/learning/due-dates.ts.

/** What reads content and the database: a request's context, or a job's (the reminders). */
export type DueReader = {
	db: Database
	cms: Pick<CmsClient, 'course'>
	site: string
	locale?: RequestContext['locale']
}

export interface DueItem {
	courseSlug: string
	courseTitle: string
	entrySlug: string
	entryTitle: string
	entryType: Entry['type']
	/** The instant in force for this learner (an extension, else the content's rule). */
	dueAt: Date
	extended: boolean
	done: boolean
	state: DueState
}

const key = (course: string, entry: string) => `${course}\n${entry}`

/**
 * The entry's due date in force for the learner, read in the transaction of a hand-in or a quiz
 * attempt (decision 0045): the enrollment it counts from and any extension are those it is stored
 * against, and whether it is late follows (isLate, in db/due-dates.ts).
 */
export function* entryDueAtSteps(tx: Tx, scope: Scope, course: Course, entrySlug: string) {
	const due = flattenEntries(course).find((e) => e.slug === entrySlug)?.due
	if (!due) return null
	const enrolledAt = yield* enrolledAtSteps(tx, scope, course.slug)
	const extension = yield* dueExtensionSteps(tx, scope, course.slug, entrySlug)
	return enrolledAt ? dueAtFor(due, enrolledAt, extension) : extension
}

/** The course's due entries for one enrollment, given what the learner has done and their extensions. */
function dueItemsIn(
	course: Course,
	enrollment: Pick<Enrollment, 'enrolled_at'>,
	done: Set<string>,
	extensions: Map<string, Date>,
	now: Date,
): DueItem[] {
	const items: DueItem[] = []
	for (const e of flattenEntries(course)) {
		const extension = extensions.get(key(course.slug, e.slug)) ?? null
		const dueAt = dueAtFor(e.due, enrollment.enrolled_at, extension)
		if (!dueAt) continue
		const isDone = done.has(key(course.slug, e.slug))
		items.push({
			courseSlug: course.slug,
			courseTitle: course.title,
			entrySlug: e.slug,
			entryTitle: e.title,
			entryType: e.type,
			dueAt,
			extended: extension !== null,
			done: isDone,
			state: dueState(dueAt, isDone, now),
		})
	}
	return items
}

/** Done, for a due date: the entry complete, or an assignment handed in and awaiting its grade. */
function doneKeys(
	completed: readonly { course_slug: string; entry_slug: string }[],
	awaiting: readonly { course_slug: string; entry_slug: string }[],
) {
	return new Set([...completed, ...awaiting].map((r) => key(r.course_slug, r.entry_slug)))
}

async function extensionMap(db: Database, scope: Scope, courseSlug?: string) {
	const rows = await dueExtensionsOf(db, scope, courseSlug)
	return new Map(rows.map((x) => [key(x.course_slug, x.entry_slug), x.due_at]))
}

const soonest = (a: DueItem, b: DueItem) => a.dueAt.getTime() - b.dueAt.getTime()

/**
 * Every due entry of the learner's active courses on this tenant, soonest first, done ones too
 * (each with its state). For the calendar feed and staff's view of a learner (issue 41).
 */
export async function dueItemsFor(
	ctx: DueReader,
	tenantId: string,
	userId: string,
	now = new Date(),
): Promise<DueItem[]> {
	const scope = { tenantId, userId }
	const enrollments = (await listEnrollments(ctx.db, scope)).filter((e) => e.status === 'active')
	if (enrollments.length === 0) return []
	const [progress, awaiting, extensions] = await Promise.all([
		listAllProgress(ctx.db, scope),
		awaitingHandIns(ctx.db, scope),
		extensionMap(ctx.db, scope),
	])
	const done = doneKeys(
		progress.filter((p) => p.completed_at),
		awaiting,
	)
	const lists = await Promise.all(
		enrollments.map(async (enrollment) => {
			const course = await courseOrNull(ctx, enrollment.course_slug)
			return course ? dueItemsIn(course, enrollment, done, extensions, now) : []
		}),
	)
	return lists.flat().sort(soonest)
}

/** A course as content says now; null when it is unpublished, gone or unreadable (its dates are then not shown). */
async function courseOrNull(ctx: DueReader, slug: string) {
	try {
		const course = await readContent(`course ${slug}`, () => ctx.cms.course(ctx.site, slug, ctx.locale ?? 'en'))
		return course && isPublished(course) ? course : null
	} catch {
		return null
	}
}

export interface DueInWindow {
	userId: string
	courseSlug: string
	entrySlug: string
	dueAt: Date
}

/**
 * For the reminders: every (learner, entry, due instant) of the tenant's active enrollments in
 * `courseSlugs` whose due instant is in [from, to) and that is not done, soonest first. Content
 * says which entries are due (read in en: due dates are the same in every locale).
 */
export async function dueInWindow(
	ctx: DueReader,
	tenantId: string,
	courseSlugs: string[],
	window: { from: Date; to: Date },
): Promise<DueInWindow[]> {
	const courses = (await Promise.all(courseSlugs.map((slug) => courseOrNull({ ...ctx, locale: 'en' }, slug)))).filter(
		(c): c is Course => c !== null && flattenEntries(c).some((e) => e.due),
	)
	const facts = await tenantDueFacts(
		ctx.db,
		tenantId,
		courses.map((c) => c.slug),
	)
	const doneBy = (rows: { user_id: string; course_slug: string; entry_slug: string }[]) =>
		new Set(rows.map((r) => `${r.user_id}\n${key(r.course_slug, r.entry_slug)}`))
	const done = new Set([...doneBy(facts.completed), ...doneBy(facts.awaiting)])
	const extended = new Map(facts.extensions.map((x) => [`${x.user_id}\n${key(x.course_slug, x.entry_slug)}`, x.due_at]))
	const bySlug = new Map(courses.map((c) => [c.slug, c]))
	const out: DueInWindow[] = []
	for (const enrollment of facts.enrollments) {
		const course = bySlug.get(enrollment.course_slug)
		for (const e of course ? flattenEntries(course) : []) {
			const id = `${enrollment.user_id}\n${key(enrollment.course_slug, e.slug)}`
			const dueAt = dueAtFor(e.due, enrollment.enrolled_at, extended.get(id) ?? null)
			if (!dueAt || done.has(id) || dueAt < window.from || dueAt >= window.to) continue
			out.push({ userId: enrollment.user_id, courseSlug: enrollment.course_slug, entrySlug: e.slug, dueAt })
		}
	}
	return out.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
}

/** The zone the learner's dates are shown in: theirs, else the tenant's, else UTC; `chosen`: theirs. */
async function learnerZone(ctx: Pick<RequestContext, 'db' | 'tenant'>, scope: Scope) {
	const stored = await findTimeZone(ctx.db, scope)
	const chosen = Boolean(stored && isTimeZone(stored))
	return { timeZone: chosen ? stored! : tenantTimeZone(ctx.tenant), chosen }
}

export async function learnerTimeZone(ctx: Pick<RequestContext, 'db' | 'tenant'>, scope: Scope) {
	return (await learnerZone(ctx, scope)).timeZone
}

/**
 * The zone the learner's device reports (a script on a page that ships one, issue 52), stored only
 * while they have chosen none: a choice made on the account page is never overwritten. False when
 * nothing was stored.
 */
export async function takeDeviceTimeZone(ctx: Pick<RequestContext, 'db' | 'tenant'>, scope: Scope, timeZone: string) {
	if ((await learnerZone(ctx, scope)).chosen) return false
	return chooseTimeZone(ctx, scope, timeZone)
}

/** Stores the learner's zone; false (nothing stored) for a name this runtime does not know. */
export async function chooseTimeZone(ctx: Pick<RequestContext, 'db'>, scope: Scope, timeZone: string) {
	if (!isTimeZone(timeZone)) return false
	await putTimeZone(ctx.db, scope, timeZone)
	return true
}

/**
 * One learner's due entries in one course for the course's staff (decision 0045): when each is due
 * for them now, as words in the staff's locale and the learner's zone and as the extension form's
 * default value (a wall-clock time in that zone).
 */
export async function learnerDueDates(ctx: RequestContext, scope: Scope, course: Course) {
	const [timeZone, items] = await Promise.all([
		learnerTimeZone(ctx, scope),
		dueItemsFor(ctx, scope.tenantId, scope.userId),
	])
	const entries = items
		.filter((i) => i.courseSlug === course.slug)
		.map((i) => ({
			slug: i.entrySlug,
			title: i.entryTitle,
			state: i.state,
			when: formatInstant(i.dueAt, ctx.locale, timeZone),
			dueLocal: localInZone(i.dueAt, timeZone),
			extended: i.extended,
		}))
	return { timeZone, entries }
}

export type ExtendOutcome = 'extended' | 'notDueEntry' | 'invalidDate'

/**
 * The staff form's extension: `local` is a wall-clock time in the learner's zone. Refused for an
 * entry that has no due date in the content, or a time that does not exist.
 */
export async function extendLearnerDueDate(
	ctx: RequestContext,
	course: Course,
	learner: User,
	input: { entrySlug: string; local: string; reason: string; staffUserId: string },
): Promise<ExtendOutcome> {
	const entry = flattenEntries(course).find((e) => e.slug === input.entrySlug)
	if (!entry?.due) return 'notDueEntry'
	const scope = { tenantId: learner.tenant_id!, userId: learner.id }
	const dueAt = instantInZone(input.local, await learnerTimeZone(ctx, scope))
	if (!dueAt) return 'invalidDate'
	await extendDueDate(ctx, course, learner, { ...input, dueAt })
	return 'extended'
}

interface ExtendInput {
	entrySlug: string
	dueAt: Date
	reason: string
	staffUserId: string
}

/**
 * Moves one learner's due date on one entry of the course, with its reason, audited in the same
 * transaction. The caller checked the staff's role on the course and the learner's enrollment.
 */
async function extendDueDate(ctx: RequestContext, course: Course, learner: User, input: ExtendInput) {
	const scope: Scope = { tenantId: learner.tenant_id!, userId: learner.id }
	await inTransaction(ctx.db, (tx) =>
		putDueExtensionSteps(tx, scope, course.slug, {
			entrySlug: input.entrySlug,
			dueAt: input.dueAt,
			reason: input.reason,
			grantedBy: input.staffUserId,
			audit: { actorUserId: input.staffUserId, tenantId: scope.tenantId, metadata: { learnerEmail: learner.email } },
		}),
	)
	ctx.tags.revalidate([tags.course(course.slug), tags.progress(scope.userId)])
}

export interface DueLine {
	courseSlug: string
	entrySlug: string
	href: string
	title: string
	course: string
	state: DueState
	/** The due instant written in the learner's locale and zone. */
	when: string
	dueAt: string
	extended: boolean
}

/** A due item as a page's line: written in the learner's locale and zone, leading to the entry unless it is locked. */
function dueLine(item: DueItem, locale: string, timeZone: string, locked: boolean): DueLine {
	return {
		courseSlug: item.courseSlug,
		entrySlug: item.entrySlug,
		// An entry still locked by the course's order opens nothing yet: its line leads to the course,
		// whose home says what comes first.
		href: locked ? `/learn/course/${item.courseSlug}` : `/learn/course/${item.courseSlug}/entry/${item.entrySlug}`,
		title: item.entryTitle,
		course: item.courseTitle,
		state: item.state,
		when: formatInstant(item.dueAt, locale, timeZone),
		dueAt: item.dueAt.toISOString(),
		extended: item.extended,
	}
}

/** The learner's standing in one course as its page read it (courseProgress): nothing here reads it again. */
export interface CourseStanding {
	enrollment: Pick<Enrollment, 'status' | 'enrolled_at'> | null
	/** Slugs of the course's entries the learner completed. */
	completed: ReadonlySet<string>
	locks: ReadonlyMap<string, LockReason | null>
}

/**
 * What a course page (its home, an entry) shows of the learner's due dates in that one course, in
 * their locale and zone, soonest first: the items `keep` selects. The course's standing comes from
 * the page, so this reads only the zone, the course's hand-ins awaiting a grade and its extensions
 * (issue 47: it read every enrollment's, and the course's progress a second time).
 */
export async function courseDueLines(
	ctx: RequestContext,
	scope: Scope,
	course: Course,
	standing: CourseStanding,
	keep: (item: DueItem) => boolean = () => true,
	now = new Date(),
) {
	const [timeZone, awaiting, extensions] = await Promise.all([
		learnerTimeZone(ctx, scope),
		awaitingHandIns(ctx.db, scope, course.slug),
		extensionMap(ctx.db, scope, course.slug),
	])
	const { enrollment } = standing
	// Only an active enrollment has dates: a completed course's are behind it.
	if (enrollment?.status !== 'active') return { timeZone, lines: [] as DueLine[] }
	const completed = [...standing.completed].map((entry_slug) => ({ course_slug: course.slug, entry_slug }))
	const items = dueItemsIn(course, enrollment, doneKeys(completed, awaiting), extensions, now)
		.filter(keep)
		.sort(soonest)
	const lines = items.map((i) => dueLine(i, ctx.locale, timeZone, Boolean(standing.locks.get(i.entrySlug))))
	return { timeZone, lines }
}

/** One enrolled course of the dashboard with the learner's completed entries in it and its locks. */
export interface EnrolledCourse extends CourseStanding {
	enrollment: Enrollment
	course: Course
}

/**
 * The dashboard's due lines over every active course: overdue and due soon, soonest first. The
 * courses and their standing are what the dashboard read (learnerCourses); this reads three rows
 * sets whatever the number of courses (issue 47).
 */
export async function dashboardDueLines(
	ctx: RequestContext,
	scope: Scope,
	enrolled: readonly EnrolledCourse[],
	now = new Date(),
) {
	const [{ timeZone, chosen }, awaiting, extensions] = await Promise.all([
		learnerZone(ctx, scope),
		awaitingHandIns(ctx.db, scope),
		extensionMap(ctx.db, scope),
	])
	const lines = enrolled
		.filter((c) => c.enrollment.status === 'active')
		.flatMap((c) => {
			const completed = [...c.completed].map((entry_slug) => ({ course_slug: c.course.slug, entry_slug }))
			const done = doneKeys(completed, awaiting)
			return dueItemsIn(c.course, c.enrollment, done, extensions, now)
				.filter((i) => i.state === 'overdue' || i.state === 'soon')
				.map((i) => ({ item: i, locked: Boolean(c.locks.get(i.entrySlug)) }))
		})
		.sort((a, b) => soonest(a.item, b.item))
		.map(({ item, locked }) => dueLine(item, ctx.locale, timeZone, locked))
	return { timeZone, zoneChosen: chosen, lines }
}
