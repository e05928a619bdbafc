import type { ScimPatchOperation } from 'scim-patch'
import { auditSteps } from '#db/audit.ts'
import { cancelEnrollmentSteps, enrollSteps } from '#db/learning.ts'
import { mappedRolesOfUserSteps, mappingOfGroupSteps, type ScimGroupMapping } from '#db/scim.ts'
import {
	addGroupMembersSteps,
	deleteScimGroupSteps,
	findScimGroupSteps,
	groupMembersSteps,
	insertScimGroupSteps,
	listScimGroups,
	removeGroupMembersSteps,
	renameScimGroupSteps,
	setGroupExternalIdSteps,
	tenantUserIdsSteps,
	type ScimGroup,
} from '#db/scim-groups.ts'
import { inTransaction, rollback, runSteps, type Tx } from '#db/transaction.ts'
import { findUserByIdSteps } from '#db/users.ts'
import { adminAudit } from '../../platform/audit.server.ts'
import { tags } from '../../learning/learning.server.ts'
import { changeRole, RANK } from '../users.server.ts'
import {
	badRequest,
	GROUP_SCHEMA,
	groupInput,
	listResponse,
	MAX_MEMBERS,
	notFound,
	readFilter,
	readPaging,
	requireSchemas,
	ScimProblem,
	zodDetail,
} from './protocol.ts'
import type { ScimActor } from './tokens.server.ts'
import { patched, readOperations } from './users.server.ts'

// SCIM Groups (decision 0070): the identity provider's groups and their members; a group whose
// name the tenant admin mapped gives its members an enrollment in a course, or a role.

type Member = { userId: string; email: string }

function groupResource(actor: ScimActor, group: ScimGroup, members: Member[]) {
	return {
		schemas: [GROUP_SCHEMA],
		id: group.id,
		displayName: group.display_name,
		...(group.external_id ? { externalId: group.external_id } : {}),
		members: members.map((m) => ({
			value: m.userId,
			display: m.email,
			$ref: `${actor.ctx.origin}/scim/v2/Users/${m.userId}`,
		})),
		meta: {
			resourceType: 'Group',
			created: group.created_at.toISOString(),
			lastModified: group.updated_at.toISOString(),
			location: `${actor.ctx.origin}/scim/v2/Groups/${group.id}`,
		},
	}
}

async function requireGroup(actor: ScimActor, id: string) {
	const found = await runSteps(actor.ctx.db, function* (tx) {
		const group = yield* findScimGroupSteps(tx, actor.tenant.id, id)
		return group ? { group, members: yield* groupMembersSteps(tx, actor.tenant.id, group.id) } : null
	})
	if (!found) throw notFound()
	return found
}

export async function getGroup(actor: ScimActor, id: string, params: URLSearchParams) {
	const { group, members } = await requireGroup(actor, id)
	// Okta and Entra ID ask for `excludedAttributes=members` on large groups.
	const excluded = /(^|,)\s*members\s*(,|$)/i.test(params.get('excludedAttributes') ?? '')
	return groupResource(actor, group, excluded ? [] : members)
}

export async function listGroups(actor: ScimActor, params: URLSearchParams) {
	const filter = readFilter(params.get('filter'), ['displayName', 'externalId'] as const)
	const paging = readPaging(params)
	const { total, groups } = await listScimGroups(
		actor.ctx.db,
		actor.tenant.id,
		filter ? { [filter.attribute]: filter.value } : {},
		{ offset: paging.offset, limit: paging.count },
	)
	// Members are not listed here (clients read a group by its id): a list stays small.
	return listResponse(
		groups.map((g) => groupResource(actor, g, [])),
		total,
		paging.startIndex,
	)
}

function parseGroup(body: Record<string, unknown>) {
	const parsed = groupInput.safeParse(body)
	if (!parsed.success) {
		const tooMany = parsed.error.issues.some((i) => i.code === 'too_big' && i.path[0] === 'members')
		throw badRequest(zodDetail(parsed.error), tooMany ? 'tooMany' : 'invalidValue')
	}
	return parsed.data
}

/** The member ids, each a user of the tenant (else 400 and nothing written). */
function* checkMembersSteps(tx: Tx, tenantId: string, ids: string[]) {
	const unique = [...new Set(ids)]
	if (unique.length > MAX_MEMBERS) return rollback(badRequest(`At most ${MAX_MEMBERS} members at once`, 'tooMany'))
	const known = yield* tenantUserIdsSteps(tx, tenantId, unique)
	if (unique.some((id) => !known.has(id))) return rollback(badRequest('A member is not a user of this tenant'))
	return unique
}

/** Enrollments for the mapping's course, in the membership's transaction, each with its audit row. */
function* enrollmentEffectsSteps(
	tx: Tx,
	actor: ScimActor,
	mapping: ScimGroupMapping,
	added: string[],
	removed: string[],
) {
	const tenantId = actor.tenant.id
	const courseSlug = mapping.course_slug!
	for (const userId of added) {
		const result = yield* enrollSteps(tx, { tenantId, userId }, courseSlug)
		if (result.change)
			yield* auditSteps(
				tx,
				adminAudit(
					actor,
					result.change === 'created' ? 'enrollment.admin_enrolled' : 'enrollment.admin_reactivated',
					{ kind: 'enrollment', id: result.enrollment.id, tenantId },
					{ courseSlug },
				),
			)
	}
	for (const userId of removed) {
		const cancelled = yield* cancelEnrollmentSteps(tx, { tenantId, userId }, courseSlug)
		if (cancelled)
			yield* auditSteps(
				tx,
				adminAudit(
					actor,
					'enrollment.cancelled',
					{ kind: 'enrollment', id: cancelled.enrollment.id, tenantId },
					{ courseSlug, from: cancelled.from },
				),
			)
	}
}

interface Change {
	group: ScimGroup
	mapping: ScimGroupMapping | null
	added: string[]
	removed: string[]
}

/**
 * The role each affected member's mapped groups now give (their strongest; student when none),
 * through the admin's own role change. Only people whose membership changed in a role group, and
 * never a super_admin (a tenant's users cannot be one).
 */
async function applyRoles(actor: ScimActor, change: Change) {
	if (!change.mapping?.role) return
	for (const userId of [...change.added, ...change.removed]) {
		const tenantId = actor.tenant.id
		const state = await runSteps(actor.ctx.db, function* (tx) {
			const user = yield* findUserByIdSteps(tx, userId)
			return user ? { user, roles: yield* mappedRolesOfUserSteps(tx, tenantId, userId) } : null
		})
		if (!state || state.user.tenant_id !== tenantId || state.user.role === 'super_admin') continue
		const strongest = state.roles.reduce<(typeof state.roles)[number] | null>(
			(best, r) => (!best || RANK[r.role] > RANK[best.role] ? r : best),
			null,
		)
		const role = strongest?.role ?? 'student'
		const joined = change.added.includes(userId)
		// Joining gives the group's role (and its course) unless a stronger one is held.
		if (joined && RANK[role] >= RANK[state.user.role]) {
			const course = role === 'course_admin' ? (change.mapping.course_slug ?? strongest?.courseSlug ?? null) : null
			await changeRole(actor, state.user, role, course)
		} else if (!joined && state.user.role === change.mapping.role && RANK[role] < RANK[state.user.role])
			// Leaving takes back only the role this group gives: a role given by hand stays.
			await changeRole(actor, state.user, role, null)
	}
}

/** Membership and name changes, written together with the enrollments they give; roles after. */
async function writeGroup(
	actor: ScimActor,
	group: ScimGroup,
	next: { displayName: string; externalId: string | null; add: string[]; remove: string[] },
	action: 'scim.group_created' | 'scim.group_updated',
) {
	const tenantId = actor.tenant.id
	const change = await inTransaction(actor.ctx.db, function* (tx) {
		if (
			next.displayName !== group.display_name &&
			!(yield* renameScimGroupSteps(tx, tenantId, group.id, next.displayName))
		)
			return rollback(new ScimProblem(409, 'displayName is already taken', 'uniqueness'))
		if (next.externalId !== group.external_id) yield* setGroupExternalIdSteps(tx, tenantId, group.id, next.externalId)
		const add = yield* checkMembersSteps(tx, tenantId, next.add)
		const added = yield* addGroupMembersSteps(tx, tenantId, group.id, add)
		const removed = yield* removeGroupMembersSteps(tx, tenantId, group.id, [...new Set(next.remove)])
		const mapping = yield* mappingOfGroupSteps(tx, tenantId, next.displayName)
		if (mapping && !mapping.role) yield* enrollmentEffectsSteps(tx, actor, mapping, added, removed)
		yield* auditSteps(
			tx,
			adminAudit(
				actor,
				action,
				{ kind: 'tenant', id: tenantId, tenantId },
				{ groupId: group.id, group: next.displayName, added: added.length, removed: removed.length },
			),
		)
		return { group, mapping, added, removed } satisfies Change
	})
	if (change instanceof ScimProblem) throw change
	await applyRoles(actor, change)
	if (change.mapping && !change.mapping.role)
		actor.ctx.tags.revalidate([...change.added, ...change.removed].map(tags.progress))
	const { group: stored, members } = await requireGroup(actor, group.id)
	return groupResource(actor, stored, members)
}

/** POST /Groups: 409 when the tenant has a group of that name. */
export async function createGroup(actor: ScimActor, body: Record<string, unknown>) {
	requireSchemas(body, GROUP_SCHEMA, [GROUP_SCHEMA])
	const input = parseGroup(body)
	const tenantId = actor.tenant.id
	// Members are checked before the group is made: a bad member list writes nothing.
	const members = (input.members ?? []).map((m) => m.value)
	const known = await runSteps(actor.ctx.db, (tx) => tenantUserIdsSteps(tx, tenantId, [...new Set(members)]))
	if (members.some((id) => !known.has(id))) throw badRequest('A member is not a user of this tenant')
	const group = await inTransaction(actor.ctx.db, (tx) =>
		insertScimGroupSteps(tx, tenantId, input.displayName, input.externalId ?? null),
	)
	if (!group) throw new ScimProblem(409, 'displayName is already taken', 'uniqueness')
	const next = { displayName: group.display_name, externalId: group.external_id, add: members, remove: [] }
	return writeGroup(actor, group, next, 'scim.group_created')
}

/** PUT /Groups/<id>: the name and the whole member list. */
export async function replaceGroup(actor: ScimActor, id: string, body: Record<string, unknown>) {
	requireSchemas(body, GROUP_SCHEMA, [GROUP_SCHEMA])
	const input = parseGroup(body)
	const { group, members } = await requireGroup(actor, id)
	const wanted = new Set((input.members ?? []).map((m) => m.value))
	const had = new Set(members.map((m) => m.userId))
	return writeGroup(
		actor,
		group,
		{
			displayName: input.displayName,
			externalId: input.externalId ?? group.external_id,
			add: [...wanted].filter((v) => !had.has(v)),
			remove: [...had].filter((v) => !wanted.has(v)),
		},
		'scim.group_updated',
	)
}

/**
 * Entra ID removes members as `{"op":"Remove","path":"members","value":[{"value":"<id>"}]}`:
 * scim-patch would match each listed object whole (our members carry `display` and `$ref` too), so
 * each becomes the filtered removal `members[value eq "<id>"]` that RFC 7644 3.5.2.2 names.
 */
function memberRemovals(op: ScimPatchOperation): ScimPatchOperation[] {
	if (op.op.toLowerCase() !== 'remove' || op.path?.toLowerCase() !== 'members' || !Array.isArray(op.value)) return [op]
	return op.value.map((member: unknown) => {
		const value = (member as { value?: unknown } | null)?.value
		if (typeof value !== 'string' || value.length > 64 || /["\\]/.test(value))
			throw badRequest('Each member to remove needs its value')
		return { op: 'remove' as const, path: `members[value eq "${value}"]` }
	})
}

/** PATCH /Groups/<id>: members added and removed, the name replaced (scim-patch applies the operations). */
export async function patchGroup(actor: ScimActor, id: string, body: Record<string, unknown>) {
	const operations = readOperations(body).flatMap(memberRemovals)
	if (operations.length > MAX_MEMBERS) throw badRequest(`At most ${MAX_MEMBERS} members at once`, 'tooMany')
	const { group, members } = await requireGroup(actor, id)
	const result = patched(groupResource(actor, group, members), operations) as unknown as Record<string, unknown>
	const input = parseGroup({ ...result, members: result.members ?? [] })
	const wanted = new Set((input.members ?? []).map((m) => m.value))
	const had = new Set(members.map((m) => m.userId))
	const add = [...wanted].filter((v) => !had.has(v))
	const remove = [...had].filter((v) => !wanted.has(v))
	if (add.length + remove.length > MAX_MEMBERS) throw badRequest(`At most ${MAX_MEMBERS} members at once`, 'tooMany')
	return writeGroup(
		actor,
		group,
		{ displayName: input.displayName, externalId: input.externalId ?? group.external_id, add, remove },
		'scim.group_updated',
	)
}

/** DELETE /Groups/<id>: its members leave it first (their enrollments and roles follow), then it goes. */
export async function deleteGroup(actor: ScimActor, id: string) {
	const { group, members } = await requireGroup(actor, id)
	const next = {
		displayName: group.display_name,
		externalId: group.external_id,
		add: [],
		remove: members.map((m) => m.userId),
	}
	await writeGroup(actor, group, next, 'scim.group_updated')
	await inTransaction(actor.ctx.db, function* (tx) {
		const deleted = yield* deleteScimGroupSteps(tx, actor.tenant.id, group.id)
		if (deleted)
			yield* auditSteps(
				tx,
				adminAudit(
					actor,
					'scim.group_deleted',
					{ kind: 'tenant', id: actor.tenant.id, tenantId: actor.tenant.id },
					{ groupId: group.id, group: group.display_name },
				),
			)
	})
}
