import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { runSteps, step, type Tx } from './transaction.ts'
import type { User } from './users.ts'

export type SessionRow = Database['t']['sessions']['$inferSelect']

export interface SessionInput {
	id: string
	userId: string
	tenantId: string | null
	tokenVersion: number
	idleExpiresAt: Date
	expiresAt: Date
	impersonatorSessionId?: string | null
	/** The hash of the consumed-token proof this session is minted from: each proof mints one session. */
	proofHash?: string | null
	/** The host name it is issued on. */
	host?: string | null
}

/** Inserts the session; null when its proof has already minted one (the unique key decides, also under a race). */
export function* insertSessionSteps(db: Tx, input: SessionInput, now = new Date()) {
	const [row] = yield* step(
		db.orm
			.insert(db.t.sessions)
			.values({
				id: input.id,
				user_id: input.userId,
				tenant_id: input.tenantId,
				token_version: input.tokenVersion,
				created_at: now,
				idle_expires_at: input.idleExpiresAt,
				expires_at: input.expiresAt,
				impersonator_session_id: input.impersonatorSessionId ?? null,
				proof_hash: input.proofHash ?? null,
				host: input.host ?? null,
			})
			.onConflictDoNothing({ target: db.t.sessions.proof_hash })
			.returning(),
	)
	return (row as SessionRow | undefined) ?? null
}

/** The host of the person's newest session on the tenant (where their mails link, decision 0062); null when none is kept. */
export async function lastSessionHost(db: Database, tenantId: string, userId: string) {
	const s = db.t.sessions
	const [row] = await db.orm
		.select({ host: s.host })
		.from(s)
		.where(and(eq(s.tenant_id, tenantId), eq(s.user_id, userId)))
		.orderBy(desc(s.created_at))
		.limit(1)
	return row?.host ?? null
}

/** Whether a proof (by its hash) has already minted a session. */
export async function proofUsed(db: Database, proofHash: string) {
	const s = db.t.sessions
	const [row] = await db.orm.select({ id: s.id }).from(s).where(eq(s.proof_hash, proofHash)).limit(1)
	return Boolean(row)
}

/** A session with its user, in one read: what every signed-in request checks. */
export async function findSessionWithUser(
	db: Database,
	id: string,
): Promise<{ session: SessionRow; user: User } | null> {
	if (id.includes('\u0000')) return null
	const [row] = await sessionWithUser(db).execute({ id })
	return row ?? null
}
const sessionWithUser = preparedFor((db) =>
	db.orm
		.select({ session: db.t.sessions, user: db.t.users })
		.from(db.t.sessions)
		.innerJoin(db.t.users, eq(db.t.users.id, db.t.sessions.user_id))
		.where(eq(db.t.sessions.id, sql.placeholder('id')))
		.limit(1)
		.prepare('session_with_user'),
)

/** Pushes the idle expiry out (never past the absolute one). */
export async function renewSession(db: Database, id: string, idleExpiresAt: Date) {
	await db.orm
		.update(db.t.sessions)
		.set({ idle_expires_at: idleExpiresAt })
		.where(and(eq(db.t.sessions.id, id), isNull(db.t.sessions.revoked_at)))
}

/** Ends one session on the server: its cookie, wherever it is kept, signs nobody in again. */
export function* revokeSessionSteps(db: Tx, id: string, now = new Date()) {
	const s = db.t.sessions
	yield* step(
		db.orm
			.update(s)
			.set({ revoked_at: now })
			.where(and(eq(s.id, id), isNull(s.revoked_at)))
			.returning({ id: s.id }),
	)
}

export function revokeSession(db: Database, id: string, now = new Date()) {
	return runSteps(db, (tx) => revokeSessionSteps(tx, id, now))
}

/** Forgets the user's sessions that can no longer be used (expired or revoked), at each new sign-in. */
export function* pruneSessionsSteps(db: Tx, userId: string, now = new Date()) {
	const s = db.t.sessions
	yield* step(
		db.orm
			.delete(s)
			.where(
				and(
					eq(s.user_id, userId),
					or(lt(s.expires_at, now), lt(s.idle_expires_at, now), sql`${s.revoked_at} IS NOT NULL`),
				),
			)
			.returning({ id: s.id }),
	)
}
