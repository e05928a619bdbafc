import { and, desc, eq, isNull, lt, or, type SQL } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { step, type Tx } from './transaction.ts'
import type { ApiKeyScope } from './schema/values.ts'

/*
 * A tenant's API keys, the platform's (tenant null: decision 0087), and the stored answers of their
 * idempotent POSTs (issue 49, decision 0071). Only the secret's SHA-256 is kept; a key is found by
 * it, and every read names the tenant, or asks for the platform's keys (tenant_id null) by name.
 */

export type ApiKey = Database['t']['api_keys']['$inferSelect']

export interface NewApiKey {
	/** Null: a platform key. */
	tenantId: string | null
	name: string
	scope: ApiKeyScope
	courseSlug: string | null
	prefix: string
	secretHash: string
	createdBy: string
}

/** A new key, as a step of the caller's transaction (its audit row beside it). */
export function* insertApiKeySteps(tx: Tx, key: NewApiKey) {
	const [row] = yield* step(
		tx.orm
			.insert(tx.t.api_keys)
			.values({
				id: newId(),
				tenant_id: key.tenantId,
				name: key.name,
				scope: key.scope,
				course_slug: key.courseSlug,
				prefix: key.prefix,
				secret_hash: key.secretHash,
				created_by: key.createdBy,
				created_at: new Date(),
			})
			.returning(),
	)
	return row as ApiKey
}

/** Whose keys: a tenant's, or (null) the platform's. */
function owner(k: Database['t']['api_keys'], tenantId: string | null): SQL {
	return tenantId === null ? isNull(k.tenant_id) : eq(k.tenant_id, tenantId)
}

/** A tenant's keys, or (null) the platform's, newest first (revoked ones too: the page says when). */
export function apiKeysOf(db: Database, tenantId: string | null) {
	const k = db.t.api_keys
	return db.orm.select().from(k).where(owner(k, tenantId)).orderBy(desc(k.created_at)).limit(200)
}

/** The key with this secret's hash, whoever's it is (the caller compares its tenant with the host's). */
export async function apiKeyByHash(db: Database, secretHash: string) {
	const k = db.t.api_keys
	const [row] = await db.orm.select().from(k).where(eq(k.secret_hash, secretHash)).limit(1)
	return (row as ApiKey | undefined) ?? null
}

/** Revokes a live key of this tenant (null: the platform); undefined when there was none (unknown, another's, revoked). */
export function* revokeApiKeySteps(tx: Tx, tenantId: string | null, id: string) {
	const k = tx.t.api_keys
	const [row] = yield* step(
		tx.orm
			.update(k)
			.set({ revoked_at: new Date() })
			.where(and(owner(k, tenantId), eq(k.id, id), isNull(k.revoked_at)))
			.returning(),
	)
	return row as ApiKey | undefined
}

/** Last use: written at most once a minute per key, so a busy integration does not write on every call. */
export async function touchApiKey(db: Database, id: string, ip: string | null, at = new Date()) {
	const k = db.t.api_keys
	await db.orm
		.update(k)
		.set({ last_used_at: at, last_used_ip: ip })
		.where(and(eq(k.id, id), or(isNull(k.last_used_at), lt(k.last_used_at, new Date(at.getTime() - 60_000)))))
}

type IdempotencyRecord = Database['t']['api_idempotency']['$inferSelect']

/**
 * Claims an Idempotency-Key for a key's request: the new row (`claimed`), or the row a first request
 * made (the unique index decides between concurrent ones).
 */
export async function claimIdempotency(
	db: Database,
	input: { tenantId: string | null; keyId: string; idempotencyKey: string; requestHash: string },
) {
	const r = db.t.api_idempotency
	const [row] = await db.orm
		.insert(r)
		.values({
			id: newId(),
			tenant_id: input.tenantId,
			key_id: input.keyId,
			idempotency_key: input.idempotencyKey,
			request_hash: input.requestHash,
			created_at: new Date(),
		})
		.onConflictDoNothing()
		.returning()
	if (row) return { claimed: true as const, record: row as IdempotencyRecord }
	const [first] = await db.orm
		.select()
		.from(r)
		.where(and(eq(r.key_id, input.keyId), eq(r.idempotency_key, input.idempotencyKey)))
		.limit(1)
	return { claimed: false as const, record: (first as IdempotencyRecord | undefined) ?? null }
}

/** The answer of a claimed request, kept for its retries. */
export async function storeIdempotentAnswer(db: Database, id: string, status: number, body: string) {
	const r = db.t.api_idempotency
	await db.orm.update(r).set({ status, response_body: body }).where(eq(r.id, id))
}

/** A claim whose request failed before it answered: released, so that a retry may do the work. */
export async function releaseIdempotency(db: Database, id: string) {
	const r = db.t.api_idempotency
	await db.orm.delete(r).where(and(eq(r.id, id), isNull(r.status)))
}

/** The stored row of a claim (a concurrent retry waits on it). */
export async function idempotencyRecord(db: Database, id: string) {
	const r = db.t.api_idempotency
	const [row] = await db.orm.select().from(r).where(eq(r.id, id)).limit(1)
	return (row as IdempotencyRecord | undefined) ?? null
}
