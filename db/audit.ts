import { and, desc, eq } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { runSteps, step, type Tx } from './transaction.ts'

/**
 * Every action the app writes to audit_log.action, exactly as stored (the spec names
 * auth.impersonate.start and .stop; the rest are decisions 0007, 0023, 0025, 0026, 0028, 0031 and 0037). tsc
 * refuses a write of any other and an action without its label in the audit viewer
 * (`adminCourses.audit.actions`, decision 0024); a stored row of an unknown action (an older
 * version's) is shown by its code.
 */
export type AuditAction =
	| 'auth.impersonate.start'
	| 'auth.impersonate.stop'
	| 'auth.tenant_override'
	| 'author.invited'
	| 'account.password.changed'
	| 'account.name.changed'
	| 'account.verification.resent'
	| 'certificate.revoked'
	| 'certificate.reissued'
	| 'course.admin_assigned'
	| 'course.admin_revoked'
	| 'course.settings_changed'
	| 'course.announcement_sent'
	| 'enrollment.created'
	| 'enrollment.reactivated'
	| 'enrollment.completed'
	| 'enrollment.admin_enrolled'
	| 'enrollment.admin_reactivated'
	| 'enrollment.invitation_enrolled'
	| 'enrollment.cancelled'
	| 'enrollment.reopened'
	| 'invitation.sent'
	| 'invitation.resent'
	| 'invitation.refreshed'
	| 'invitation.revoked'
	| 'learner.attempts_granted'
	| 'learner.assignment_reopened'
	| 'learner.due_extended'
	| 'submission.graded'
	| 'submission.returned'
	| 'tenant.created'
	| 'tenant.suspended'
	| 'tenant.activated'
	| 'tenant.archived'
	| 'tenant.domain_live'
	| 'user.role_changed'
	| 'user.deactivated'
	| 'user.reactivated'
	| 'user.signed_out'
	| 'user.verification_resent'
	| 'user.password_reset_sent'
	| 'user.erased'
	| 'user.data_exported'

export interface AuditInput {
	actorUserId: string | null
	action: AuditAction
	targetKind: string
	targetId: string | null
	tenantId: string | null
	metadata?: Record<string, unknown>
}

/** The audit row of a write, as a step of it (in the write's transaction where it has one). */
export function* auditSteps(db: Tx, input: AuditInput) {
	yield* step(
		db.orm
			.insert(db.t.audit_log)
			.values({
				id: newId(),
				actor_user_id: input.actorUserId,
				action: input.action,
				target_kind: input.targetKind,
				target_id: input.targetId,
				tenant_id: input.tenantId,
				metadata: input.metadata ?? {},
				created_at: new Date(),
			})
			.returning({ id: db.t.audit_log.id }),
	)
}

export function writeAudit(db: Database, input: AuditInput) {
	return runSteps(db, (tx) => auditSteps(tx, input))
}

/** Audit rows of one tenant about one target, newest first. */
export async function auditRowsFor(db: Database, tenantId: string, targetId: string) {
	const a = db.t.audit_log
	return db.orm
		.select()
		.from(a)
		.where(and(eq(a.tenant_id, tenantId), eq(a.target_id, targetId)))
		.orderBy(desc(a.created_at))
}

/** The newest audit row of this tenant with this action about this target, or null. */
export async function findAuditRow(db: Database, tenantId: string, action: AuditAction, targetId: string) {
	const a = db.t.audit_log
	const [row] = await db.orm
		.select()
		.from(a)
		.where(and(eq(a.tenant_id, tenantId), eq(a.action, action), eq(a.target_id, targetId)))
		.orderBy(desc(a.created_at))
		.limit(1)
	return row ?? null
}
