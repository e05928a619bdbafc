import { createHash, randomBytes } from 'node:crypto'
import type { Database } from '#db/client.ts'
import {
	consumeTokenByHashSteps,
	findTokenByHash,
	findTokenByHashSteps,
	insertToken,
	type TokenScope,
	type VerificationToken,
} from '#db/tokens.ts'
import type { Tx } from '#db/transaction.ts'
import type { TokenType } from '#db/schema/values.ts'
import { parseToken } from '../platform/canonical.server.ts'

/** Lifetimes; the spec fixes magic_link (900 s) and password_reset (1 h). */
export const TOKEN_TTL_MS: Record<TokenType, number> = {
	magic_link: 900_000,
	password_reset: 3_600_000,
	email_verify: 24 * 3_600_000,
	email_change: 3_600_000,
}
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000

/** 256 random bits, URL-safe. Only its SHA-256 is stored. */
export function newRawToken() {
	return randomBytes(32).toString('base64url')
}

export function hashToken(raw: string) {
	return createHash('sha256').update(raw).digest('hex')
}

/**
 * Issues a token. A payload (the new address of an email change) travels
 * inside the token as `<random>.<base64url payload>`; the stored hash covers
 * both parts, so the payload cannot be altered.
 */
export async function issueToken(
	db: Database,
	userId: string,
	type: TokenType,
	options: { payload?: string; now?: Date } = {},
) {
	const now = options.now ?? new Date()
	const raw =
		options.payload === undefined
			? newRawToken()
			: `${newRawToken()}.${Buffer.from(options.payload).toString('base64url')}`
	await insertToken(db, {
		userId,
		type,
		tokenHash: hashToken(raw),
		expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[type]),
	})
	return raw
}

export type TokenCheck = { ok: true; token: VerificationToken } | { ok: false; reason: 'invalid' | 'expired' | 'used' }

/** The form each type of token is issued in: the email change carries the new address (issueToken's payload). */
const TOKEN_FORMS: Record<TokenType, 'plain' | 'payload'> = {
	magic_link: 'plain',
	password_reset: 'plain',
	email_verify: 'plain',
	email_change: 'payload',
}

/** A token of this type exactly as issued (canonical.server.ts), else null: refused before hashing or querying. */
export function readToken(raw: unknown, type: TokenType) {
	return parseToken(raw, TOKEN_FORMS[type])
}

function explain(row: VerificationToken | null, now: Date): TokenCheck {
	if (!row) return { ok: false, reason: 'invalid' }
	if (row.used_at) return { ok: false, reason: 'used' }
	if (row.expires_at <= now) return { ok: false, reason: 'expired' }
	return { ok: true, token: row }
}

/**
 * Checks a token without using it (the email-change link, the reset form).
 * With a scope (the host's tenant), another tenant's token is `invalid`.
 */
export async function peekToken(
	db: Database,
	raw: string,
	type: TokenType,
	now = new Date(),
	scope?: TokenScope,
): Promise<TokenCheck> {
	const token = readToken(raw, type)
	if (!token) return { ok: false, reason: 'invalid' }
	return explain(await findTokenByHash(db, hashToken(token.raw), type, scope), now)
}

/**
 * Uses a token once; the losers of a race get `used`. With a scope (the
 * host's tenant), another tenant's token is `invalid` and stays unused. As
 * steps, so that the token and what it is used for are stored together.
 */
export function* consumeTokenSteps(db: Tx, raw: string, type: TokenType, now = new Date(), scope?: TokenScope) {
	const token = readToken(raw, type)
	if (!token) return explain(null, now)
	const hash = hashToken(token.raw)
	const row = yield* consumeTokenByHashSteps(db, hash, type, now, scope)
	if (row) return { ok: true, token: row } satisfies TokenCheck as TokenCheck
	return explain(yield* findTokenByHashSteps(db, hash, type, scope), now)
}

/** The scope of tokens usable on this host: its tenant's users (platform accounts on the apex). */
export function hostTokenScope(ctx: { tenant: { id: string } | null }): TokenScope {
	return { tenantId: ctx.tenant?.id ?? null }
}
