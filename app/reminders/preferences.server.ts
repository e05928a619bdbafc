import type { RequestContext } from '#app/context.ts'
import { isOptedOut, optedOutKinds, optInSteps, optOutSteps } from '#db/reminders.ts'
import { REMINDER_KINDS, type ReminderKind } from '#db/schema/values.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserById } from '#db/users.ts'
import { readUnsubscribeToken } from './unsubscribe.server.ts'

/*
 * Which reminder mails a learner gets (decision 0047): every kind is on until they turn it off, on
 * their account page or with a mail's one-click unsubscribe. An opt-out is a row of
 * reminder_opt_outs; the account page's form says the whole set, the unsubscribe link one kind.
 */

/** The kinds and whether each is on, for the account page. */
export async function reminderChoices(ctx: Pick<RequestContext, 'db'>, tenantId: string, userId: string) {
	const off = new Set(await optedOutKinds(ctx.db, tenantId, userId))
	return REMINDER_KINDS.map((kind) => ({ kind, on: !off.has(kind) }))
}

/** Saves the account page's choice: the kinds listed are on, every other kind off. */
export async function saveReminderChoices(
	ctx: Pick<RequestContext, 'db'>,
	tenantId: string,
	userId: string,
	on: readonly ReminderKind[],
) {
	const off = REMINDER_KINDS.filter((kind) => !on.includes(kind))
	await inTransaction(ctx.db, function* (tx) {
		yield* optOutSteps(tx, tenantId, userId, off)
		yield* optInSteps(tx, tenantId, userId, on)
	})
}

/**
 * What an unsubscribe link names on this host: the person (of this tenant, still there) and kind, and
 * whether that kind is already off; null for a token that is not this tenant's, expired or forged.
 */
export async function readUnsubscribeLink(ctx: Pick<RequestContext, 'db' | 'env' | 'tenant'>, token: string) {
	if (!ctx.tenant) return null
	const claim = readUnsubscribeToken(ctx.env.AUTH_SECRET, ctx.tenant.id, token)
	if (!claim) return null
	const user = await findUserById(ctx.db, claim.userId)
	if (!user || user.tenant_id !== ctx.tenant.id) return null
	return { ...claim, tenantId: ctx.tenant.id, off: await isOptedOut(ctx.db, ctx.tenant.id, user.id, claim.kind) }
}

/** The one-click unsubscribe: that kind off for that person (a second time changes nothing). */
export async function unsubscribe(
	ctx: Pick<RequestContext, 'db'>,
	link: { tenantId: string; userId: string; kind: ReminderKind },
) {
	await inTransaction(ctx.db, (tx) => optOutSteps(tx, link.tenantId, link.userId, [link.kind]))
}
