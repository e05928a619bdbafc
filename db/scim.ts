import { and, asc, count, desc, eq, isNull, lt, or, type SQL } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { step, type Tx } from './transaction.ts'
import type { ScimGroupRole } from './schema/values.ts'
import type { User } from './users.ts'

/*
 * SCIM 2.0 provisioning (decision 0070): a tenant's bearer tokens, the admin's group mappings, the
 * groups the identity provider pushes and their members, and users' externalId. Every query names
 * the tenant.
 */

export type ScimToken = Database['t']['scim_tokens']['$inferSelect']
export type ScimGroupMapping = Database['t']['scim_group_mappings']['$inferSelect']

// --- tokens -----------------------------------------------------------------

export function* insertScimTokenSteps(
	db: Tx,
	input: { tenantId: string; label: string; tokenHash: string; createdBy: string },
) {
	const [row] = yield* step(
		db.orm
			.insert(db.t.scim_tokens)
			.values({
				id: newId(),
				tenant_id: input.tenantId,
				label: input.label,
				token_hash: input.tokenHash,
				created_by: input.createdBy,
				created_at: new Date(),
			})
			.returning(),
	)
	return row!
}

/** The tenant's tokens, newest first, with the name of the admin who made each (never the hash). */
export function listScimTokens(db: Database, tenantId: string) {
	const t = db.t.scim_tokens
	const u = db.t.users
	return db.orm
		.select({
			id: t.id,
			label: t.label,
			createdAt: t.created_at,
			lastUsedAt: t.last_used_at,
			revokedAt: t.revoked_at,
			createdBy: u.email,
		})
		.from(t)
		.innerJoin(u, eq(u.id, t.created_by))
		.where(eq(t.tenant_id, tenantId))
		.orderBy(desc(t.created_at))
		.limit(200)
}

/** Revokes one token of the tenant; null when it is not the tenant's or already revoked. */
export function* revokeScimTokenSteps(db: Tx, tenantId: string, id: string, now = new Date()) {
	const t = db.t.scim_tokens
	const [row] = yield* step(
		db.orm
			.update(t)
			.set({ revoked_at: now })
			.where(and(eq(t.id, id), eq(t.tenant_id, tenantId), isNull(t.revoked_at)))
			.returning(),
	)
	return row ?? null
}

/**
 * The live token of this hash in this tenant: not revoked, and its maker still an active
 * tenant_admin of the tenant (a token acts with its maker's authority, no longer than it lasts).
 */
export async function findLiveScimToken(db: Database, tenantId: string, tokenHash: string) {
	const t = db.t.scim_tokens
	const u = db.t.users
	const [row] = await db.orm
		.select({ token: t })
		.from(t)
		.innerJoin(u, eq(u.id, t.created_by))
		.where(
			and(
				eq(t.token_hash, tokenHash),
				eq(t.tenant_id, tenantId),
				isNull(t.revoked_at),
				eq(u.tenant_id, tenantId),
				eq(u.role, 'tenant_admin'),
				isNull(u.deactivated_at),
			),
		)
		.limit(1)
	return row?.token ?? null
}

/** Marks the token used, at most once a minute (a provisioning run does not write a row per request). */
export async function touchScimToken(db: Database, id: string, now = new Date()) {
	const t = db.t.scim_tokens
	const stale = new Date(now.getTime() - 60_000)
	await db.orm
		.update(t)
		.set({ last_used_at: now })
		.where(and(eq(t.id, id), or(isNull(t.last_used_at), lt(t.last_used_at, stale))))
		.returning({ id: t.id })
}

// --- the admin's group mappings --------------------------------------------------

export function listGroupMappings(db: Database, tenantId: string) {
	const m = db.t.scim_group_mappings
	return db.orm.select().from(m).where(eq(m.tenant_id, tenantId)).orderBy(asc(m.display_name)).limit(500)
}

/** A new mapping; null when the group's name is mapped already. */
export function* insertGroupMappingSteps(
	db: Tx,
	input: {
		tenantId: string
		displayName: string
		role: ScimGroupRole | null
		courseSlug: string | null
		createdBy: string
	},
) {
	const m = db.t.scim_group_mappings
	const [row] = yield* step(
		db.orm
			.insert(m)
			.values({
				id: newId(),
				tenant_id: input.tenantId,
				display_name: input.displayName,
				role: input.role,
				course_slug: input.courseSlug,
				created_by: input.createdBy,
				created_at: new Date(),
			})
			.onConflictDoNothing()
			.returning(),
	)
	return row ?? null
}

export function* deleteGroupMappingSteps(db: Tx, tenantId: string, id: string) {
	const m = db.t.scim_group_mappings
	const [row] = yield* step(
		db.orm
			.delete(m)
			.where(and(eq(m.id, id), eq(m.tenant_id, tenantId)))
			.returning(),
	)
	return row ?? null
}

/** The mapping of a group's name in the tenant, or null. */
export function* mappingOfGroupSteps(db: Tx, tenantId: string, displayName: string) {
	const m = db.t.scim_group_mappings
	const [row] = yield* step(
		db.orm
			.select()
			.from(m)
			.where(and(eq(m.tenant_id, tenantId), eq(m.display_name, displayName)))
			.limit(1),
	)
	return row ?? null
}

/** The roles the user's mapped groups give them (their strongest decides). */
export function* mappedRolesOfUserSteps(db: Tx, tenantId: string, userId: string) {
	const { scim_group_members: gm, scim_groups: g, scim_group_mappings: m } = db.t
	const rows = yield* step(
		db.orm
			.select({ role: m.role, courseSlug: m.course_slug })
			.from(gm)
			.innerJoin(g, and(eq(g.id, gm.group_id), eq(g.tenant_id, tenantId)))
			.innerJoin(m, and(eq(m.tenant_id, tenantId), eq(m.display_name, g.display_name)))
			.where(and(eq(gm.tenant_id, tenantId), eq(gm.user_id, userId))),
	)
	return rows.filter((r): r is { role: ScimGroupRole; courseSlug: string | null } => r.role !== null)
}

// --- users ------------------------------------------------------------------------

export type ScimUserRow = User & { external_id: string | null }

function userSelection(db: Tx) {
	const { users: u, scim_users: s } = db.t
	return db.orm
		.select({ user: u, externalId: s.external_id })
		.from(u)
		.leftJoin(s, and(eq(s.user_id, u.id), eq(s.tenant_id, u.tenant_id)))
}
const withExternal = (r: { user: User; externalId: string | null }): ScimUserRow => ({
	...r.user,
	external_id: r.externalId,
})

/** One user of the tenant with its externalId; null for another tenant's or an unknown id. */
export function* findScimUserSteps(db: Tx, tenantId: string, userId: string) {
	if (userId.includes('\u0000')) return null
	const u = db.t.users
	const [row] = yield* step(
		userSelection(db)
			.where(and(eq(u.tenant_id, tenantId), eq(u.id, userId)))
			.limit(1),
	)
	return row ? withExternal(row) : null
}

/** A page of the tenant's users (oldest first, as SCIM pages by startIndex), with the total; optionally one address or externalId. */
export async function listScimUsers(
	db: Database,
	tenantId: string,
	filter: { email?: string; externalId?: string },
	page: { offset: number; limit: number },
) {
	const { users: u, scim_users: s } = db.t
	const where: SQL[] = [eq(u.tenant_id, tenantId)]
	if (filter.email !== undefined) where.push(eq(u.email, filter.email.trim().toLowerCase()))
	if (filter.externalId !== undefined) where.push(eq(s.external_id, filter.externalId))
	const [total] = await db.orm
		.select({ n: count() })
		.from(u)
		.leftJoin(s, and(eq(s.user_id, u.id), eq(s.tenant_id, u.tenant_id)))
		.where(and(...where))
	const rows =
		page.limit === 0
			? []
			: await userSelection(db)
					.where(and(...where))
					.orderBy(asc(u.created_at), asc(u.id))
					.limit(page.limit)
					.offset(page.offset)
	return { total: Number(total?.n ?? 0), users: rows.map(withExternal) }
}

/** Sets (or with null, clears) the user's externalId; false when another user of the tenant has it. */
export function* setExternalIdSteps(db: Tx, tenantId: string, userId: string, externalId: string | null) {
	const s = db.t.scim_users
	if (externalId === null) {
		yield* step(
			db.orm
				.delete(s)
				.where(and(eq(s.user_id, userId), eq(s.tenant_id, tenantId)))
				.returning(),
		)
		return true
	}
	const [taken] = yield* step(
		db.orm
			.select({ userId: s.user_id })
			.from(s)
			.where(and(eq(s.tenant_id, tenantId), eq(s.external_id, externalId)))
			.limit(1),
	)
	if (taken && taken.userId !== userId) return false
	yield* step(
		db.orm
			.insert(s)
			.values({ user_id: userId, tenant_id: tenantId, external_id: externalId })
			.onConflictDoUpdate({ target: s.user_id, set: { external_id: externalId } })
			.returning(),
	)
	return true
}
