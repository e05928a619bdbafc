import { apiUser as findApiUser, apiUsers } from '#db/api-lists.ts'
import { auditSteps } from '#db/audit.ts'
import { rollback, inTransaction } from '#db/transaction.ts'
import { createUserSteps, findUserByEmail, type User } from '#db/users.ts'
import { offerInvitationSteps } from '../accounts/invitations.server.ts'
import { readCatalogue } from '../content/cms.server.ts'
import { isPublished } from '../content/content.ts'
import { changeRole, deactivateUser, reactivateUser, requireTarget } from '../admin/users.server.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { jobSite } from '../platform/jobs.server.ts'
import { emailField, nameField } from '../platform/validation.ts'
import { createUserBody, emptyBody, roleBody, userListQuery, type apiUser } from '../platform/api-v1-schemas.ts'
import { z } from 'zod'
import { DEFAULT_LIMIT, decodeCursor, iso, pageOf, queryOf, type ApiCall, type ApiHandler } from './api.server.ts'
import { ApiProblem, parse } from './problems.server.ts'

/*
 * /api/v1/users (issue 49, decision 0071): the tenant's people, through the code paths of the admin
 * pages (changeRole, deactivateUser, reactivateUser, invitations), each with its audit row naming the
 * key. A course-scoped key reads its course's enrollments, progress and certificates, not people.
 */

type UserRow = Pick<
	User,
	'id' | 'email' | 'name' | 'role' | 'locale' | 'email_verified_at' | 'deactivated_at' | 'created_at' | 'updated_at'
>

function userView(u: UserRow): z.infer<typeof apiUser> {
	return {
		id: u.id,
		email: u.email,
		name: u.name,
		role: u.role,
		locale: u.locale,
		status: u.deactivated_at ? 'deactivated' : u.email_verified_at ? 'active' : 'unverified',
		emailVerifiedAt: iso(u.email_verified_at),
		deactivatedAt: iso(u.deactivated_at),
		createdAt: u.created_at.toISOString(),
		updatedAt: u.updated_at.toISOString(),
	}
}

/** People are the whole site's: a key limited to one course may not list, read or change them. */
function requireSiteWide(call: ApiCall) {
	if (call.caller.key.course_slug)
		throw new ApiProblem(
			403,
			'FORBIDDEN',
			'This API key is limited to one course: it reads that course’s enrollments, progress and certificates.',
		)
}

export const listUsers: ApiHandler = async (call) => {
	requireSiteWide(call)
	const query = parse(userListQuery, queryOf(call.url), 'query')
	const limit = query.limit ?? DEFAULT_LIMIT
	const rows = await apiUsers(
		call.ctx.db,
		{ tenantId: call.caller.tenant.id, after: decodeCursor(query.cursor), limit },
		{
			email: query.email,
			role: query.role,
			updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
		},
	)
	return { status: 200, body: pageOf(rows, limit, userView) }
}

async function target(call: ApiCall) {
	const user = await findApiUser(call.ctx.db, call.caller.tenant.id, call.params.userId ?? '')
	if (!user) throw new ApiProblem(404, 'NOT_FOUND', 'No such user on this site.')
	return user
}

export const readUser: ApiHandler = async (call) => {
	requireSiteWide(call)
	return { status: 200, body: userView(await target(call)) }
}

/**
 * A new account of this site (unverified, no password): with `sendInvitation`, also the invitation
 * whose link lets the person choose a password (the invite page's offer); without, the account waits
 * for a sign-in link or single sign-on. The account, the invitation, its mail job and the audit rows
 * are one transaction; an address that already has an account here is a 409.
 */
export const createUser: ApiHandler = async (call) => {
	requireSiteWide(call)
	const input = parse(createUserBody, call.body, 'body')
	const fields = parse(z.object({ email: emailField, name: nameField.optional() }), input, 'body')
	const { email } = fields
	const name = fields.name ?? ''
	const role = input.role ?? 'student'
	const { scope, tenant } = call.caller
	const conflict = () => new ApiProblem(409, 'CONFLICT', 'An account with this address already exists on this site.')
	if (await findUserByEmail(call.ctx.db, tenant.id, email)) throw conflict()
	const user = await inTransaction(call.ctx.db, function* (tx) {
		const row = yield* createUserSteps(tx, {
			tenant_id: tenant.id,
			email,
			name,
			role,
			locale: input.locale ?? call.ctx.locale,
		})
		if (!row) return rollback(null)
		yield* auditSteps(
			tx,
			adminAudit(scope, 'user.created', { kind: 'user', id: row.id, tenantId: tenant.id }, { role }),
		)
		if (input.sendInvitation) {
			const offer = yield* offerInvitationSteps(tx, jobSite(scope.ctx), {
				tenantId: tenant.id,
				email,
				role,
				name: name || null,
				locale: input.locale ?? null,
				invitedBy: scope.session.user.id,
			})
			yield* auditSteps(
				tx,
				adminAudit(
					scope,
					'invitation.sent',
					{ kind: 'invitation', id: offer.invitation.id, tenantId: tenant.id },
					{ email, role },
				),
			)
		}
		return row
	})
	if (!user) throw conflict()
	return { status: 201, body: userView(user) }
}

/** The role, as the user's admin page changes it; a course admin names a published course of the site. */
export const changeUserRole: ApiHandler = async (call) => {
	requireSiteWide(call)
	const input = parse(roleBody, call.body, 'body')
	const { scope } = call.caller
	const found = await requireTarget(scope, call.params.userId ?? '')
	if (found.id === scope.session.user.id)
		throw new ApiProblem(403, 'FORBIDDEN', 'A key does not change the role of the admin who created it.')
	if (input.role === 'course_admin') {
		if (!input.course)
			throw new ApiProblem(400, 'VALIDATION_FAILED', 'A course admin needs a course.', [
				{ path: ['course'], message: 'Required for course_admin.' },
			])
		const courses = (await readCatalogue(call.ctx)).filter(isPublished)
		if (!courses.some((c) => c.slug === input.course))
			throw new ApiProblem(404, 'NOT_FOUND', 'No such published course.')
	}
	await changeRole(scope, found, input.role, input.role === 'course_admin' ? input.course! : null)
	return { status: 200, body: userView(await target(call)) }
}

function statusChange(deactivate: boolean): ApiHandler {
	return async (call) => {
		requireSiteWide(call)
		parse(emptyBody, call.body, 'body')
		const { scope } = call.caller
		const found = await requireTarget(scope, call.params.userId ?? '')
		if (found.id === scope.session.user.id)
			throw new ApiProblem(403, 'FORBIDDEN', 'A key does not deactivate the admin who created it.')
		// Already so: nothing to write, the same answer (a retry without Idempotency-Key is harmless).
		if (deactivate && !found.deactivated_at) await deactivateUser(scope, found)
		if (!deactivate && found.deactivated_at) await reactivateUser(scope, found)
		return { status: 200, body: userView(await target(call)) }
	}
}

export const deactivate = statusChange(true)
export const reactivate = statusChange(false)
