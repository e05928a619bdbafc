import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { step, type Tx } from './transaction.ts'
import { newId } from './ids.ts'
import type { Locale, Role } from './schema/values.ts'

export type Invitation = Database['t']['invitations']['$inferSelect']

export interface InvitationWrite {
	tenantId: string
	email: string
	role: 'student' | 'course_admin' | 'tenant_admin'
	courseSlug?: string | null
	/** The invitee's name as the admin's list gave it (fills the acceptance form). */
	name?: string | null
	/** The language the list gave for the invitee (decision 0065): their mail and acceptance page. */
	locale?: Locale | null
	tokenHash: string
	invitedBy: string | null
	expiresAt: Date
}

const excluded = (column: string) => sql.raw(`excluded.${column}`)

/**
 * Each address's one open invitation in this tenant (decision 0040; the partial unique index
 * `invitations_open_unique` decides): a new row, or the open one refreshed with a new token and a
 * new expiry (`refreshed`). `keepOffer` (an enrollment list adding a course to it) leaves the open
 * invitation's role, course and inviter as they were; otherwise the new send's replace them.
 * One statement for all of them (a list's chunk, decision 0059), so the addresses must differ;
 * answers in the order of `inputs`.
 */
export function* upsertInvitationsSteps(db: Tx, inputs: InvitationWrite[], keepOffer = false) {
	if (inputs.length === 0) return []
	const i = db.t.invitations
	const written = inputs.map((input) => ({
		id: newId(),
		tenant_id: input.tenantId,
		email: input.email.trim().toLowerCase(),
		role: input.role,
		course_slug: input.courseSlug ?? null,
		token_hash: input.tokenHash,
		invited_by: input.invitedBy,
		expires_at: input.expiresAt,
	}))
	const offer = keepOffer
		? {}
		: { role: excluded('role'), course_slug: excluded('course_slug'), invited_by: excluded('invited_by') }
	// The insert, or on an open row's conflict its refresh (an accepted row is no conflict: the index
	// covers open rows only). The id tells which happened.
	const rows = yield* step(
		db.orm
			.insert(i)
			.values(written)
			.onConflictDoUpdate({
				target: [i.tenant_id, i.email],
				targetWhere: sql`accepted_at IS NULL`,
				set: { ...offer, token_hash: excluded('token_hash'), expires_at: excluded('expires_at') },
			})
			.returning(),
	)
	const stored = new Map(rows.map((row) => [`${row.tenant_id} ${row.email}`, row as Invitation]))
	const results = written.map((w, k) => {
		const row = stored.get(`${w.tenant_id} ${w.email}`)!
		return { row, refreshed: row.id !== w.id, input: inputs[k] }
	})
	// The name and language the list gave, beside the invitation (the specification's table has no
	// such columns); a later send's replace them, unless it only adds a course.
	yield* inviteeDetailsSteps(
		db,
		results.filter((r) => !(keepOffer && r.refreshed)),
	)
	return results.map(({ row, refreshed }) => ({ row, refreshed }))
}

/** The invitees' names and languages as a list gave them, each kept beside its invitation when given. */
function* inviteeDetailsSteps(
	db: Tx,
	written: Array<{ row: Pick<Invitation, 'id' | 'tenant_id'>; input: InvitationWrite }>,
) {
	const { invitation_names: n, invitation_locales: l } = db.t
	const names = written.flatMap(({ row, input }) =>
		input.name ? [{ invitation_id: row.id, tenant_id: row.tenant_id, name: input.name }] : [],
	)
	if (names.length)
		yield* step(
			db.orm
				.insert(n)
				.values(names)
				.onConflictDoUpdate({ target: n.invitation_id, set: { name: excluded('name') } })
				.returning({ id: n.invitation_id }),
		)
	const locales = written.flatMap(({ row, input }) =>
		input.locale ? [{ invitation_id: row.id, tenant_id: row.tenant_id, locale: input.locale }] : [],
	)
	if (locales.length)
		yield* step(
			db.orm
				.insert(l)
				.values(locales)
				.onConflictDoUpdate({ target: l.invitation_id, set: { locale: excluded('locale') } })
				.returning({ id: l.invitation_id }),
		)
}

/** The name and language an invitation's list gave its invitee (null when it gave none). */
export async function inviteeDetails(db: Database, tenantId: string, invitationId: string) {
	const { invitation_names: n, invitation_locales: l } = db.t
	const [[name], [locale]] = await Promise.all([
		db.orm
			.select({ name: n.name })
			.from(n)
			.where(and(eq(n.tenant_id, tenantId), eq(n.invitation_id, invitationId)))
			.limit(1),
		db.orm
			.select({ locale: l.locale })
			.from(l)
			.where(and(eq(l.tenant_id, tenantId), eq(l.invitation_id, invitationId)))
			.limit(1),
	])
	return { name: name?.name ?? null, locale: (locale?.locale ?? null) as Locale | null }
}

/** Courses invitations enroll their invitees in on acceptance (each once per invitation), each added by `grantedBy`. */
export function* addInvitationCoursesSteps(
	db: Tx,
	grants: Array<{ invitation: Pick<Invitation, 'id' | 'tenant_id'>; courseSlug: string; grantedBy: string | null }>,
) {
	if (grants.length === 0) return
	const c = db.t.invitation_courses
	yield* step(
		db.orm
			.insert(c)
			.values(
				grants.map(({ invitation, courseSlug, grantedBy }) => ({
					id: newId(),
					tenant_id: invitation.tenant_id,
					invitation_id: invitation.id,
					course_slug: courseSlug,
					granted_by: grantedBy,
				})),
			)
			.onConflictDoNothing({ target: [c.invitation_id, c.course_slug] })
			.returning({ id: c.id }),
	)
}

/** The courses an invitation carries, each with whether its grantor may still enroll in it now. */
export function* invitationCoursesSteps(db: Tx, tenantId: string, invitationId: string) {
	const { invitation_courses: c, users: u, course_admin_assignments: a } = db.t
	const mine = and(eq(c.tenant_id, tenantId), eq(c.invitation_id, invitationId))
	// In WHERE, where drizzle names every column with its table (in a select list it would not).
	const grantorMay = sql`exists (select 1 from ${u} where ${u.id} = ${c.granted_by} and ${u.deactivated_at} is null
		and ((${u.role} = 'tenant_admin' and ${u.tenant_id} = ${c.tenant_id}) or (${u.role} = 'super_admin' and ${u.tenant_id} is null)
		or (${u.role} = 'course_admin' and ${u.tenant_id} = ${c.tenant_id} and exists (select 1 from ${a}
			where ${a.user_id} = ${u.id} and ${a.tenant_id} = ${c.tenant_id} and ${a.course_slug} = ${c.course_slug}))))`
	const columns = { courseSlug: c.course_slug, grantedBy: c.granted_by }
	const all = yield* step(db.orm.select(columns).from(c).where(mine).orderBy(c.course_slug))
	const granted = yield* step(db.orm.select(columns).from(c).where(and(mine, grantorMay)))
	const may = new Set(granted.map((r) => r.courseSlug))
	return all.map((r) => ({ ...r, mayGrant: may.has(r.courseSlug) }))
}

/** The course slugs of many invitations of this tenant, for the pending list. */
export async function coursesOfInvitations(db: Database, tenantId: string, ids: string[]) {
	const c = db.t.invitation_courses
	const out = new Map<string, string[]>()
	if (ids.length === 0) return out
	const rows = await db.orm
		.select({ id: c.invitation_id, slug: c.course_slug })
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), inArray(c.invitation_id, ids)))
		.orderBy(c.course_slug)
	for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.slug])
	return out
}

/**
 * Who may grant each role an invitation offers (decision 0032): a tenant admin of the invitation's
 * tenant, or a super admin. Checked when the invitation takes effect, not only when it was sent.
 */
const GRANTORS = ['tenant_admin', 'super_admin'] as const satisfies Role[]

/** Why pending invitations were withdrawn (audit metadata `reason` of their `invitation.revoked` rows). */
export const WITHDRAWAL_REASONS = [
	'inviter_demoted',
	'inviter_deactivated',
	'tenant_suspended',
	'tenant_archived',
] as const
export type WithdrawalReason = (typeof WITHDRAWAL_REASONS)[number]

/**
 * Whether a role may send invitations: a course admin too, learner invitations carrying their
 * courses' enrollments (decision 0040). A demotion of someone who may invite withdraws the pending
 * ones (withdrawPendingInvitationsSteps).
 */
export const mayInvite = (role: Role) => (GRANTORS as readonly Role[]).includes(role) || role === 'course_admin'

/**
 * The invitation's inviter may still grant it: exists, is not deactivated, and is a tenant admin of
 * the invitation's tenant or a super admin (a platform account), or, for a learner invitation, a
 * course admin of the tenant (the courses it carries are each checked on their own, decision 0040). In the statement that reads or
 * accepts the invitation, so a demotion committed a moment before is seen.
 */
function inviterMayGrant(db: Tx) {
	const { invitations: i, users: u } = db.t
	return sql`exists (select 1 from ${u} where ${u.id} = ${i.invited_by} and ${u.deactivated_at} is null
		and ((${u.role} = ${GRANTORS[0]} and ${u.tenant_id} = ${i.tenant_id}) or (${u.role} = ${GRANTORS[1]} and ${u.tenant_id} is null)
		or (${i.role} = 'student' and ${u.role} = 'course_admin' and ${u.tenant_id} = ${i.tenant_id})))`
}

/**
 * Scoped by tenant: an invitation of another tenant is not found here, nor one whose inviter may no
 * longer grant it.
 */
export async function findInvitation(db: Database, tenantId: string, tokenHash: string) {
	const i = db.t.invitations
	const [row] = await db.orm
		.select()
		.from(i)
		.where(and(eq(i.tenant_id, tenantId), eq(i.token_hash, tokenHash), inviterMayGrant(db)))
		.limit(1)
	return row ?? null
}

/**
 * Accepts once, and only while its inviter may still grant it: concurrent acceptances leave exactly
 * one winner, and an acceptance racing the inviter's demotion either comes first or finds nothing.
 */
export function* acceptInvitationRowSteps(db: Tx, tenantId: string, tokenHash: string, now = new Date()) {
	const i = db.t.invitations
	const [row] = yield* step(
		db.orm
			.update(i)
			.set({ accepted_at: now })
			.where(
				and(
					eq(i.tenant_id, tenantId),
					eq(i.token_hash, tokenHash),
					isNull(i.accepted_at),
					gt(i.expires_at, now),
					inviterMayGrant(db),
				),
			)
			.returning(),
	)
	return row ?? null
}

/**
 * Withdraws pending invitations (deletes them, as a revocation does): those an admin sent, in every
 * tenant, when they lose the right to send them (demotion, deactivation), or all of a tenant's when
 * it is suspended or archived. The rows deleted, for their audit rows.
 */
export function* withdrawPendingInvitationsSteps(
	db: Tx,
	by: { invitedBy: string } | { tenantId: string },
	now = new Date(),
) {
	const i = db.t.invitations
	const whose = 'invitedBy' in by ? eq(i.invited_by, by.invitedBy) : eq(i.tenant_id, by.tenantId)
	const rows = yield* step(
		db.orm
			.delete(i)
			.where(and(whose, isNull(i.accepted_at), gt(i.expires_at, now)))
			.returning(),
	)
	return rows as Invitation[]
}

/** Pending: neither accepted nor expired. Revoked invitations are deleted, so they are not here either. */
function pending(db: Tx, tenantId: string, id: string, now: Date) {
	const i = db.t.invitations
	return and(eq(i.tenant_id, tenantId), eq(i.id, id), isNull(i.accepted_at), gt(i.expires_at, now))
}

/** The most a pending list shows: a render stays cheap (decision 0014) however many invitations pile up. */
const PENDING_LIST_LIMIT = 200

/** The tenant's pending invitations, newest first, with who sent each (null when that account is gone). */
export async function listPendingInvitations(db: Database, tenantId: string, now = new Date()) {
	const { invitations: i, users: u } = db.t
	return db.orm
		.select({
			id: i.id,
			email: i.email,
			role: i.role,
			courseSlug: i.course_slug,
			expiresAt: i.expires_at,
			inviterName: u.name,
			inviterEmail: u.email,
		})
		.from(i)
		.leftJoin(u, eq(u.id, i.invited_by))
		.where(and(eq(i.tenant_id, tenantId), isNull(i.accepted_at), gt(i.expires_at, now)))
		.orderBy(desc(i.expires_at), i.id)
		.limit(PENDING_LIST_LIMIT)
}

/** An invitation of this tenant by id, in any state; another tenant's (or a malformed id) is null. */
export async function findInvitationById(db: Database, tenantId: string, id: string) {
	// No stored id contains NUL, and PostgreSQL refuses it in a query parameter.
	if (id.includes('\u0000')) return null
	const i = db.t.invitations
	const [row] = await db.orm
		.select()
		.from(i)
		.where(and(eq(i.tenant_id, tenantId), eq(i.id, id)))
		.limit(1)
	return row ?? null
}

/** The invitation while it is pending (not accepted, not expired), of this tenant; else null. */
export function* findPendingInvitationSteps(db: Tx, tenantId: string, id: string, now = new Date()) {
	const [row] = yield* step(
		db.orm
			.select()
			.from(db.t.invitations)
			.where(pending(db, tenantId, id, now))
			.limit(1),
	)
	return row ?? null
}

/**
 * A send (decision 0033: the invitation's job issues its link when it mails it): the pending invitation gets a new token and a new expiry in one statement, so the link
 * mailed before stops working the moment the new one exists. Null when it is no longer pending
 * (accepted, expired or revoked meanwhile) or not this tenant's.
 */
export function* rotateInvitationTokenSteps(
	db: Tx,
	tenantId: string,
	id: string,
	next: { tokenHash: string; expiresAt: Date },
	now = new Date(),
) {
	const [row] = yield* step(
		db.orm
			.update(db.t.invitations)
			.set({ token_hash: next.tokenHash, expires_at: next.expiresAt })
			.where(pending(db, tenantId, id, now))
			.returning(),
	)
	return row ?? null
}

/** A revocation deletes the pending invitation (the spec's table has no revoked state); its audit row keeps what it was. */
export function* deletePendingInvitationSteps(db: Tx, tenantId: string, id: string, now = new Date()) {
	const [row] = yield* step(
		db.orm
			.delete(db.t.invitations)
			.where(pending(db, tenantId, id, now))
			.returning(),
	)
	return row ?? null
}
