import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { step, type Tx } from './transaction.ts'

/*
 * The groups a tenant's identity provider pushes by SCIM and their members (decision 0070; the
 * tokens, mappings and users are in db/scim.ts). Every query names the tenant.
 */

export type ScimGroup = Database['t']['scim_groups']['$inferSelect']

export function* findScimGroupSteps(db: Tx, tenantId: string, id: string) {
	if (id.includes('\u0000')) return null
	const g = db.t.scim_groups
	const [row] = yield* step(
		db.orm
			.select()
			.from(g)
			.where(and(eq(g.tenant_id, tenantId), eq(g.id, id)))
			.limit(1),
	)
	return row ?? null
}

export async function listScimGroups(
	db: Database,
	tenantId: string,
	filter: { displayName?: string; externalId?: string },
	page: { offset: number; limit: number },
) {
	const g = db.t.scim_groups
	const where: SQL[] = [eq(g.tenant_id, tenantId)]
	if (filter.displayName !== undefined) where.push(eq(g.display_name, filter.displayName))
	if (filter.externalId !== undefined) where.push(eq(g.external_id, filter.externalId))
	const [total] = await db.orm
		.select({ n: count() })
		.from(g)
		.where(and(...where))
	const rows =
		page.limit === 0
			? []
			: await db.orm
					.select()
					.from(g)
					.where(and(...where))
					.orderBy(asc(g.created_at), asc(g.id))
					.limit(page.limit)
					.offset(page.offset)
	return { total: Number(total?.n ?? 0), groups: rows }
}

/** A new group; null when the tenant has one of that name. */
export function* insertScimGroupSteps(db: Tx, tenantId: string, displayName: string, externalId: string | null) {
	const g = db.t.scim_groups
	const now = new Date()
	const [row] = yield* step(
		db.orm
			.insert(g)
			.values({
				id: newId(),
				tenant_id: tenantId,
				display_name: displayName,
				external_id: externalId,
				created_at: now,
				updated_at: now,
			})
			.onConflictDoNothing()
			.returning(),
	)
	return row ?? null
}

export function* deleteScimGroupSteps(db: Tx, tenantId: string, id: string) {
	const g = db.t.scim_groups
	const [row] = yield* step(
		db.orm
			.delete(g)
			.where(and(eq(g.tenant_id, tenantId), eq(g.id, id)))
			.returning(),
	)
	return row ?? null
}

/** The group's members with their addresses (SCIM's `display`), at most `limit`. */
export function* groupMembersSteps(db: Tx, tenantId: string, groupId: string, limit = 10_000) {
	const { scim_group_members: gm, users: u } = db.t
	return yield* step(
		db.orm
			.select({ userId: gm.user_id, email: u.email })
			.from(gm)
			.innerJoin(u, and(eq(u.id, gm.user_id), eq(u.tenant_id, tenantId)))
			.where(and(eq(gm.tenant_id, tenantId), eq(gm.group_id, groupId)))
			.orderBy(asc(u.email))
			.limit(limit),
	)
}

/** Which of these ids are users of the tenant. */
export function* tenantUserIdsSteps(db: Tx, tenantId: string, ids: string[]) {
	if (!ids.length) return new Set<string>()
	const u = db.t.users
	const rows = yield* step(
		db.orm
			.select({ id: u.id })
			.from(u)
			.where(and(eq(u.tenant_id, tenantId), inArray(u.id, ids))),
	)
	return new Set(rows.map((r) => r.id))
}

/** Adds members; the ids of those that were not members before. */
export function* addGroupMembersSteps(db: Tx, tenantId: string, groupId: string, userIds: string[]) {
	if (!userIds.length) return []
	const gm = db.t.scim_group_members
	const rows = yield* step(
		db.orm
			.insert(gm)
			.values(userIds.map((userId) => ({ group_id: groupId, tenant_id: tenantId, user_id: userId })))
			.onConflictDoNothing()
			.returning({ userId: gm.user_id }),
	)
	return rows.map((r) => r.userId)
}

/** Removes members; the ids of those that were members. */
export function* removeGroupMembersSteps(db: Tx, tenantId: string, groupId: string, userIds: string[]) {
	if (!userIds.length) return []
	const gm = db.t.scim_group_members
	const rows = yield* step(
		db.orm
			.delete(gm)
			.where(and(eq(gm.tenant_id, tenantId), eq(gm.group_id, groupId), inArray(gm.user_id, userIds)))
			.returning({ userId: gm.user_id }),
	)
	return rows.map((r) => r.userId)
}

/** Renames a group; false when the tenant has another group of that name. */
export function* renameScimGroupSteps(db: Tx, tenantId: string, id: string, displayName: string) {
	const g = db.t.scim_groups
	const [other] = yield* step(
		db.orm
			.select({ id: g.id })
			.from(g)
			.where(and(eq(g.tenant_id, tenantId), eq(g.display_name, displayName)))
			.limit(1),
	)
	if (other && other.id !== id) return false
	yield* step(
		db.orm
			.update(g)
			.set({ display_name: displayName, updated_at: new Date() })
			.where(and(eq(g.tenant_id, tenantId), eq(g.id, id)))
			.returning({ id: g.id }),
	)
	return true
}

export function* setGroupExternalIdSteps(db: Tx, tenantId: string, id: string, externalId: string | null) {
	const g = db.t.scim_groups
	yield* step(
		db.orm
			.update(g)
			.set({ external_id: externalId, updated_at: new Date() })
			.where(and(eq(g.tenant_id, tenantId), eq(g.id, id)))
			.returning({ id: g.id }),
	)
}
