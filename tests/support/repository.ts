import { and, desc, eq } from 'drizzle-orm'
import type { RequestContext } from '#app/context.ts'
import { newSigningKey } from '#app/certificates/keys.server.ts'
import { consumeTokenSteps, hashToken, INVITATION_TTL_MS, newRawToken } from '#app/accounts/tokens.server.ts'
import type { InvitationInput } from '#app/accounts/invitations.server.ts'
import { auditSteps, type AuditInput } from '#db/audit.ts'
import { addSigningKey, currentSigningKey, type SigningKey } from '#db/certificates.ts'
import type { Database } from '#db/client.ts'
import { gradeSubmissionSteps, type GradeInput } from '#db/grading.ts'
import type { Invitation } from '#db/invitations.ts'
import { upsertInvitationsSteps } from '#db/invitations.ts'
import type { Scope } from '#db/learning.ts'
import { recordAttemptSteps, type AttemptInput } from '#db/quiz-attempts.ts'
import type { TokenType } from '#db/schema/values.ts'
import { createTenantSteps } from '#db/tenants.ts'
import { inTransaction, runSteps } from '#db/transaction.ts'
import { createUserSteps, type User, type UserInput } from '#db/users.ts'
import type { TokenScope } from '#db/tokens.ts'

// Writes and reads the tests make outside a request, each one step of the application's own
// (issue 50: production code only tests called moved here, so `knip --production` flags the next).

/** A new user; undefined when the (tenant, email) is taken. */
export function createUser(db: Database, input: UserInput): Promise<User> {
	return runSteps(db, (tx) => createUserSteps(tx, input)) as Promise<User>
}

export function createTenant(db: Database, input: { slug: string; name: string; custom_domain: string | null }) {
	return runSteps(db, (tx) => createTenantSteps(tx, input))
}

export async function findTenantBySlug(db: Database, slug: string) {
	const [row] = await db.orm.select().from(db.t.tenants).where(eq(db.t.tenants.slug, slug)).limit(1)
	return row ?? null
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

/** Runs grading in a transaction of its own: its lock lasts until it commits. */
export function gradeSubmission(db: Database, tenantId: string, id: string, input: GradeInput) {
	return inTransaction(db, (tx) => gradeSubmissionSteps(tx, tenantId, id, input))
}

export async function recordAttempt(
	db: Database,
	scope: Scope,
	courseSlug: string,
	entrySlug: string,
	maxAttempts: number,
	input: AttemptInput,
) {
	return (
		(await runSteps(db, (tx) => recordAttemptSteps(tx, scope, courseSlug, entrySlug, maxAttempts, input)))?.attempt ??
		null
	)
}

export function consumeToken(db: Database, raw: string, type: TokenType, now = new Date(), scope?: TokenScope) {
	return runSteps(db, (tx) => consumeTokenSteps(tx, raw, type, now, scope))
}

/** An invitation made outside a request (tests, seeds): the row (new or refreshed) and its raw token. */
export async function createInvitation(
	ctx: Pick<RequestContext, 'db'>,
	input: InvitationInput,
	audit?: (invitation: Invitation) => AuditInput,
) {
	const raw = newRawToken()
	// The invitation and its audit row, together.
	const invitation = await inTransaction(ctx.db, function* (tx) {
		const [{ row }] = yield* upsertInvitationsSteps(tx, [
			{ ...input, tokenHash: hashToken(raw), expiresAt: new Date(Date.now() + INVITATION_TTL_MS) },
		])
		if (audit) yield* auditSteps(tx, audit(row))
		return row
	})
	return { raw, invitation }
}

/**
 * Retires the tenant's current key (if any) and makes a new one current. Its public half stays
 * published, so certificates it signed keep verifying. Returns the new key.
 */
export async function rotateSigningKey(db: Database, authSecret: string, tenantId: string): Promise<SigningKey> {
	for (let attempt = 0; attempt < 3; attempt++) {
		const current = await currentSigningKey(db, tenantId)
		const added = await addSigningKey(db, await newSigningKey(authSecret, tenantId), current?.id ?? null)
		if (added) return added
	}
	throw new Error('could not rotate the signing key: other writers kept replacing it')
}
