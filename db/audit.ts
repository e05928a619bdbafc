import { and, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { step, type Tx } from './transaction.ts'

/**
 * Every action the app writes to audit_log.action, exactly as stored (the spec names
 * auth.impersonate.start and .stop; the rest are decisions 0007, 0023, 0025, 0026, 0028, 0031, 0037 and 0069). tsc
 * refuses a write of any other and an action without its label in the audit viewer
 * (`adminCourses.audit.actions`, decision 0024); a stored row of an unknown action (an older
 * version's) is shown by its code.
 */
export type AuditAction =
	| 'auth.impersonate.start'
	| 'auth.impersonate.stop'
	| 'auth.tenant_override'
	| 'api_key.created'
	| 'api_key.revoked'
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
	| 'sso.provider_added'
	| 'sso.provider_changed'
	| 'sso.provider_enabled'
	| 'sso.provider_disabled'
	| 'sso.provider_removed'
	| 'submission.graded'
	| 'submission.returned'
	| 'tenant.created'
	| 'tenant.suspended'
	| 'tenant.activated'
	| 'tenant.archived'
	| 'tenant.domain_live'
	| 'tenant.settings_changed'
	| 'user.created'
	| 'user.role_changed'
	| 'user.deactivated'
	| 'user.reactivated'
	| 'user.signed_out'
	| 'user.verification_resent'
	| 'user.password_reset_sent'
	| 'user.erased'
	| 'user.data_exported'
	| 'scim.token_created'
	| 'scim.token_revoked'
	| 'scim.mapping_created'
	| 'scim.mapping_deleted'
	| 'scim.user_created'
	| 'scim.user_updated'
	| 'scim.group_created'
	| 'scim.group_updated'
	| 'scim.group_deleted'
	| 'webhook.endpoint_created'
	| 'webhook.secret_rotated'
	| 'webhook.endpoint_disabled'
	| 'webhook.endpoint_enabled'
	| 'webhook.delivery_replayed'

export interface AuditInput {
	actorUserId: string | null
	action: AuditAction
	targetKind: string
	targetId: string | null
	tenantId: string | null
	metadata?: Record<string, unknown>
}

/** The audit rows of a write, as one step of it (in the write's transaction where it has one). */
export function* auditManySteps(db: Tx, inputs: AuditInput[]) {
	if (inputs.length === 0) return
	const createdAt = new Date()
	yield* step(
		db.orm
			.insert(db.t.audit_log)
			.values(
				inputs.map((input) => ({
					id: newId(),
					actor_user_id: input.actorUserId,
					action: input.action,
					target_kind: input.targetKind,
					target_id: input.targetId,
					tenant_id: input.tenantId,
					metadata: input.metadata ?? {},
					created_at: createdAt,
				})),
			)
			.returning({ id: db.t.audit_log.id }),
	)
}

/** The audit row of a write, as a step of it (in the write's transaction where it has one). */
export function* auditSteps(db: Tx, input: AuditInput) {
	yield* auditManySteps(db, [input])
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

export interface AuditFilters {
	tenantId: string | null
	action?: string
	/** A user id, or an email: the audit rows of every account with that address (in this tenant). */
	actor?: string
	targetKind?: string
	before?: Date
	since?: Date
	limit?: number
}

export async function listAudit(db: Database, filters: AuditFilters) {
	const a = db.t.audit_log
	const where: SQL[] = []
	if (filters.tenantId) where.push(eq(a.tenant_id, filters.tenantId))
	// Action names hold underscores (user.role_changed): the prefix is matched literally, wildcards escaped.
	if (filters.action) where.push(sql`${a.action} LIKE ${`${filters.action.replace(/[\\%_]/g, '\\$&')}%`} ESCAPE '\\'`)
	if (filters.actor?.includes('@')) {
		const u = db.t.users
		const accounts = db.orm
			.select({ id: u.id })
			.from(u)
			.where(
				and(
					eq(u.email, filters.actor.toLowerCase()),
					filters.tenantId ? or(eq(u.tenant_id, filters.tenantId), isNull(u.tenant_id)) : undefined,
				),
			)
		where.push(inArray(a.actor_user_id, accounts))
	} else if (filters.actor) where.push(eq(a.actor_user_id, filters.actor))
	if (filters.targetKind) where.push(eq(a.target_kind, filters.targetKind))
	if (filters.since) where.push(gte(a.created_at, filters.since))
	if (filters.before) where.push(lt(a.created_at, filters.before))
	return db.orm
		.select()
		.from(a)
		.where(where.length ? and(...where) : undefined)
		.orderBy(desc(a.created_at), desc(a.id))
		.limit(filters.limit ?? 100)
}

/**
 * The people and tenants audit rows name by id, for showing who did what to whom: users of this
 * tenant and platform accounts (every user on the apex), and tenants.
 */
export async function auditNames(db: Database, tenantId: string | null, userIds: string[], tenantIds: string[]) {
	const { users: u, tenants: t } = db.t
	const [people, tenants] = await Promise.all([
		userIds.length
			? db.orm
					.select({ id: u.id, name: u.name, email: u.email })
					.from(u)
					.where(and(inArray(u.id, userIds), tenantId ? or(eq(u.tenant_id, tenantId), isNull(u.tenant_id)) : undefined))
			: [],
		tenantIds.length ? db.orm.select({ id: t.id, name: t.name }).from(t).where(inArray(t.id, tenantIds)) : [],
	])
	return { people: new Map(people.map((p) => [p.id, p])), tenants: new Map(tenants.map((x) => [x.id, x.name])) }
}

/**
 * Whose enrollment in which course each enrollment id is, for audit rows about enrollments: within
 * this tenant (every tenant on the apex); other ids are absent.
 */
export async function enrollmentSubjects(db: Database, tenantId: string | null, ids: string[]) {
	if (ids.length === 0) return new Map<string, { userId: string; courseSlug: string }>()
	const e = db.t.enrollments
	const rows = await db.orm
		.select({ id: e.id, userId: e.user_id, courseSlug: e.course_slug })
		.from(e)
		.where(and(inArray(e.id, ids), tenantId ? eq(e.tenant_id, tenantId) : undefined))
	return new Map(rows.map((r) => [r.id, { userId: r.userId, courseSlug: r.courseSlug }]))
}
