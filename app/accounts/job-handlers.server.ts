import { localePath } from '#app/i18n/locales.ts'
import { findUserByEmail, findUserById } from '#db/users.ts'
import type { Locale, TokenType } from '#db/schema/values.ts'
import { jobMailContext, recipientMailContext, siteName } from '../content/site.server.ts'
import { composeEmail, deliver, type MailContext } from '../platform/emails.server.ts'
import { ACCOUNT_EMAILS, type AccountEmailKind } from './emails.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import type { JobDeps, JobHandlers } from '../platform/jobs.server.ts'
import { magicLinkEnabled } from '../platform/tenant.server.ts'
import { mailInvitation } from './invitations.server.ts'
import type { AccountJobPayloads } from './jobs.server.ts'
import { issueToken } from './tokens.server.ts'
import { requiredProvider } from './sso/require-sso.server.ts'

/*
 * What each of this room's jobs does when a worker runs it (decision 0033). A handler that throws has
 * failed its attempt (retried with backoff, then given up and logged); one that returns quietly had
 * nothing to do (no such account, a deactivated one, an invitation no longer pending). Whether there
 * was anyone to mail is decided here, off the request path, never in the request that wrote the job.
 */

/** Where each token's link leads, and which email carries it. */
const TOKEN_LINKS: Record<TokenType, { path: string; kind: AccountEmailKind }> = {
	email_verify: { path: '/learn/verify/', kind: 'verification' },
	password_reset: { path: '/learn/reset/', kind: 'password_reset' },
	magic_link: { path: '/learn/magic/', kind: 'magic_link' },
	email_change: { path: '/learn/account/email/', kind: 'email_change' },
}

/**
 * Issues a token of the type for the user and mails its link to `to` in the user's locale. Run by
 * a job's handler: the raw token exists only in this call and the mail; a failed delivery throws
 * (the job is retried and issues a new token; the unsent one is never known to anyone).
 */
async function mailTokenLink(
	ctx: MailContext,
	user: { id: string; locale: Locale },
	to: string,
	type: TokenType,
	payload?: string,
	/** Query of the link (the verification link's callbackUrl, already checked). */
	query?: Record<string, string>,
	/** The mail that carries the link, when it is not the token's own (a reset link in a change notice). */
	kindOf?: AccountEmailKind,
) {
	const token = await issueToken(ctx.db, user.id, type, { payload })
	const { path } = TOKEN_LINKS[type]
	const kind = kindOf ?? TOKEN_LINKS[type].kind
	const { locale } = user
	const search = query && Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''
	await deliver(
		ctx,
		composeEmail(ACCOUNT_EMAILS, {
			kind,
			to,
			locale,
			site: await siteName(ctx, locale),
			url: absoluteUrl(ctx, localePath(locale, `${path}${token}${search}`)),
		}),
	)
}

/** The account of an address in an active tenant, unless deactivated: whom forgot-password, magic links and sign-up may mail. */
async function activeAccount(ctx: MailContext, tenantId: string, email: string) {
	if (ctx.tenant?.status !== 'active') return null
	const user = await findUserByEmail(ctx.db, tenantId, email)
	return user && !user.deactivated_at ? user : null
}

/**
 * Tells an account's owner that someone tried to sign up with their address: sign-in and reset
 * links, on the owner's host (whoever tried may have used another of the tenant's hosts).
 */
async function mailAccountExists(ctx: MailContext, user: { id: string; email: string; locale: Locale }) {
	const to = await recipientMailContext(ctx, user.id)
	await deliver(
		to,
		composeEmail(ACCOUNT_EMAILS, {
			kind: 'account_exists',
			to: user.email,
			locale: user.locale,
			site: await siteName(to, user.locale),
			url: absoluteUrl(to, localePath(user.locale, '/learn/sign-in')),
			values: { reset: absoluteUrl(to, localePath(user.locale, '/learn/forgot')) },
		}),
	)
}

export const accountJobHandlers: JobHandlers<JobDeps, AccountJobPayloads> = {
	async 'mail.verification'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		// Confirmed meanwhile (another link, an invitation), or deactivated: nothing to confirm.
		if (!user || user.email_verified_at || user.deactivated_at) return 'already confirmed, gone or deactivated'
		const query: Record<string, string> = job.callbackUrl ? { callbackUrl: job.callbackUrl } : {}
		await mailTokenLink(await jobMailContext(deps, job), user, user.email, 'email_verify', undefined, query)
	},
	async 'mail.signUpResend'(deps, job) {
		const ctx = await jobMailContext(deps, job)
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user) return 'no active account of that address'
		if (user.email_verified_at) return mailAccountExists(ctx, user)
		const query: Record<string, string> = job.callbackUrl ? { callbackUrl: job.callbackUrl } : {}
		await mailTokenLink(ctx, user, user.email, 'email_verify', undefined, query)
	},
	async 'mail.accountExists'(deps, job) {
		const ctx = await jobMailContext(deps, job)
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user) return 'no active account of that address'
		await mailAccountExists(ctx, user)
	},
	async 'mail.passwordReset'(deps, job) {
		const ctx = await jobMailContext(deps, job)
		if ('userId' in job) {
			// An admin's "send a reset link": to the account they chose, on its owner's host.
			const user = await findUserById(deps.db, job.userId)
			if (!user) return 'the account is gone'
			return mailTokenLink(await recipientMailContext(ctx, user.id), user, user.email, 'password_reset')
		}
		// Forgot password: only an account with a local password (spec, Authentication 8).
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user?.password_hash) return 'no active account of that address with a password'
		// A domain that requires single sign-on: resets only for the break-glass tenant admins (decision 0069).
		if (user.role !== 'tenant_admin' && (await requiredProvider(ctx, user.email)))
			return 'single sign-on is required for that address'
		await mailTokenLink(ctx, user, user.email, 'password_reset')
	},
	async 'mail.magicLink'(deps, job) {
		const ctx = await jobMailContext(deps, job)
		// The flag may have been turned off since: then no new links (spec, Authentication 9).
		if (!ctx.tenant || !magicLinkEnabled(ctx.tenant)) return 'magic links are off'
		const user = await activeAccount(ctx, job.tenantId, job.email)
		if (!user) return 'no active account of that address'
		if (await requiredProvider(ctx, user.email)) return 'single sign-on is required for that address'
		await mailTokenLink(ctx, user, user.email, 'magic_link')
	},
	async 'mail.emailChange'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		if (!user || user.deactivated_at) return 'the account is gone or deactivated'
		await mailTokenLink(await jobMailContext(deps, job), user, job.newEmail, 'email_change', job.newEmail)
	},
	async 'mail.passwordChanged'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		if (!user || user.deactivated_at) return 'the account is gone or deactivated'
		// A reset link (issued now, after the change retired the older ones): whoever did not change it takes the account back.
		await mailTokenLink(
			await jobMailContext(deps, job),
			user,
			user.email,
			'password_reset',
			undefined,
			undefined,
			'password_changed',
		)
	},
	async 'mail.emailChanged'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		if (!user || user.deactivated_at) return 'the account is gone or deactivated'
		// To the address the account had: the reset link is bound to the account, not to an address, so it
		// works from the mailbox that no longer signs in (decision 0041).
		await mailTokenLink(
			await jobMailContext(deps, job),
			user,
			job.oldEmail,
			'password_reset',
			undefined,
			undefined,
			'email_changed',
		)
	},
	async 'mail.archiveMade'(deps, job) {
		const user = await findUserById(deps.db, job.userId)
		if (!user || user.tenant_id !== job.tenantId || user.deactivated_at) return 'the account is gone or deactivated'
		const to = await recipientMailContext(await jobMailContext(deps, job), user.id)
		await deliver(
			to,
			composeEmail(ACCOUNT_EMAILS, {
				kind: 'archive_made',
				to: user.email,
				locale: user.locale,
				site: await siteName(to, user.locale),
				url: absoluteUrl(to, localePath(user.locale, '/learn/account')),
			}),
		)
	},
	async 'mail.invitation'(deps, job) {
		return mailInvitation(await jobMailContext(deps, job), job)
	},
}
