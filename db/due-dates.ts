import { and, eq, inArray, isNotNull, type SQL } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { auditSteps, type AuditInput } from './audit.ts'
import { newId } from './ids.ts'
import { inScope, isParam, type Scope } from './learning.ts'
import { step, type Tx } from './transaction.ts'

// Due dates (decision 0045): staff extensions, the learner's time zone, the calendar feed's token,
// and what the due-date service reads across a tenant. Every query names its tenant.

/** A hand-in or attempt is late when it comes after the due date in force at that moment (equal is on time). */
export function isLate(dueAt: Date | null, handedInAt: Date) {
	return dueAt !== null && handedInAt.getTime() > dueAt.getTime()
}

/** The learner's extensions, in one course or all (prepared: course pages and the dashboard read them on every view). */
export async function dueExtensionsOf(db: Database, scope: Scope, courseSlug?: string) {
	return courseSlug === undefined
		? extensionsOf(db).execute({ ...scope })
		: extensionsIn(db).execute({ ...scope, courseSlug })
}
const extensionsOf = preparedFor((db) => {
	const x = db.t.due_extensions
	return db.orm.select().from(x).where(inScope(x)).prepare('extensions_of')
})
const extensionsIn = preparedFor((db) => {
	const x = db.t.due_extensions
	return db.orm
		.select()
		.from(x)
		.where(inScope(x, isParam(x.course_slug, 'courseSlug')))
		.prepare('extensions_in')
})

/** When the learner enrolled in the course (the anchor of relative due dates), read in a transaction; null: not enrolled. */
export function* enrolledAtSteps(db: Tx, scope: Scope, courseSlug: string) {
	const e = db.t.enrollments
	const [row] = yield* step(
		db.orm
			.select({ enrolled_at: e.enrolled_at })
			.from(e)
			.where(and(eq(e.tenant_id, scope.tenantId), eq(e.user_id, scope.userId), eq(e.course_slug, courseSlug)))
			.limit(1),
	)
	return row?.enrolled_at ?? null
}

/** The extension in force for one learner's entry, read inside a transaction (the hand-in's). */
export function* dueExtensionSteps(db: Tx, scope: Scope, courseSlug: string, entrySlug: string) {
	const x = db.t.due_extensions
	const [row] = yield* step(
		db.orm
			.select({ due_at: x.due_at })
			.from(x)
			.where(
				and(
					eq(x.tenant_id, scope.tenantId),
					eq(x.user_id, scope.userId),
					eq(x.course_slug, courseSlug),
					eq(x.entry_slug, entrySlug),
				),
			)
			.limit(1),
	)
	return row?.due_at ?? null
}

export interface ExtensionInput {
	entrySlug: string
	dueAt: Date
	reason: string
	grantedBy: string
	audit: Omit<AuditInput, 'action' | 'targetKind' | 'targetId'>
}

/**
 * Moves one learner's due date: one row per learner and entry, the newest in force (ON CONFLICT
 * replaces it), and its audit row in the same transaction (the history lives in the audit log).
 */
export function* putDueExtensionSteps(db: Tx, scope: Scope, courseSlug: string, input: ExtensionInput) {
	const x = db.t.due_extensions
	const [row] = yield* step(
		db.orm
			.insert(x)
			.values({
				id: newId(),
				tenant_id: scope.tenantId,
				user_id: scope.userId,
				course_slug: courseSlug,
				entry_slug: input.entrySlug,
				due_at: input.dueAt,
				reason: input.reason,
				granted_by: input.grantedBy,
				created_at: new Date(),
			})
			.onConflictDoUpdate({
				target: [x.tenant_id, x.user_id, x.course_slug, x.entry_slug],
				set: { due_at: input.dueAt, reason: input.reason, granted_by: input.grantedBy, created_at: new Date() },
			})
			.returning(),
	)
	yield* auditSteps(db, {
		...input.audit,
		action: 'learner.due_extended',
		targetKind: 'user',
		targetId: scope.userId,
		metadata: {
			...input.audit.metadata,
			courseSlug,
			entrySlug: input.entrySlug,
			dueAt: input.dueAt.toISOString(),
			reason: input.reason,
		},
	})
	return row!
}

/** What the tenant-wide due list reads: active enrollments in the courses, completions, hand-ins awaiting a grade, extensions. */
export async function tenantDueFacts(db: Database, tenantId: string, courseSlugs: string[]) {
	if (courseSlugs.length === 0) return { enrollments: [], completed: [], awaiting: [], extensions: [] }
	const e = db.t.enrollments
	const p = db.t.entry_progress
	const s = db.t.assignment_submissions
	const x = db.t.due_extensions
	const [enrollments, completed, awaiting, extensions] = await Promise.all([
		db.orm
			.select({ user_id: e.user_id, course_slug: e.course_slug, enrolled_at: e.enrolled_at })
			.from(e)
			.where(and(eq(e.tenant_id, tenantId), inArray(e.course_slug, courseSlugs), eq(e.status, 'active'))),
		db.orm
			.select({ user_id: p.user_id, course_slug: p.course_slug, entry_slug: p.entry_slug })
			.from(p)
			.where(and(eq(p.tenant_id, tenantId), inArray(p.course_slug, courseSlugs), isNotNull(p.completed_at))),
		db.orm
			.selectDistinct({ user_id: s.user_id, course_slug: s.course_slug, entry_slug: s.entry_slug })
			.from(s)
			.where(and(eq(s.tenant_id, tenantId), inArray(s.course_slug, courseSlugs), eq(s.status, 'submitted'))),
		db.orm
			.select({ user_id: x.user_id, course_slug: x.course_slug, entry_slug: x.entry_slug, due_at: x.due_at })
			.from(x)
			.where(and(eq(x.tenant_id, tenantId), inArray(x.course_slug, courseSlugs))),
	])
	return { enrollments, completed, awaiting, extensions }
}

/** The learner's hand-ins awaiting a grade (handed in: not due any more), as course/entry keys, in one course or all. */
export async function awaitingHandIns(db: Database, scope: Scope, courseSlug?: string) {
	return courseSlug === undefined
		? awaitingOf(db).execute({ ...scope })
		: awaitingIn(db).execute({ ...scope, courseSlug })
}
const awaitingOf = preparedFor((db) => awaitingQuery(db, 'awaiting_of'))
const awaitingIn = preparedFor((db) =>
	awaitingQuery(db, 'awaiting_in', isParam(db.t.assignment_submissions.course_slug, 'courseSlug')),
)
function awaitingQuery(db: Database, name: string, ...more: SQL[]) {
	const s = db.t.assignment_submissions
	return db.orm
		.selectDistinct({ course_slug: s.course_slug, entry_slug: s.entry_slug })
		.from(s)
		.where(inScope(s, eq(s.status, 'submitted'), ...more))
		.prepare(name)
}

/** The learner's chosen time zone (an IANA name), or null when they chose none. */
export async function findTimeZone(db: Database, scope: Scope) {
	const [row] = await timeZoneOf(db).execute({ ...scope })
	return row?.time_zone ?? null
}
const timeZoneOf = preparedFor((db) => {
	const u = db.t.user_settings
	return db.orm.select({ time_zone: u.time_zone }).from(u).where(inScope(u)).limit(1).prepare('time_zone_of')
})

export async function putTimeZone(db: Database, scope: Scope, timeZone: string) {
	const u = db.t.user_settings
	const now = new Date()
	await db.orm
		.insert(u)
		.values({ tenant_id: scope.tenantId, user_id: scope.userId, time_zone: timeZone, updated_at: now })
		.onConflictDoUpdate({ target: [u.tenant_id, u.user_id], set: { time_zone: timeZone, updated_at: now } })
}

export type CalendarFeed = Database['t']['calendar_feeds']['$inferSelect']

export async function findCalendarFeed(db: Database, scope: Scope) {
	const f = db.t.calendar_feeds
	const [row] = await db.orm
		.select()
		.from(f)
		.where(and(eq(f.tenant_id, scope.tenantId), eq(f.user_id, scope.userId)))
		.limit(1)
	return row ?? null
}

/** Gives the learner a feed with a new token: the one row (tenant, user) replaced, the old hash gone. */
export async function replaceCalendarFeed(db: Database, scope: Scope, nonce: string, tokenHash: string) {
	const f = db.t.calendar_feeds
	const now = new Date()
	const [row] = await db.orm
		.insert(f)
		.values({ tenant_id: scope.tenantId, user_id: scope.userId, nonce, token_hash: tokenHash, created_at: now })
		.onConflictDoUpdate({ target: [f.tenant_id, f.user_id], set: { nonce, token_hash: tokenHash, created_at: now } })
		.returning()
	return row!
}

/** The feed of this token's hash on this tenant, else null (another tenant's token is nobody's here). */
export async function findCalendarFeedByHash(db: Database, tenantId: string, tokenHash: string) {
	const f = db.t.calendar_feeds
	const [row] = await db.orm
		.select()
		.from(f)
		.where(and(eq(f.tenant_id, tenantId), eq(f.token_hash, tokenHash)))
		.limit(1)
	return row ?? null
}
