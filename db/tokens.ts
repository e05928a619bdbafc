import { and, eq, gt, inArray, isNull, type SQL } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { runSteps, step, type Tx } from './transaction.ts'
import type { TokenType } from './schema/values.ts'

export type VerificationToken = Database['t']['verification_tokens']['$inferSelect']

export async function insertToken(
	db: Database,
	input: { userId: string; type: TokenType; tokenHash: string; expiresAt: Date },
) {
	const [row] = await db.orm
		.insert(db.t.verification_tokens)
		.values({
			id: newId(),
			user_id: input.userId,
			type: input.type,
			token_hash: input.tokenHash,
			expires_at: input.expiresAt,
			created_at: new Date(),
		})
		.returning()
	return row
}

/**
 * The tenant a token must belong to (through its user): a tenant id, or null
 * for platform accounts. Without it the lookup is unscoped.
 */
export type TokenScope = { tenantId: string | null }

function ownedBy(db: Tx, scope: TokenScope | undefined): SQL | undefined {
	if (!scope) return undefined
	const u = db.t.users
	const owners = db.orm
		.select({ id: u.id })
		.from(u)
		.where(scope.tenantId === null ? isNull(u.tenant_id) : eq(u.tenant_id, scope.tenantId))
	return inArray(db.t.verification_tokens.user_id, owners)
}

export function* findTokenByHashSteps(db: Tx, tokenHash: string, type: TokenType, scope?: TokenScope) {
	const t = db.t.verification_tokens
	const [row] = yield* step(
		db.orm
			.select()
			.from(t)
			.where(and(eq(t.token_hash, tokenHash), eq(t.type, type), ownedBy(db, scope)))
			.limit(1),
	)
	return row ?? null
}

export function findTokenByHash(db: Database, tokenHash: string, type: TokenType, scope?: TokenScope) {
	return runSteps(db, (tx) => findTokenByHashSteps(tx, tokenHash, type, scope))
}

/**
 * Marks the token used in one statement, so of any number of concurrent
 * consumers exactly one gets the row back and the rest get null. With a
 * scope, a token of another tenant's user is neither found nor used.
 */
export function* consumeTokenByHashSteps(
	db: Tx,
	tokenHash: string,
	type: TokenType,
	now = new Date(),
	scope?: TokenScope,
) {
	const t = db.t.verification_tokens
	const [row] = yield* step(
		db.orm
			.update(t)
			.set({ used_at: now })
			.where(
				and(
					eq(t.token_hash, tokenHash),
					eq(t.type, type),
					isNull(t.used_at),
					gt(t.expires_at, now),
					ownedBy(db, scope),
				),
			)
			.returning(),
	)
	return row ?? null
}

/**
 * Uses up every token of the user not used yet (after a password reset, an
 * email change or a sign-out everywhere): a link mailed before, perhaps to an
 * address that is no longer the user's, signs nobody in afterwards. `types`
 * narrows it (a password change retires reset and sign-in links, not a pending
 * address confirmation).
 */
export function* retireTokensSteps(db: Tx, userId: string, now = new Date(), types?: readonly TokenType[]) {
	const t = db.t.verification_tokens
	yield* step(
		db.orm
			.update(t)
			.set({ used_at: now })
			.where(and(eq(t.user_id, userId), isNull(t.used_at), types ? inArray(t.type, [...types]) : undefined))
			.returning({ id: t.id }),
	)
}
