import { and, eq, isNull, or, sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { runSteps, step, type Tx } from './transaction.ts'
import { webhookEventSteps } from './webhooks.ts'
import type { Locale, Role } from './schema/values.ts'

export type User = Database['t']['users']['$inferSelect']

/** The stored form of "no local password": null on PostgreSQL, '' on SQLite (spec). */
export function noPassword(db: Pick<Database, 'dialect'>): string | null {
	return db.dialect === 'pg' ? null : ''
}

function normalizeEmail(email: string) {
	return email.trim().toLowerCase()
}

export function* findUserByEmailSteps(db: Tx, tenantId: string | null, email: string) {
	const { users } = db.t
	const [row] = yield* step(
		db.orm
			.select()
			.from(users)
			.where(
				and(tenantId ? eq(users.tenant_id, tenantId) : isNull(users.tenant_id), eq(users.email, normalizeEmail(email))),
			)
			.limit(1),
	)
	return (row as User | undefined) ?? null
}

export function findUserByEmail(db: Database, tenantId: string | null, email: string) {
	return runSteps(db, (tx) => findUserByEmailSteps(tx, tenantId, email))
}

export interface UserInput {
	tenant_id: string | null
	email: string
	role: Role
	name: string
	password_hash?: string | null
	locale?: Locale
	email_verified_at?: Date | null
	deactivated_at?: Date | null
}

/** Insert, or refresh the seedable columns of, the user with this (tenant_id, email). */
export async function upsertUser(db: Database, input: UserInput): Promise<User> {
	const now = new Date()
	const existing = await findUserByEmail(db, input.tenant_id, input.email)
	const values = {
		role: input.role,
		name: input.name,
		password_hash: input.password_hash ?? noPassword(db),
		locale: input.locale ?? 'en',
		email_verified_at: input.email_verified_at ?? null,
		deactivated_at: input.deactivated_at ?? null,
		updated_at: now,
	}
	if (existing) {
		const [row] = await db.orm.update(db.t.users).set(values).where(eq(db.t.users.id, existing.id)).returning()
		return row
	}
	const [row] = await db.orm
		.insert(db.t.users)
		.values({ id: newId(), tenant_id: input.tenant_id, email: normalizeEmail(input.email), created_at: now, ...values })
		.returning()
	return row
}

export function* findUserByIdSteps(db: Tx, id: string) {
	// No stored id contains NUL, and PostgreSQL refuses it in a query parameter.
	if (id.includes('\u0000')) return null
	const [row] = yield* step(db.orm.select().from(db.t.users).where(eq(db.t.users.id, id)).limit(1))
	return (row as User | undefined) ?? null
}

export function findUserById(db: Database, id: string) {
	return runSteps(db, (tx) => findUserByIdSteps(tx, id))
}

export function* createUserSteps(db: Tx, input: UserInput) {
	const now = new Date()
	const [row] = yield* step(
		db.orm
			.insert(db.t.users)
			.values({
				id: newId(),
				tenant_id: input.tenant_id,
				email: normalizeEmail(input.email),
				role: input.role,
				name: input.name,
				password_hash: input.password_hash ?? noPassword(db),
				locale: input.locale ?? 'en',
				email_verified_at: input.email_verified_at ?? null,
				created_at: now,
				updated_at: now,
			})
			.onConflictDoNothing()
			.returning(),
	)
	const user = row as User | undefined
	if (user?.tenant_id)
		yield* webhookEventSteps(db, user.tenant_id, 'user.created', {
			user: { id: user.id, email: user.email, name: user.name, role: user.role, locale: user.locale },
			createdAt: user.created_at.toISOString(),
		})
	return user
}

type UserValues = Partial<
	Pick<User, 'password_hash' | 'email' | 'name' | 'locale' | 'role' | 'email_verified_at' | 'deactivated_at'>
>

/** Updates columns of one user and, where asked, invalidates every session of theirs. */
export function* updateUserSteps(db: Tx, id: string, values: UserValues, options: { bumpTokenVersion?: boolean } = {}) {
	const { users } = db.t
	const [row] = yield* step(
		db.orm
			.update(users)
			.set({
				...values,
				updated_at: new Date(),
				...(options.bumpTokenVersion ? { token_version: sql`${users.token_version} + 1` } : {}),
			})
			.where(eq(users.id, id))
			.returning(),
	)
	return (row as User | undefined) ?? null
}

export function updateUser(db: Database, id: string, values: UserValues, options: { bumpTokenVersion?: boolean } = {}) {
	return runSteps(db, (tx) => updateUserSteps(tx, id, values, options))
}

/**
 * The accounts a sign-in with this address may concern, in one read: the
 * host's tenant's, and on a tenant host also the platform account
 * (apex_account_wrong_host). The same query whichever exists.
 */
export async function findSignInCandidates(db: Database, tenantId: string | null, email: string) {
	const { users } = db.t
	const scope = tenantId ? or(eq(users.tenant_id, tenantId), isNull(users.tenant_id)) : isNull(users.tenant_id)
	return db.orm
		.select()
		.from(users)
		.where(and(scope, eq(users.email, normalizeEmail(email))))
		.limit(2)
}
