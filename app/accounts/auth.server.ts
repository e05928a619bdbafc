import { withNotice, type NoticeName } from '../platform/notices.ts'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { redirect, type RouterContextProvider } from 'react-router'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { localePath, splitLocalePath, type Locale } from '#app/i18n/locales.ts'
import type { Role, TokenType } from '#db/schema/values.ts'
import { inTransaction, rollback, runSteps, type Tx } from '#db/transaction.ts'
import { findSignInCandidates, findUserByIdSteps, noPassword, updateUserSteps, type User } from '#db/users.ts'
import { consumeTokenSteps, hostTokenScope } from './tokens.server.ts'
import { hashPassword, verifyPassword } from './password.server.ts'
import {
	commitUserSession,
	getSession,
	newSessionSteps,
	sessionCookie,
	type CurrentSession,
	type NewSession,
	type SessionClaims,
	type SessionCommit,
} from './session.server.ts'
import { parseId, parseProof, proofString, type Proof } from '../platform/canonical.server.ts'
import { isApiPath, jsonError } from '../platform/errors.ts'

const HERE = 'http://same.origin'

/**
 * A redirect target taken from input, as a path on this origin, or null. It is
 * resolved as a browser resolves a Location header (WHATWG URL: tabs and
 * newlines dropped, backslashes read as slashes, `.`, `..` and `%2e`
 * segments applied), and accepted only if the result stays on this origin and
 * is itself a one-slash path that the browser will read the same way again
 * (`/.//evil.com` resolves to `//evil.com`, which is another site). Callers
 * that transform the path check the result again.
 */
export function safeCallbackUrl(raw: unknown): string | null {
	if (typeof raw !== 'string' || raw.length > 2048 || !raw.startsWith('/')) return null
	let url: URL
	try {
		url = new URL(raw, HERE)
	} catch {
		return null
	}
	if (url.origin !== HERE) return null
	// Runs of slashes collapsed, so that what is built from the path later (a locale prefix taken
	// off: `/es//evil.com`) cannot turn into a protocol-relative URL either.
	const path = `${url.pathname.replace(/\/{2,}/g, '/')}${url.search}${url.hash}`
	if (path.startsWith('//') || path.includes('\\') || new URL(path, HERE).origin !== HERE) return null
	return path
}

/** Where a role lands after signing in (spec, Authentication 2). */
export function roleLanding(claims: Pick<SessionClaims, 'role' | 'assignedCourses'>) {
	switch (claims.role) {
		case 'tenant_admin':
		case 'super_admin':
			return '/admin'
		case 'course_admin':
			return claims.assignedCourses[0] ? `/admin/courses/${claims.assignedCourses[0]}/dashboard` : '/learn/dashboard'
		default:
			return '/learn/dashboard'
	}
}

/** Sign-in in the locale of the page that asked for it (its URL prefix), coming back to that page. */
function signInUrl(page: RequestContext['page']) {
	const locale = splitLocalePath(page.path).locale
	const path = `/learn/sign-in?callbackUrl=${encodeURIComponent(`${page.path}${page.search}`)}`
	return locale ? localePath(locale, path) : path
}

/**
 * A landing path in `locale`: a path that already carries a locale prefix
 * keeps it, and platform paths (API, well-known files) are never prefixed.
 */
export function localeLanding(locale: Locale, path: string) {
	if (splitLocalePath(path.split(/[?#]/)[0]).locale || /^\/(?:api|\.well-known)(?:[/?#]|$)/.test(path)) return path
	return localePath(locale, path)
}

/**
 * The signed-in session, or a redirect to sign-in that comes back here. The JSON API (/api/…) has
 * no sign-in page to send a client to: 401 in its envelope.
 */
export function requireSession(context: Readonly<RouterContextProvider>): CurrentSession {
	const session = getSession(context)
	if (session) return session
	const { page } = getRequestContext(context)
	throw isApiPath(page.path) ? jsonError(401, 'UNAUTHORIZED', 'Sign in first') : redirect(signInUrl(page))
}

export type CredentialsFailure =
	'invalid' | 'deactivated' | 'no_password' | 'tenant_inactive' | 'apex_account_wrong_host' | 'unverified'
export type AuthInput =
	{ kind: 'credentials'; email: string; password: string } | { kind: 'consumed_token'; userId: string; proof: string }
export type AuthResult = { ok: true; user: User } | { ok: false; reason: CredentialsFailure; user?: User }

// Verified against when no account with a password matches, so every answer costs one hash check.
let dummyHash: Promise<string> | null = null
function checkAgainstNothing(password: string) {
	dummyHash ??= hashPassword('not-a-real-password')
	return dummyHash.then((hash) => verifyPassword(password, hash))
}

/**
 * The one sign-in provider. The tenant comes from the host (ctx), never from
 * input. `consumed_token` is how a consumed verification, reset, magic-link,
 * invitation or impersonation proof becomes a session. Credentials cost one
 * read and one hash check whichever account matches, or none: the time of an
 * answer does not tell whether an address has an account here or on the apex.
 */
export async function authenticate(ctx: RequestContext, input: AuthInput): Promise<AuthResult> {
	if (input.kind === 'consumed_token') return runSteps(ctx.db, (tx) => consumedTokenSteps(tx, ctx, input))
	if (ctx.tenant && ctx.tenant.status !== 'active') return { ok: false, reason: 'tenant_inactive' }
	const tenantId = ctx.tenant?.id ?? null
	const candidates = await findSignInCandidates(ctx.db, tenantId, input.email)
	const user = candidates.find((c) => c.tenant_id === tenantId)
	// On a tenant host, a platform account of this address is checked instead (apex_account_wrong_host).
	const checked = user ?? candidates.find((c) => c.tenant_id === null)
	const matches = checked?.password_hash
		? await verifyPassword(input.password, checked.password_hash)
		: await checkAgainstNothing(input.password)
	if (!user) return { ok: false, reason: checked && matches ? 'apex_account_wrong_host' : 'invalid' }
	if (!user.password_hash) return { ok: false, reason: 'no_password' }
	if (!matches) return { ok: false, reason: 'invalid' }
	if (user.deactivated_at) return { ok: false, reason: 'deactivated' }
	// A password chosen before the address was proven may not be its owner's (account pre-hijacking).
	if (!user.email_verified_at) return { ok: false, reason: 'unverified', user }
	return { ok: true, user }
}

/**
 * The provider's consumed_token path, as steps (so that a flow can run it in the transaction that
 * used its token): the proof read in its one spelling, signed for this user at their current
 * token_version (a proof minted before a sign-out everywhere, a role change or a deactivation is
 * worth nothing), fresh, and the user of this host and active.
 */
function* consumedTokenSteps(tx: Tx, ctx: RequestContext, input: Extract<AuthInput, { kind: 'consumed_token' }>) {
	const refuse = (reason: CredentialsFailure): AuthResult => ({ ok: false, reason })
	if (ctx.tenant && ctx.tenant.status !== 'active') return refuse('tenant_inactive')
	const proof = parseProof(input.proof)
	const userId = parseId(input.userId)
	const user = proof && userId ? yield* findUserByIdSteps(tx, userId) : null
	const belongsHere =
		user && (user.tenant_id === (ctx.tenant?.id ?? null) || (user.role === 'super_admin' && user.tenant_id === null))
	if (!user || !proof || !belongsHere || !proofHolds(ctx, user, proof)) return refuse('invalid')
	if (user.deactivated_at) return refuse('deactivated')
	return { ok: true, user } as AuthResult
}

/**
 * The first proof that a person reads the account's mailbox: the address
 * becomes verified and every session minted before is ended (token_version).
 * A password set before it, by whoever signed up with the address, is kept
 * only when the proof is that sign-up's own verification link; proven any
 * other way (magic link, invitation, external sign-in, reset), it is dropped,
 * so nobody who pre-registered someone else's address keeps a way in.
 */
export function* proveMailboxSteps(db: Tx, user: User, via: 'verification' | 'other') {
	if (user.email_verified_at) return user
	const dropPassword = via === 'other' && Boolean(user.password_hash)
	const updated = yield* updateUserSteps(
		db,
		user.id,
		{ email_verified_at: new Date(), ...(dropPassword ? { password_hash: noPassword(db) } : {}) },
		{ bumpTokenVersion: true },
	)
	return updated ?? user
}

const PROOF_TTL_MS = 60_000

/**
 * A short-lived proof that `ref` (a consumed token or invitation, a tenant to enter, an
 * impersonation) was just used by `user`: `<ref>.<issued>.<mac>`, read back only by parseProof.
 * The MAC covers the user's token_version, so anything that ends the user's sessions before the
 * proof is used (sign-out everywhere, a role change, deactivation) ends the proof too.
 */
export function mintConsumedTokenProof(
	ctx: Pick<RequestContext, 'env'>,
	user: Pick<User, 'id' | 'token_version'>,
	ref: string,
	now = Date.now(),
) {
	return proofString({ ref, issued: now, mac: sign(ctx, user, ref, now) })
}

/** Whether a proof (parsed) was signed for this user at their current token_version and is still fresh. */
export function proofHolds(ctx: Pick<RequestContext, 'env'>, user: Pick<User, 'id' | 'token_version'>, proof: Proof) {
	const age = Date.now() - proof.issued
	if (!(age >= 0 && age <= PROOF_TTL_MS)) return false
	const expected = Buffer.from(sign(ctx, user, proof.ref, proof.issued))
	const given = Buffer.from(proof.mac)
	return given.length === expected.length && timingSafeEqual(given, expected)
}

function sign(ctx: Pick<RequestContext, 'env'>, user: Pick<User, 'id' | 'token_version'>, ref: string, issued: number) {
	// Every part has a fixed form without `.` (parseId, parseProof), so the joined text names one tuple.
	return createHmac('sha256', ctx.env.AUTH_SECRET)
		.update(`consumed_token:${user.id}.${user.token_version}.${ref}.${issued}`)
		.digest('base64url')
}

/** withNotice for a path that may carry a #fragment: the query goes before it. */
function withNoticeBeforeHash(path: string, notice: NoticeName) {
	const at = path.indexOf('#')
	return at === -1 ? withNotice(path, notice) : `${withNotice(path.slice(0, at), notice)}${path.slice(at)}`
}

/**
 * Signs the user in and redirects: to callbackUrl when it is a same-origin path, else the role landing,
 * in the user's own locale unless the callback names one.
 */
export async function signInAndRedirect(ctx: RequestContext, user: User, callbackUrl?: unknown) {
	return redirectSignedIn(user, await commitUserSession(ctx, user), callbackUrl)
}

/** The redirect that lands a session minted by a flow's transaction (newSessionSteps, sessionFromProofSteps). */
export async function redirectWithSession(
	ctx: RequestContext,
	session: NewSession,
	callbackUrl?: unknown,
	notice?: NoticeName,
) {
	return redirectSignedIn(session.user, await sessionCookie(ctx, session), callbackUrl, notice)
}

function redirectSignedIn(user: User, commit: SessionCommit, callbackUrl?: unknown, notice?: NoticeName) {
	const landing = safeCallbackUrl(callbackUrl) ?? roleLanding(commit.claims)
	const target = notice ? withNoticeBeforeHash(landing, notice) : landing
	return redirect(localeLanding(user.locale, target), {
		headers: { 'set-cookie': commit.cookie },
	})
}

/**
 * A consumed-token proof made into a new session through the single provider, as steps of the
 * caller's transaction: null when the proof is not valid, the user does not belong here, is
 * deactivated or not of `role`, or the proof has already minted a session (single use, keyed on
 * the proof's one spelling).
 */
export function* sessionFromProofSteps(
	tx: Tx,
	ctx: RequestContext,
	userId: string,
	proof: string,
	options: { role?: Role; impersonatorSessionId?: string } = {},
) {
	const parsed = parseProof(proof)
	if (!parsed) return null
	const result = yield* consumedTokenSteps(tx, ctx, { kind: 'consumed_token', userId, proof })
	if (!result.ok || (options.role && result.user.role !== options.role)) return null
	return yield* newSessionSteps(tx, ctx, result.user, {
		proof: proofString(parsed),
		impersonatorSessionId: options.impersonatorSessionId,
	})
}

/**
 * The end of a consumed-token flow, inside the transaction that consumed `ref` (a token or an
 * invitation): a proof of it for the user as they now are, made into a session. Null when they
 * may not sign in here (the caller rolls back what it wrote).
 */
export function* signInWithConsumedSteps(tx: Tx, ctx: RequestContext, userId: string, ref: string) {
	const user = yield* findUserByIdSteps(tx, userId)
	if (!user) return null
	return yield* sessionFromProofSteps(tx, ctx, user.id, mintConsumedTokenProof(ctx, user, ref))
}

/**
 * An emailed link that signs in (verification, magic link), on its confirm button's POST: uses the
 * token once, checks its user belongs to this host, marks the address verified (opening the link
 * proves it) and signs in, all in one transaction. Returns the redirect, or why not.
 */
export async function signInWithEmailedToken(
	ctx: RequestContext,
	raw: string,
	type: Extract<TokenType, 'email_verify' | 'magic_link'>,
	callbackUrl?: string,
) {
	// Scoped to the host's tenant: another tenant's token is not used up here.
	const outcome = await inTransaction(ctx.db, function* (tx) {
		const check = yield* consumeTokenSteps(tx, raw, type, new Date(), hostTokenScope(ctx))
		if (!check.ok) return { reason: check.reason }
		const user = yield* findUserByIdSteps(tx, check.token.user_id)
		if (!user || user.tenant_id !== (ctx.tenant?.id ?? null)) rollback({ reason: 'invalid' as const })
		yield* proveMailboxSteps(tx, user, type === 'email_verify' ? 'verification' : 'other')
		const session = yield* signInWithConsumedSteps(tx, ctx, user.id, check.token.id)
		// A deactivated account: nothing is used up, nothing proven.
		return session ? { session } : rollback({ reason: 'invalid' as const })
	})
	if ('reason' in outcome) return { reason: outcome.reason }
	// A confirmed address says so on the page the learner lands on (the root layout shows the notice).
	const notice = type === 'email_verify' ? ('emailConfirmed' as const) : undefined
	return redirectWithSession(ctx, outcome.session, callbackUrl, notice)
}
