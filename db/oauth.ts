import { and, desc, eq, isNotNull } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { step, type Tx } from './transaction.ts'

export interface IdentityLink {
	tenantId: string
	userId: string
	provider: string
	subject: string
	avatarUrl: string | null
}

/** The user an external identity already belongs to on this tenant, if any. */
export function* findLinkedUserIdSteps(db: Tx, tenantId: string, provider: string, subject: string) {
	const o = db.t.oauth_accounts
	const [row] = yield* step(
		db.orm
			.select({ userId: o.user_id })
			.from(o)
			.where(and(eq(o.tenant_id, tenantId), eq(o.provider, provider), eq(o.provider_account_id, subject)))
			.limit(1),
	)
	return row?.userId ?? null
}

/**
 * Links the identity to the user (once: the tenant, provider and subject are
 * unique, so a concurrent second callback adds nothing) and keeps the
 * provider's picture current.
 */
export function* linkIdentitySteps(db: Tx, link: IdentityLink) {
	const o = db.t.oauth_accounts
	yield* step(
		db.orm
			.insert(o)
			.values({
				id: newId(),
				tenant_id: link.tenantId,
				user_id: link.userId,
				provider: link.provider,
				provider_account_id: link.subject,
				avatar_url: link.avatarUrl,
				created_at: new Date(),
			})
			.onConflictDoUpdate({
				target: [o.tenant_id, o.provider, o.provider_account_id],
				set: { avatar_url: link.avatarUrl },
			})
			.returning({ id: o.id }),
	)
}

/** The picture of the user's most recently linked identity that has one. */
export async function findProviderPicture(db: Database, tenantId: string, userId: string) {
	const o = db.t.oauth_accounts
	const [row] = await db.orm
		.select({ url: o.avatar_url })
		.from(o)
		.where(and(eq(o.tenant_id, tenantId), eq(o.user_id, userId), isNotNull(o.avatar_url)))
		.orderBy(desc(o.created_at))
		.limit(1)
	return row?.url ?? null
}
