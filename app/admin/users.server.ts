import { auditSteps } from '#db/audit.ts'
import { findScopedUser } from '#db/admin.ts'
import { mayInvite, type WithdrawalReason } from '#db/invitations.ts'
import { assignCourseAdminSteps, removeCourseAssignmentsSteps } from '#db/learning.ts'
import type { INVITABLE_ROLES } from '#db/schema/values.ts'
import { findTenantById } from '#db/tenants.ts'
import { retireTokensSteps } from '#db/tokens.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'
import { updateUserSteps, type User } from '#db/users.ts'
import { webhookEventSteps } from '#db/webhooks.ts'
import { withdrawInvitationsSteps } from '../accounts/invitations.server.ts'
import { readCatalogue } from '../content/cms.server.ts'
import { notFound } from '../platform/errors.ts'
import { jobSite, type JobSite } from '../platform/jobs.server.ts'
import { accountJobs } from '../accounts/jobs.server.ts'
import type { AdminScope } from './admin.server.ts'
import { adminAudit, type AuditActor } from '../platform/audit.server.ts'
import type { RequestContext } from '#app/context.ts'

// The people an admin lists (/admin/users) and what an admin does to one of them (/admin/users/<id>):
// each change, its audit rows and what it takes away (sessions, invitations, course assignments) in
// one transaction.

export { COUNT_CAP, findScopedUser, listUsers } from '#db/admin.ts'
export { isErasedEmail } from '#db/data-rights.ts'
export { assignedCourseSlugs } from '#db/learning.ts'

/**
 * The list page's resend of a user's verification mail, from the account's own host (`site`): the
 * audit row and the mail's job together (decision 0033).
 */
export function resendVerification(scope: AdminScope, target: Pick<User, 'id' | 'tenant_id'>, site: JobSite) {
	return inTransaction(scope.ctx.db, function* (tx) {
		yield* accountJobs.enqueueSteps(tx, 'mail.verification', { ...site, userId: target.id })
		yield* auditSteps(
			tx,
			adminAudit(scope, 'user.verification_resent', { kind: 'user', id: target.id, tenantId: target.tenant_id }),
		)
	})
}

type Target = Pick<User, 'id' | 'role' | 'tenant_id'>

/**
 * Who changes a person: an admin's scope, or a SCIM token acting for the tenant admin who made it
 * (its `via` names the token in the audit rows): the same changes either way (decision 0070).
 */
export type Acting = AuditActor & { ctx: Pick<RequestContext, 'db'> }
type InvitableRole = (typeof INVITABLE_ROLES)[number]

/** A lower role takes away what the person could do, a higher one gives more: both asked before they are done. */
export const RANK = { student: 0, course_admin: 1, tenant_admin: 2, super_admin: 3 } as const

/** The target user, in this admin's scope: another tenant's user (or a malformed id) is 404. */
export async function requireTarget(scope: AdminScope, id: string) {
	const target = await findScopedUser(scope.ctx.db, scope.tenant?.id ?? null, id)
	if (!target) throw notFound()
	// A tenant_admin manages the tenant's people, not platform accounts.
	if (target.role === 'super_admin' && !scope.isSuper) throw notFound()
	return target
}

/**
 * The courses the target could administer: their tenant's, in every state (an admin may prepare a
 * draft with a course admin, as on the course's admins page). On the apex, the super admin acts on
 * a user of some tenant: that tenant's site.
 */
export async function targetCourses(scope: AdminScope, target: { tenant_id: string | null }) {
	const site = scope.tenant
		? scope.ctx.site
		: target.tenant_id
			? (await findTenantById(scope.ctx.db, target.tenant_id))?.slug
			: undefined
	if (!site) return []
	const courses = await readCatalogue(scope.ctx, site)
	return courses.map((c) => ({ value: c.slug, label: c.title }))
}

const subjectOf = (target: Target) => ({ kind: 'user', id: target.id, tenantId: target.tenant_id })

/** Withdraws what the target left pending that they may no longer grant (decision 0032), in the caller's transaction. */
function withdrawSteps(scope: Acting, tx: Tx, target: Target, reason: WithdrawalReason) {
	return withdrawInvitationsSteps(tx, { invitedBy: target.id }, (row) =>
		adminAudit(
			scope,
			'invitation.revoked',
			{ kind: 'invitation', id: row.id, tenantId: row.tenant_id },
			{ email: row.email, role: row.role, courseSlug: row.course_slug, reason },
		),
	)
}

/**
 * The role, its course assignments, the invitations it may no longer send and the audit rows,
 * together or not at all. `courseSlug`: a course the (new) course admin administers from now on.
 */
export function changeRole(scope: Acting, target: Target, role: InvitableRole, courseSlug: string | null) {
	const tenantId = target.tenant_id!
	const subject = subjectOf(target)
	return inTransaction(scope.ctx.db, function* (tx) {
		// Bumped for a new course alone too: the session's claims list the assigned courses.
		yield* updateUserSteps(tx, target.id, role === target.role ? {} : { role }, { bumpTokenVersion: true })
		// Course assignments belong to the course_admin role: they do not wait for a later promotion.
		const unassigned =
			target.role === 'course_admin' && role !== 'course_admin'
				? yield* removeCourseAssignmentsSteps(tx, { tenantId, userId: target.id })
				: []
		// Invitations it sent while it could are withdrawn with the right to send them: any step down
		// of someone who may invite (a course admin's learner invitations too, decision 0040).
		if (mayInvite(target.role) && RANK[role] < RANK[target.role])
			yield* withdrawSteps(scope, tx, target, 'inviter_demoted')
		if (role !== target.role)
			yield* auditSteps(
				tx,
				adminAudit(scope, 'user.role_changed', subject, {
					from: target.role,
					to: role,
					...(unassigned.length ? { unassigned } : {}),
				}),
			)
		if (courseSlug) {
			yield* assignCourseAdminSteps(tx, { tenantId, userId: target.id }, courseSlug, scope.session.user.id)
			// The same row as an assignment on the course's admins page.
			yield* auditSteps(tx, adminAudit(scope, 'course.admin_assigned', subject, { courseSlug }))
		}
	})
}

/** The account, the invitations it left pending and the audit rows, together. */
export function deactivateUser(scope: Acting, target: Target) {
	return inTransaction(scope.ctx.db, function* (tx) {
		const user = yield* updateUserSteps(tx, target.id, { deactivated_at: new Date() }, { bumpTokenVersion: true })
		if (user?.tenant_id)
			yield* webhookEventSteps(tx, user.tenant_id, 'user.deactivated', {
				user: { id: user.id, role: user.role },
				deactivatedAt: user.deactivated_at?.toISOString() ?? null,
			})
		yield* withdrawSteps(scope, tx, target, 'inviter_deactivated')
		yield* auditSteps(tx, adminAudit(scope, 'user.deactivated', subjectOf(target)))
	})
}

/** What deactivation withdrew stays withdrawn: an admin sends new invitations if they are wanted. */
export function reactivateUser(scope: Acting, target: Target) {
	return inTransaction(scope.ctx.db, function* (tx) {
		yield* updateUserSteps(tx, target.id, { deactivated_at: null })
		yield* auditSteps(tx, adminAudit(scope, 'user.reactivated', subjectOf(target)))
	})
}

/** Every session and every emailed link of the user ends, with the audit row. */
export function signOutEverywhere(scope: AdminScope, target: Target) {
	return inTransaction(scope.ctx.db, function* (tx) {
		yield* retireTokensSteps(tx, target.id)
		yield* updateUserSteps(tx, target.id, {}, { bumpTokenVersion: true })
		yield* auditSteps(tx, adminAudit(scope, 'user.signed_out', subjectOf(target)))
	})
}

/** The audit row and the mail's job together (decision 0033): the link is issued when it is sent. */
export function sendAccountMail(scope: AdminScope, target: Target, mail: 'verification' | 'passwordReset') {
	const subject = subjectOf(target)
	const job = { ...jobSite(scope.ctx), userId: target.id }
	return inTransaction(scope.ctx.db, function* (tx) {
		if (mail === 'verification') {
			yield* accountJobs.enqueueSteps(tx, 'mail.verification', job)
			yield* auditSteps(tx, adminAudit(scope, 'user.verification_resent', subject))
		} else {
			yield* accountJobs.enqueueSteps(tx, 'mail.passwordReset', job)
			yield* auditSteps(tx, adminAudit(scope, 'user.password_reset_sent', subject))
		}
	})
}
