import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import type { TokenType } from './schema/values.ts'

export type VerificationToken = Database['t']['verification_tokens']['$inferSelect']

export async function insertToken(db: Database, input: { userId: string; type: TokenType; tokenHash: string; expiresAt: Date }) {
	const [row] = await db.orm
		.insert(db.t.verification_tokens)
		.values({ id: newId(), user_id: input.userId, type: input.type, token_hash: input.tokenHash, expires_at: input.expiresAt, created_at: new Date() })
		.returning()
	return row
}

export async function findTokenByHash(db: Database, tokenHash: string, type: TokenType) {
	const t = db.t.verification_tokens
	const [row] = await db.orm
		.select()
		.from(t)
		.where(and(eq(t.token_hash, tokenHash), eq(t.type, type)))
		.limit(1)
	return row ?? null
}

/**
 * Marks the token used in one statement, so of any number of concurrent
 * consumers exactly one gets the row back and the rest get null.
 */
export async function consumeTokenByHash(db: Database, tokenHash: string, type: TokenType, now = new Date()) {
	const t = db.t.verification_tokens
	const [row] = await db.orm
		.update(t)
		.set({ used_at: now })
		.where(and(eq(t.token_hash, tokenHash), eq(t.type, type), isNull(t.used_at), gt(t.expires_at, now)))
		.returning()
	return row ?? null
}
