import { and, desc, eq } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { runSteps, step, type Tx } from './transaction.ts'

export interface AuditInput {
	actorUserId: string | null
	action: string
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
