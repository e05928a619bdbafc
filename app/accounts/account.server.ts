import type { RequestContext } from '#app/context.ts'
import { auditSteps, type AuditAction, type AuditInput } from '#db/audit.ts'
import { isUniqueViolation } from '#db/client.ts'
import type { Locale } from '#db/schema/values.ts'
import { revokeSessionSteps } from '#db/sessions.ts'
import { retireTokensSteps } from '#db/tokens.ts'
import { inTransaction, rollback } from '#db/transaction.ts'
import { createUserSteps, findUserByIdSteps, updateUser, updateUserSteps } from '#db/users.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { jobSite } from '../platform/jobs.server.ts'
import { accountJobs } from './jobs.server.ts'
import { signInWithConsumedSteps } from './auth.server.ts'
import { newSessionSteps, type CurrentSession } from './session.server.ts'
import { consumeTokenSteps, hostTokenScope } from './tokens.server.ts'

// A learner's own changes to their account (/learn/account and the links it mails): each change, its
// audit row, the mail it sends and the sessions and links it ends, in one transaction.

/**
 * The audit row of a learner's own change (decisions 0023, 0031): its actor is whoever acted, the
 * impersonating super admin when there is one (also named in the metadata, as on admin rows).
 */
function ownChange(session: CurrentSession, action: AuditAction, metadata: Record<string, unknown> = {}): AuditInput {
	const { user, impersonator } = session
	return {
		...adminAudit({ session }, action, { kind: 'user', id: user.id, tenantId: user.tenant_id }, metadata),
		actorUserId: impersonator?.userId ?? user.id,
	}
}

/** The new name and its audit row stand together; the same name again changes and records nothing. */
export async function renameAccount(ctx: RequestContext, session: CurrentSession, name: string) {
	const { user } = session
	if (name === user.name) return
	await inTransaction(ctx.db, function* (tx) {
		yield* updateUserSteps(tx, user.id, { name })
		yield* auditSteps(tx, ownChange(session, 'account.name.changed', { from: user.name, to: name }))
	})
}

/** The audit row and the mail's job together (decision 0033). */
export function resendOwnVerification(ctx: RequestContext, session: CurrentSession) {
	return inTransaction(ctx.db, function* (tx) {
		yield* auditSteps(tx, ownChange(session, 'account.verification.resent'))
		yield* accountJobs.enqueueSteps(tx, 'mail.verification', { ...jobSite(ctx), userId: session.user.id })
	})
}

/**
 * The new hash, the token_version bump (every session of the user ends, this one too), the audit row
 * and this device's new session stand together. Null when the account is gone.
 */
export function changeOwnPassword(ctx: RequestContext, session: CurrentSession, passwordHash: string) {
	const { user } = session
	return inTransaction(ctx.db, function* (tx) {
		const row = yield* updateUserSteps(tx, user.id, { password_hash: passwordHash }, { bumpTokenVersion: true })
		if (!row) return null
		// A reset or sign-in link mailed before the change signs nobody in afterwards (whoever asked for it).
		yield* retireTokensSteps(tx, user.id, new Date(), ['password_reset', 'magic_link'])
		yield* auditSteps(tx, ownChange(session, 'account.password.changed'))
		// The account's address is told, whoever changed it (decision 0041).
		yield* accountJobs.enqueueSteps(tx, 'mail.passwordChanged', { ...jobSite(ctx), userId: user.id })
		// This device stays signed in: its old session is revoked and a new one is minted under the new token_version.
		yield* revokeSessionSteps(tx, session.id)
		return yield* newSessionSteps(tx, ctx, row)
	})
}

/** The links retired, every session ended and this one revoked, together. */
export function endAllSessions(ctx: RequestContext, session: CurrentSession) {
	const { user } = session
	return inTransaction(ctx.db, function* (tx) {
		yield* retireTokensSteps(tx, user.id)
		yield* updateUserSteps(tx, user.id, {}, { bumpTokenVersion: true })
		yield* revokeSessionSteps(tx, session.id)
	})
}

/** The interface language of a signed-in user (users.locale). */
export function setAccountLocale(ctx: Pick<RequestContext, 'db'>, userId: string, locale: Locale) {
	return updateUser(ctx.db, userId, { locale })
}

/**
 * The token, the address, the links it retires and this device's new session, together or not at
 * all. Links mailed to the old address no longer sign in, and every other session ends; this one is
 * replaced, since its email claim changes.
 */
export async function confirmEmailChange(ctx: RequestContext, session: CurrentSession, raw: string, newEmail: string) {
	const { user } = session
	try {
		return await inTransaction(ctx.db, function* (tx) {
			const check = yield* consumeTokenSteps(tx, raw, 'email_change', new Date(), hostTokenScope(ctx))
			if (!check.ok) return { problem: check.reason }
			if (check.token.user_id !== user.id) rollback({ problem: 'invalid' as const })
			yield* retireTokensSteps(tx, user.id)
			const updated = yield* updateUserSteps(
				tx,
				user.id,
				{ email: newEmail, email_verified_at: new Date() },
				{ bumpTokenVersion: true },
			)
			if (!updated) rollback({ problem: 'invalid' as const })
			// The address it replaces is told, with a way back (decision 0041): in the same transaction, after the
			// retirement above, so its reset link is the one that still works.
			yield* accountJobs.enqueueSteps(tx, 'mail.emailChanged', {
				...jobSite(ctx),
				userId: user.id,
				oldEmail: user.email,
			})
			yield* revokeSessionSteps(tx, session.id)
			const next = yield* newSessionSteps(tx, ctx, updated)
			return next ? { session: next } : rollback({ problem: 'invalid' as const })
		})
	} catch (error) {
		// Taken between the check and the update: the unique key decided, and nothing was stored.
		if (isUniqueViolation(error)) return { problem: 'taken' as const }
		throw error
	}
}

/**
 * The token, the new password, the links it retires and the session, stored together or not at all.
 * Another tenant's token is invalid here and stays unused.
 */
export function resetPassword(ctx: RequestContext, raw: string, passwordHash: string) {
	return inTransaction(ctx.db, function* (tx) {
		const check = yield* consumeTokenSteps(tx, raw, 'password_reset', new Date(), hostTokenScope(ctx))
		if (!check.ok) return { problem: check.reason }
		const user = yield* findUserByIdSteps(tx, check.token.user_id)
		if (!user || user.tenant_id !== (ctx.tenant?.id ?? null)) rollback({ problem: 'invalid' as const })
		// A new password signs out every other session and retires every other link mailed before it.
		// Opening a reset link also proves the mailbox.
		yield* retireTokensSteps(tx, user.id)
		yield* updateUserSteps(
			tx,
			user.id,
			{ password_hash: passwordHash, email_verified_at: user.email_verified_at ?? new Date() },
			{ bumpTokenVersion: true },
		)
		const session = yield* signInWithConsumedSteps(tx, ctx, user.id, check.token.id)
		// A deactivated account: nothing is changed, the link stays as it was.
		return session ? { session } : rollback({ problem: 'invalid' as const })
	})
}

/**
 * One transaction before the sign-up's answer (every user action is one, decision 0033): the new
 * account and its confirmation mail's job; or, for an address that has an account here, no account
 * and the job that tells its owner. The same work either way (the password is hashed, the insert
 * meets the unique key or not, one job), so sign-up does not reveal who has an account.
 */
export function signUpLearner(
	ctx: RequestContext,
	tenantId: string,
	account: { name: string; email: string; passwordHash: string },
	callbackUrl: string | null,
) {
	const { name, email, passwordHash } = account
	return inTransaction(ctx.db, function* (tx) {
		const user = yield* createUserSteps(tx, {
			tenant_id: tenantId,
			email,
			name,
			role: 'student',
			password_hash: passwordHash,
			locale: ctx.locale,
		})
		if (user)
			yield* accountJobs.enqueueSteps(tx, 'mail.verification', {
				...jobSite(ctx),
				userId: user.id,
				...(callbackUrl ? { callbackUrl } : {}),
			})
		else yield* accountJobs.enqueueSteps(tx, 'mail.accountExists', { ...jobSite(ctx), tenantId, email })
	})
}
