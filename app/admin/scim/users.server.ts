import { scimPatch, ScimError, type ScimPatchOperation } from 'scim-patch'
import { auditSteps } from '#db/audit.ts'
import { findScimUserSteps, listScimUsers, setExternalIdSteps, type ScimUserRow } from '#db/scim.ts'
import { inTransaction, rollback, runSteps } from '#db/transaction.ts'
import { createUserSteps, findUserByEmailSteps, updateUserSteps } from '#db/users.ts'
import { adminAudit } from '../../platform/audit.server.ts'
import { deactivateUser, reactivateUser } from '../users.server.ts'
import {
	badRequest,
	displayNameOf,
	ENTERPRISE_SCHEMA,
	listResponse,
	MAX_OPERATIONS,
	notFound,
	PATCH_SCHEMA,
	readFilter,
	readPaging,
	requireSchemas,
	ScimProblem,
	USER_SCHEMA,
	userInput,
	zodDetail,
	type UserInput,
} from './protocol.ts'
import type { ScimActor } from './tokens.server.ts'

// SCIM Users (RFC 7644 3.3–3.6) over the tenant's people (decision 0070): userName is the address,
// `active: false` and DELETE deactivate through the admin's own deactivation (sessions end at once).

const taken = (what: string) => new ScimProblem(409, `${what} is already taken`, 'uniqueness')

function userResource(actor: ScimActor, row: ScimUserRow) {
	return {
		schemas: [USER_SCHEMA],
		id: row.id,
		...(row.external_id ? { externalId: row.external_id } : {}),
		userName: row.email,
		displayName: row.name,
		name: { formatted: row.name },
		emails: [{ value: row.email, type: 'work', primary: true }],
		active: row.deactivated_at === null,
		meta: {
			resourceType: 'User',
			created: row.created_at.toISOString(),
			lastModified: row.updated_at.toISOString(),
			location: `${actor.ctx.origin}/scim/v2/Users/${row.id}`,
		},
	}
}

function parseUser(body: Record<string, unknown>) {
	const parsed = userInput.safeParse(body)
	if (!parsed.success) throw badRequest(zodDetail(parsed.error))
	return parsed.data
}

async function requireUser(actor: ScimActor, id: string) {
	const row = await runSteps(actor.ctx.db, (tx) => findScimUserSteps(tx, actor.tenant.id, id))
	if (!row) throw notFound()
	return row
}

export async function getUser(actor: ScimActor, id: string) {
	return userResource(actor, await requireUser(actor, id))
}

export async function listUsers(actor: ScimActor, params: URLSearchParams) {
	const filter = readFilter(params.get('filter'), ['userName', 'externalId'] as const)
	const paging = readPaging(params)
	const { total, users } = await listScimUsers(
		actor.ctx.db,
		actor.tenant.id,
		filter ? { [filter.attribute === 'userName' ? 'email' : 'externalId']: filter.value } : {},
		{ offset: paging.offset, limit: paging.count },
	)
	return listResponse(
		users.map((u) => userResource(actor, u)),
		total,
		paging.startIndex,
	)
}

/** POST /Users: a student of the tenant, address confirmed by the identity provider; 409 when the userName exists. */
export async function createUser(actor: ScimActor, body: Record<string, unknown>) {
	requireSchemas(body, USER_SCHEMA, [USER_SCHEMA, ENTERPRISE_SCHEMA])
	const input = parseUser(body)
	const tenantId = actor.tenant.id
	const now = new Date()
	const created = await inTransaction(actor.ctx.db, function* (tx) {
		const user = yield* createUserSteps(tx, {
			tenant_id: tenantId,
			email: input.userName,
			role: 'student',
			name: displayNameOf(input),
			email_verified_at: now,
		})
		if (!user) return rollback(taken('userName'))
		if (input.externalId && !(yield* setExternalIdSteps(tx, tenantId, user.id, input.externalId)))
			return rollback(taken('externalId'))
		if (input.active === false) yield* updateUserSteps(tx, user.id, { deactivated_at: now })
		yield* auditSteps(
			tx,
			adminAudit(
				actor,
				'scim.user_created',
				{ kind: 'user', id: user.id, tenantId },
				{ active: input.active !== false },
			),
		)
		return (yield* findScimUserSteps(tx, tenantId, user.id))!
	})
	if (created instanceof ScimProblem) throw created
	return userResource(actor, created)
}

/**
 * A user's new state (PUT's body, or PATCH's result) stored: the profile and externalId in one
 * transaction (409 and nothing written when the address or externalId is another's), then the
 * change of `active` through the admin's own deactivation or reactivation.
 */
async function applyUser(actor: ScimActor, current: ScimUserRow, input: UserInput) {
	const tenantId = actor.tenant.id
	const email = input.userName.trim().toLowerCase()
	const name = displayNameOf(input) || current.name
	const externalId = input.externalId ?? current.external_id
	const changed = [
		...(email !== current.email ? ['userName'] : []),
		...(name !== current.name ? ['name'] : []),
		...(externalId !== current.external_id ? ['externalId'] : []),
	]
	if (changed.length) {
		const problem = await inTransaction(actor.ctx.db, function* (tx) {
			if (email !== current.email && (yield* findUserByEmailSteps(tx, tenantId, email)))
				return rollback(taken('userName'))
			if (externalId !== current.external_id && !(yield* setExternalIdSteps(tx, tenantId, current.id, externalId)))
				return rollback(taken('externalId'))
			yield* updateUserSteps(tx, current.id, { email, name })
			yield* auditSteps(
				tx,
				adminAudit(actor, 'scim.user_updated', { kind: 'user', id: current.id, tenantId }, { changed }),
			)
			return null
		})
		if (problem) throw problem
	}
	const active = input.active ?? current.deactivated_at === null
	if (!active && current.deactivated_at === null) await deactivateUser(actor, current)
	if (active && current.deactivated_at !== null) await reactivateUser(actor, current)
	return userResource(actor, await requireUser(actor, current.id))
}

/** PUT /Users/<id>. */
export async function replaceUser(actor: ScimActor, id: string, body: Record<string, unknown>) {
	requireSchemas(body, USER_SCHEMA, [USER_SCHEMA, ENTERPRISE_SCHEMA])
	const input = parseUser(body)
	return applyUser(actor, await requireUser(actor, id), input)
}

/** The operations of a PatchOp body (RFC 7644 3.5.2), checked before anything is read or written. */
export function readOperations(body: Record<string, unknown>) {
	requireSchemas(body, PATCH_SCHEMA, [PATCH_SCHEMA])
	const operations = body.Operations
	if (!Array.isArray(operations) || operations.length === 0)
		throw badRequest('Operations must be a non-empty list', 'invalidSyntax')
	if (operations.length > MAX_OPERATIONS) throw badRequest(`At most ${MAX_OPERATIONS} operations`, 'tooMany')
	for (const op of operations)
		if (!op || typeof op !== 'object' || typeof op.op !== 'string' || !/^(add|remove|replace)$/i.test(op.op))
			throw badRequest('Each operation needs an op of add, remove or replace', 'invalidSyntax')
	return operations as ScimPatchOperation[]
}

/** Applies operations with scim-patch to a copy of the resource; its errors are 400. */
export function patched<T extends { meta: object; schemas: string[] }>(resource: T, operations: ScimPatchOperation[]) {
	try {
		// scim-patch reads meta's dates; the copy is what it changes.
		return scimPatch(structuredClone(resource) as never, operations, { mutateDocument: true }) as T
	} catch (error) {
		if (error instanceof ScimError) throw badRequest(error.message.slice(0, 300), 'invalidPath')
		throw badRequest('The operations do not apply to this resource', 'invalidPath')
	}
}

/** PATCH /Users/<id>: Entra ID's `{"op":"Replace","path":"active","value":"False"}` and Okta's `{"op":"replace","value":{"active":false}}` alike. */
export async function patchUser(actor: ScimActor, id: string, body: Record<string, unknown>) {
	const operations = readOperations(body)
	const current = await requireUser(actor, id)
	const result = patched(userResource(actor, current), operations)
	return applyUser(actor, current, parseUser(result as unknown as Record<string, unknown>))
}

/** DELETE /Users/<id>: deactivation (the account and its records stay; its sessions end at once). */
export async function deleteUser(actor: ScimActor, id: string) {
	const current = await requireUser(actor, id)
	if (current.deactivated_at === null) await deactivateUser(actor, current)
}
