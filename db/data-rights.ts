import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { Database } from './client.ts'

/*
 * Data rights (docs/decisions/0044-data-rights.md): what the database holds about one person of one
 * tenant, read for their archive (here) and removed or stripped for their erasure (db/erasure.ts).
 * Every query names the tenant and the person; a table left out here is listed, with the reason, in
 * the decision.
 */

export interface Person {
	tenantId: string
	userId: string
}

/** The placeholder an erased person's address becomes: unique (their id), not personal, never deliverable. */
const ERASED_DOMAIN = '@erased.invalid'
export const erasedEmail = (userId: string) => `erased-${userId}${ERASED_DOMAIN}`
export const isErasedEmail = (email: string) => email.endsWith(ERASED_DOMAIN)

/**
 * Erased users, as SQL (`erased`) or all the others: erasure deactivates too, so the condition reads
 * the deactivated rows' partial index, and no real address ends in the reserved `.invalid` domain.
 */
export function erasedUsers(db: Database, erased = true) {
	const u = db.t.users
	const condition = sql`(${u.deactivated_at} IS NOT NULL AND ${u.email} LIKE ${`%${ERASED_DOMAIN}`})`
	return erased ? condition : sql`NOT ${condition}`
}

/** The person's users row, without what only the server may read (password hash, token version). */
async function profile(db: Database, who: Person) {
	const u = db.t.users
	const [row] = await db.orm
		.select({
			id: u.id,
			tenant_id: u.tenant_id,
			email: u.email,
			name: u.name,
			role: u.role,
			locale: u.locale,
			email_verified_at: u.email_verified_at,
			deactivated_at: u.deactivated_at,
			created_at: u.created_at,
			updated_at: u.updated_at,
		})
		.from(u)
		.where(and(eq(u.id, who.userId), eq(u.tenant_id, who.tenantId)))
	return row ?? null
}

/** Rows of a table with tenant_id and user_id columns, for one person. */
function ownRows<T extends { tenant_id: never; user_id: never }>(db: Database, table: T, who: Person) {
	const t = table as unknown as typeof db.t.enrollments
	return db.orm
		.select()
		.from(t)
		.where(and(eq(t.tenant_id, who.tenantId), eq(t.user_id, who.userId)))
}

/** Invitations addressed to the person's address in their tenant, without the token's hash. */
async function invitationsTo(db: Database, who: Person, email: string) {
	const i = db.t.invitations
	const rows = await db.orm
		.select({
			id: i.id,
			email: i.email,
			role: i.role,
			course_slug: i.course_slug,
			invited_by: i.invited_by,
			expires_at: i.expires_at,
			accepted_at: i.accepted_at,
		})
		.from(i)
		.where(and(eq(i.tenant_id, who.tenantId), eq(sql`lower(${i.email})`, email.toLowerCase())))
	const ids = rows.map((r) => r.id)
	if (!ids.length) return { invitations: rows, invitation_courses: [], invitation_names: [], invitation_locales: [] }
	const { invitation_courses: c, invitation_names: n, invitation_locales: l } = db.t
	const courses = await db.orm
		.select({ invitation_id: c.invitation_id, course_slug: c.course_slug, granted_by: c.granted_by })
		.from(c)
		.where(and(eq(c.tenant_id, who.tenantId), inArray(c.invitation_id, ids)))
	const names = await db.orm
		.select({ invitation_id: n.invitation_id, name: n.name })
		.from(n)
		.where(and(eq(n.tenant_id, who.tenantId), inArray(n.invitation_id, ids)))
	const locales = await db.orm
		.select({ invitation_id: l.invitation_id, locale: l.locale })
		.from(l)
		.where(and(eq(l.tenant_id, who.tenantId), inArray(l.invitation_id, ids)))
	return { invitations: rows, invitation_courses: courses, invitation_names: names, invitation_locales: locales }
}

/**
 * Audit rows of the tenant about the person (their account or one of their records) or by them.
 * A row about someone else that they wrote says only what they did and when: its target and its
 * metadata (an invitee's address, another learner's grade) are that other person's.
 */
async function auditRows(db: Database, who: Person, recordIds: string[]) {
	const a = db.t.audit_log
	const about = [who.userId, ...recordIds]
	const rows = await db.orm
		.select()
		.from(a)
		.where(and(eq(a.tenant_id, who.tenantId), or(eq(a.actor_user_id, who.userId), inArray(a.target_id, about))))
		.orderBy(a.created_at)
	const theirs = new Set(about)
	return rows.map((r) =>
		r.target_id && theirs.has(r.target_id)
			? r
			: {
					id: r.id,
					actor_user_id: r.actor_user_id,
					action: r.action,
					target_kind: r.target_kind,
					created_at: r.created_at,
				},
	)
}

/** Their learning: enrollments, progress, attempts with their due dates (decision 0061), hand-ins, passes, certificates. */
async function learningRecords(db: Database, who: Person) {
	const t = db.t
	const [enrollments, entry_progress, quiz_attempts, assignment_submissions, course_passes, second_chances] =
		await Promise.all([
			ownRows(db, t.enrollments as never, who),
			ownRows(db, t.entry_progress as never, who),
			ownRows(db, t.quiz_attempts as never, who),
			ownRows(db, t.assignment_submissions as never, who),
			ownRows(db, t.course_passes as never, who),
			ownRows(db, t.second_chances as never, who),
		])
	const certificates = await ownRows(db, t.certificates as never, who)
	// The due date and lateness stored with each of their quiz attempts (decision 0061).
	const d = t.quiz_attempt_dues
	const attemptIds = (quiz_attempts as { id: string }[]).map((a) => a.id)
	const quiz_attempt_dues = attemptIds.length
		? await db.orm
				.select()
				.from(d)
				.where(and(eq(d.tenant_id, who.tenantId), inArray(d.attempt_id, attemptIds)))
		: []
	return {
		enrollments,
		entry_progress,
		quiz_attempts,
		quiz_attempt_dues,
		assignment_submissions,
		course_passes,
		second_chances,
		certificates,
	}
}

/** Due dates and reminders (decisions 0045, 0047): settings, extensions given, reminders sent, opt-outs, the calendar feed. */
async function reminderRecords(db: Database, who: Person) {
	const t = db.t
	const [user_settings, due_extensions, reminders_sent, reminder_opt_outs] = await Promise.all([
		ownRows(db, t.user_settings as never, who),
		ownRows(db, t.due_extensions as never, who),
		ownRows(db, t.reminders_sent as never, who),
		ownRows(db, t.reminder_opt_outs as never, who),
	])
	// The calendar feed's existence and age only: its nonce and hash open the feed.
	const cf = t.calendar_feeds
	const calendar_feeds = await db.orm
		.select({ created_at: cf.created_at })
		.from(cf)
		.where(and(eq(cf.tenant_id, who.tenantId), eq(cf.user_id, who.userId)))
	return { user_settings, due_extensions, reminders_sent, reminder_opt_outs, calendar_feeds }
}

/** How they sign in: linked accounts, and sessions and tokens as metadata only (a session's id and a token's hash are credentials). */
async function accessRecords(db: Database, who: Person) {
	const o = db.t.oauth_accounts
	const s = db.t.sessions
	const v = db.t.verification_tokens
	const oauth_accounts = await db.orm
		.select({
			provider: o.provider,
			provider_account_id: o.provider_account_id,
			avatar_url: o.avatar_url,
			created_at: o.created_at,
		})
		.from(o)
		.where(and(eq(o.tenant_id, who.tenantId), eq(o.user_id, who.userId)))
	const sessions = await db.orm
		.select({
			created_at: s.created_at,
			idle_expires_at: s.idle_expires_at,
			expires_at: s.expires_at,
			revoked_at: s.revoked_at,
			impersonated: sql<boolean>`${s.impersonator_session_id} is not null`,
		})
		.from(s)
		.where(and(eq(s.user_id, who.userId), or(eq(s.tenant_id, who.tenantId), isNull(s.tenant_id))))
	const verification_tokens = await db.orm
		.select({ type: v.type, created_at: v.created_at, expires_at: v.expires_at, used_at: v.used_at })
		.from(v)
		.where(eq(v.user_id, who.userId))
	return {
		oauth_accounts,
		sessions: sessions.map((r) => ({ ...r, impersonated: Boolean(r.impersonated) })),
		verification_tokens,
	}
}

/** Every table keyed to the person, by table name (the archive's tables/<name>.json). */
export async function personRecords(db: Database, who: Person) {
	const user = await profile(db, who)
	if (!user) return null
	const t = db.t
	const learning = await learningRecords(db, who)
	const reminders = await reminderRecords(db, who)
	const course_admin_assignments = await ownRows(db, t.course_admin_assignments as never, who)
	const submission_watchers = await ownRows(db, t.submission_watchers as never, who)
	// What the school's identity provider keeps of them here (SCIM, decision 0070): its id, their groups.
	const scim_users = await ownRows(db, t.scim_users as never, who)
	const scim_group_members = await ownRows(db, t.scim_group_members as never, who)
	// Only files a hand-in claimed: an unclaimed row is an upload still streaming or being cleaned up.
	const f = t.submission_files
	const submission_files = await db.orm
		.select()
		.from(f)
		.where(and(eq(f.tenant_id, who.tenantId), eq(f.user_id, who.userId), isNotNull(f.submission_id)))
	const access = await accessRecords(db, who)
	const invited = await invitationsTo(db, who, user.email)
	const recordIds = [
		...learning.enrollments,
		...learning.assignment_submissions,
		...learning.certificates,
		...learning.second_chances,
		...invited.invitations,
	].map((r) => (r as { id: string }).id)
	return {
		users: [user],
		enrollments: learning.enrollments,
		entry_progress: learning.entry_progress,
		quiz_attempts: learning.quiz_attempts,
		quiz_attempt_dues: learning.quiz_attempt_dues,
		assignment_submissions: learning.assignment_submissions,
		submission_files,
		course_passes: learning.course_passes,
		second_chances: learning.second_chances,
		certificates: learning.certificates,
		course_admin_assignments,
		submission_watchers,
		scim_users,
		scim_group_members,
		...access,
		...reminders,
		...invited,
		audit_log: await auditRows(db, who, recordIds),
	}
}

export type PersonRecords = NonNullable<Awaited<ReturnType<typeof personRecords>>>

/** The tables of the schema that personRecords reads (the rest are listed in decision 0044). */
export const ARCHIVED_TABLES = [
	'users',
	'enrollments',
	'entry_progress',
	'quiz_attempts',
	'quiz_attempt_dues',
	'assignment_submissions',
	'submission_files',
	'course_passes',
	'second_chances',
	'certificates',
	'course_admin_assignments',
	'submission_watchers',
	'oauth_accounts',
	'sessions',
	'verification_tokens',
	'invitations',
	'invitation_courses',
	'invitation_names',
	'invitation_locales',
	'audit_log',
	'user_settings',
	'due_extensions',
	'reminders_sent',
	'reminder_opt_outs',
	'calendar_feeds',
	'scim_users',
	'scim_group_members',
] as const satisfies ReadonlyArray<keyof PersonRecords>
