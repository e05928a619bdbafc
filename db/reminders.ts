import { and, asc, eq, gt, gte, inArray, isNull, lt, max, notExists, or, sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { step, type Tx } from './transaction.ts'
import type { Locale, ReminderKind } from './schema/values.ts'

/*
 * Reminders, their opt-outs and announcements (docs/decisions/0047-reminders.md). "Once per item per
 * learner" is the primary key of reminders_sent: a mail's job is written only by the transaction
 * whose insert of that key went in (recordReminderSteps), so two sweeps at once, a retried sweep or
 * a sweep after a killed one queue each mail once.
 */

export interface ReminderKey {
	tenantId: string
	userId: string
	kind: ReminderKind
	itemKey: string
}

/** Records the reminder as a step of the transaction that queues its mail: true when this call recorded it, false when it was already. */
export function* recordReminderSteps(tx: Tx, key: ReminderKey) {
	const r = tx.t.reminders_sent
	const rows = yield* step(
		tx.orm
			.insert(r)
			.values({ tenant_id: key.tenantId, user_id: key.userId, kind: key.kind, item_key: key.itemKey })
			.onConflictDoNothing()
			.returning({ kind: r.kind }),
	)
	return rows.length === 1
}

/** An enrolled learner as a reminder sees them. */
export interface InactiveEnrollment {
	tenantId: string
	tenantSlug: string
	customDomain: string | null
	userId: string
	locale: Locale
	courseSlug: string
	/** The latest of the enrollment and the learner's last view of one of the course's entries. */
	lastActiveAt: Date
}

/**
 * Active enrollments in active tenants of learners still active, whose last activity in the course
 * (enrolling, viewing or completing an entry) lies between `from` and `to`, who did not opt out of
 * inactivity reminders, and who were not reminded since that activity (a reminder recorded after
 * it is this spell's).
 */
export async function inactiveEnrollments(db: Database, from: Date, to: Date): Promise<InactiveEnrollment[]> {
	const { enrollments: e, users: u, tenants: tn, entry_progress: p, reminders_sent: r, reminder_opt_outs: o } = db.t
	const seen = db.orm
		.select({
			tenant_id: p.tenant_id,
			user_id: p.user_id,
			course_slug: p.course_slug,
			at: max(p.last_viewed_at).as('seen_at'),
		})
		.from(p)
		.groupBy(p.tenant_id, p.user_id, p.course_slug)
		.as('seen')
	const rows = await db.orm
		.select({
			tenantId: e.tenant_id,
			tenantSlug: tn.slug,
			customDomain: tn.custom_domain,
			userId: e.user_id,
			locale: u.locale,
			courseSlug: e.course_slug,
			enrolledAt: e.enrolled_at,
			seenAt: seen.at,
		})
		.from(e)
		.innerJoin(u, and(eq(u.id, e.user_id), eq(u.tenant_id, e.tenant_id)))
		.innerJoin(tn, eq(tn.id, e.tenant_id))
		.leftJoin(
			seen,
			and(eq(seen.tenant_id, e.tenant_id), eq(seen.user_id, e.user_id), eq(seen.course_slug, e.course_slug)),
		)
		.where(
			and(
				eq(e.status, 'active'),
				eq(tn.status, 'active'),
				isNull(u.deactivated_at),
				lt(e.enrolled_at, to),
				// seen.at is an aggregate: the bound value is encoded as the column it is the max of.
				or(isNull(seen.at), lt(seen.at, sql.param(to, p.last_viewed_at))),
				notExists(
					db.orm
						.select({ one: sql`1` })
						.from(o)
						.where(and(eq(o.tenant_id, e.tenant_id), eq(o.user_id, e.user_id), eq(o.kind, 'inactivity'))),
				),
				notExists(
					db.orm
						.select({ one: sql`1` })
						.from(r)
						.where(
							and(
								eq(r.tenant_id, e.tenant_id),
								eq(r.user_id, e.user_id),
								eq(r.kind, 'inactivity'),
								sql`${r.item_key} like ${e.course_slug} || '@%'`,
								gt(r.sent_at, e.enrolled_at),
								or(isNull(seen.at), gt(r.sent_at, sql`${seen.at}`)),
							),
						),
				),
			),
		)
		.orderBy(asc(e.tenant_id), asc(e.user_id), asc(e.course_slug))
	return rows
		.map(({ enrolledAt, seenAt, ...row }) => ({
			...row,
			lastActiveAt: seenAt && toDate(seenAt) > enrolledAt ? toDate(seenAt) : enrolledAt,
		}))
		.filter((row) => row.lastActiveAt >= from && row.lastActiveAt < to)
}

/** max() over a timestamp column comes back as the driver's raw value (SQLite: epoch ms; PostgreSQL: a string). */
function toDate(value: Date | string | number) {
	return value instanceof Date ? value : new Date(typeof value === 'string' ? value.replace(' ', 'T') : value)
}

/** The kinds the learner turned off. */
export async function optedOutKinds(db: Database, tenantId: string, userId: string): Promise<ReminderKind[]> {
	const o = db.t.reminder_opt_outs
	const rows = await db.orm
		.select({ kind: o.kind })
		.from(o)
		.where(and(eq(o.tenant_id, tenantId), eq(o.user_id, userId)))
	return rows.map((row) => row.kind)
}

/** Whether the learner turned this kind off (checked again when a queued mail goes out). */
export async function isOptedOut(db: Database, tenantId: string, userId: string, kind: ReminderKind) {
	const o = db.t.reminder_opt_outs
	const [row] = await db.orm
		.select({ kind: o.kind })
		.from(o)
		.where(and(eq(o.tenant_id, tenantId), eq(o.user_id, userId), eq(o.kind, kind)))
	return Boolean(row)
}

/** Turns kinds off (idempotent: a second unsubscribe changes nothing); answers the kinds newly turned off. */
export function* optOutSteps(tx: Tx, tenantId: string, userId: string, kinds: readonly ReminderKind[]) {
	if (kinds.length === 0) return []
	const o = tx.t.reminder_opt_outs
	const rows = yield* step(
		tx.orm
			.insert(o)
			.values(kinds.map((kind) => ({ tenant_id: tenantId, user_id: userId, kind })))
			.onConflictDoNothing()
			.returning({ kind: o.kind }),
	)
	return rows.map((row) => row.kind)
}

/** Turns kinds back on. */
export function* optInSteps(tx: Tx, tenantId: string, userId: string, kinds: readonly ReminderKind[]) {
	if (kinds.length === 0) return []
	const o = tx.t.reminder_opt_outs
	const rows = yield* step(
		tx.orm
			.delete(o)
			.where(and(eq(o.tenant_id, tenantId), eq(o.user_id, userId), inArray(o.kind, [...kinds])))
			.returning({ kind: o.kind }),
	)
	return rows.map((row) => row.kind)
}

export interface AnnouncementInput {
	tenantId: string
	courseSlug: string
	authorId: string
	subject: string
	body: string
}

/** Stores an announcement (its mails are the job written beside it). */
export function* createAnnouncementSteps(tx: Tx, input: AnnouncementInput) {
	const a = tx.t.announcements
	const [row] = yield* step(
		tx.orm
			.insert(a)
			.values({
				id: newId(),
				tenant_id: input.tenantId,
				course_slug: input.courseSlug,
				author_id: input.authorId,
				subject: input.subject,
				body: input.body,
			})
			.returning(),
	)
	return row
}

export async function findAnnouncement(db: Database, tenantId: string, id: string) {
	const a = db.t.announcements
	const [row] = await db.orm
		.select()
		.from(a)
		.where(and(eq(a.tenant_id, tenantId), eq(a.id, id)))
	return row ?? null
}

/** The course's latest announcements, newest first (the form's page lists them). */
export async function recentAnnouncements(db: Database, tenantId: string, courseSlug: string, since: Date) {
	const a = db.t.announcements
	return db.orm
		.select({ id: a.id, subject: a.subject, createdAt: a.created_at })
		.from(a)
		.where(and(eq(a.tenant_id, tenantId), eq(a.course_slug, courseSlug), gte(a.created_at, since)))
		.orderBy(sql`${a.created_at} desc`)
		.limit(20)
}

/**
 * Whom an announcement still has to reach: the course's enrolled learners (active or completed)
 * whose account is active, who did not turn announcements off, and whose mail of it is not recorded yet.
 */
export async function announcementRecipients(
	db: Database,
	tenantId: string,
	courseSlug: string,
	announcementId: string,
) {
	const { enrollments: e, users: u, reminders_sent: r, reminder_opt_outs: o } = db.t
	return db.orm
		.select({ userId: u.id, locale: u.locale })
		.from(e)
		.innerJoin(u, and(eq(u.id, e.user_id), eq(u.tenant_id, e.tenant_id)))
		.where(
			and(
				eq(e.tenant_id, tenantId),
				eq(e.course_slug, courseSlug),
				inArray(e.status, ['active', 'completed']),
				isNull(u.deactivated_at),
				notExists(
					db.orm
						.select({ one: sql`1` })
						.from(o)
						.where(and(eq(o.tenant_id, tenantId), eq(o.user_id, u.id), eq(o.kind, 'announcement'))),
				),
				notExists(
					db.orm
						.select({ one: sql`1` })
						.from(r)
						.where(
							and(
								eq(r.tenant_id, tenantId),
								eq(r.user_id, u.id),
								eq(r.kind, 'announcement'),
								eq(r.item_key, announcementId),
							),
						),
				),
			),
		)
		.orderBy(asc(u.id))
}

/** Each active tenant's courses with active enrollments (where due dates may fall), for the due-date reminders. */
export async function enrolledCoursesByTenant(db: Database) {
	const { enrollments: e, tenants: tn } = db.t
	const rows = await db.orm
		.selectDistinct({ tenantId: e.tenant_id, slug: tn.slug, customDomain: tn.custom_domain, course: e.course_slug })
		.from(e)
		.innerJoin(tn, eq(tn.id, e.tenant_id))
		.where(and(eq(e.status, 'active'), eq(tn.status, 'active')))
		.orderBy(asc(e.tenant_id), asc(e.course_slug))
	const byTenant = new Map<string, { tenantId: string; slug: string; customDomain: string | null; courses: string[] }>()
	for (const row of rows) {
		const entry = byTenant.get(row.tenantId) ?? {
			tenantId: row.tenantId,
			slug: row.slug,
			customDomain: row.customDomain,
			courses: [],
		}
		entry.courses.push(row.course)
		byTenant.set(row.tenantId, entry)
	}
	return [...byTenant.values()]
}

/** Of these learners of the tenant: those still active who did not turn `kind` off, with their locale. */
export async function remindableLearners(db: Database, tenantId: string, kind: ReminderKind, userIds: string[]) {
	if (userIds.length === 0) return new Map<string, Locale>()
	const { users: u, reminder_opt_outs: o } = db.t
	const rows = await db.orm
		.select({ id: u.id, locale: u.locale })
		.from(u)
		.where(
			and(
				eq(u.tenant_id, tenantId),
				inArray(u.id, [...new Set(userIds)]),
				isNull(u.deactivated_at),
				notExists(
					db.orm
						.select({ one: sql`1` })
						.from(o)
						.where(and(eq(o.tenant_id, tenantId), eq(o.user_id, u.id), eq(o.kind, kind))),
				),
			),
		)
	return new Map(rows.map((r) => [r.id, r.locale]))
}
