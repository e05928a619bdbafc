import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Database } from './client.ts'
import { step, type Tx } from './transaction.ts'
import { newId } from './ids.ts'

export type Invitation = Database['t']['invitations']['$inferSelect']

export async function insertInvitation(
	db: Database,
	input: {
		tenantId: string
		email: string
		role: 'student' | 'course_admin' | 'tenant_admin'
		courseSlug?: string | null
		tokenHash: string
		invitedBy: string | null
		expiresAt: Date
	},
) {
	const [row] = await db.orm
		.insert(db.t.invitations)
		.values({
			id: newId(),
			tenant_id: input.tenantId,
			email: input.email.trim().toLowerCase(),
			role: input.role,
			course_slug: input.courseSlug ?? null,
			token_hash: input.tokenHash,
			invited_by: input.invitedBy,
			expires_at: input.expiresAt,
		})
		.returning()
	return row
}

/** Scoped by tenant: an invitation of another tenant is not found here. */
export async function findInvitation(db: Database, tenantId: string, tokenHash: string) {
	const i = db.t.invitations
	const [row] = await db.orm
		.select()
		.from(i)
		.where(and(eq(i.tenant_id, tenantId), eq(i.token_hash, tokenHash)))
		.limit(1)
	return row ?? null
}

/** Accepts once: concurrent acceptances leave exactly one winner. */
export function* acceptInvitationRowSteps(db: Tx, tenantId: string, tokenHash: string, now = new Date()) {
	const i = db.t.invitations
	const [row] = yield* step(
		db.orm
			.update(i)
			.set({ accepted_at: now })
			.where(and(eq(i.tenant_id, tenantId), eq(i.token_hash, tokenHash), isNull(i.accepted_at), gt(i.expires_at, now)))
			.returning(),
	)
	return row ?? null
}
