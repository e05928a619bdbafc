import { createHash, randomBytes } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import {
	createContext,
	createCookieSessionStorage,
	type RouterContextProvider,
	type SessionStorage,
} from 'react-router'
import type { RequestContext } from '#app/context.ts'
import type { AuditVia } from '#app/platform/audit.server.ts'
import type { Role } from '#db/schema/values.ts'
import { assignedCourseSlugs } from '#db/learning.ts'
import {
	findSessionWithUser,
	insertSessionSteps,
	pruneSessionsSteps,
	renewSession,
	revokeSession,
	type SessionRow,
} from '#db/sessions.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'
import { readCookie } from '../platform/canonical.server.ts'
import type { User } from '#db/users.ts'

/** Exactly the claims the spec lists (Resources, Session claims). */
export interface SessionClaims {
	userId: string
	tenantId: string | null
	role: Role
	tokenVersion: number
	assignedCourses: string[]
	permissions: string[]
	name: string
	email: string
	locale: string
}

export interface CurrentSession {
	/** The stored session's id (db/sessions.ts): what sign-out revokes. */
	id: string
	claims: SessionClaims
	user: User
	/** Set while a super_admin impersonates this user: the session they started it from. */
	impersonator: { sessionId: string; userId: string; tokenVersion: number } | null
	/** Set when an API key or a SCIM token acts with its creator's authority (decisions 0070, 0071): its audit rows name it. */
	via?: AuditVia
}

/** Set once per request by the root middleware: the validated session, or null. */
export const sessionContext = createContext<CurrentSession | null>(null)

export function getSession(context: Readonly<RouterContextProvider>) {
	return context.get(sessionContext)
}

// Each role has what the one below it has, and more.
const COURSE_ADMIN = ['learn', 'course.preview', 'course.analytics']
const TENANT_ADMIN = [...COURSE_ADMIN, 'course.assign', 'users.manage', 'audit.read', 'invitations.send']
const PERMISSIONS: Record<Role, string[]> = {
	student: ['learn'],
	course_admin: COURSE_ADMIN,
	tenant_admin: TENANT_ADMIN,
	super_admin: [...TENANT_ADMIN, 'tenants.manage', 'users.impersonate'],
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/**
 * How long a session lasts (docs/decisions/0015-sessions.md): it ends after
 * `idleMs` without a request or `absoluteMs` after sign-in, whichever is first.
 * Platform accounts reach every tenant and get a working day; an impersonated
 * session an hour.
 */
export const SESSION_LIFETIMES = {
	standard: { idleMs: 14 * DAY, absoluteMs: 30 * DAY },
	platform: { idleMs: 2 * HOUR, absoluteMs: 12 * HOUR },
	impersonation: { idleMs: HOUR, absoluteMs: HOUR },
} as const

type Lifetime = (typeof SESSION_LIFETIMES)[keyof typeof SESSION_LIFETIMES]

function lifetimeOf(user: Pick<User, 'role'>, impersonated: boolean): Lifetime {
	if (impersonated) return SESSION_LIFETIMES.impersonation
	return user.role === 'super_admin' ? SESSION_LIFETIMES.platform : SESSION_LIFETIMES.standard
}

/** What a session cookie carries, once its signature has been checked. */
type CookieData = { claims: SessionClaims | undefined; sid: unknown }

/**
 * Each cookie secret's storage, with the cookies it has verified. React Router checks a signed
 * cookie with WebCrypto (a key imported and an HMAC verified on the thread pool), which was 5 % of
 * a signed-in page's CPU (issue 47): a cookie value that verified once verifies again under the
 * same secret, so its data is kept by value. Only what verified is kept; the session row and the
 * user behind it are still read and checked on every request (readSession).
 */
const storages = new Map<string, { storage: SessionStorage; verified: LRUCache<string, CookieData> }>()

/** `__Host-` and Secure over https; a plain name on http (local development and tests). */
const sessionCookieName = (ctx: Pick<RequestContext, 'origin'>) =>
	ctx.origin.startsWith('https:') ? '__Host-lms_session' : 'lms_session'

/** A session id as newSessionSteps makes them: 192 random bits in base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{32}$/

function sessionStorageFor(ctx: Pick<RequestContext, 'env' | 'origin'>) {
	const secure = ctx.origin.startsWith('https:')
	const key = `${secure}:${ctx.env.AUTH_SECRET}`
	let entry = storages.get(key)
	if (!entry) {
		const storage = createCookieSessionStorage({
			cookie: {
				name: sessionCookieName(ctx),
				httpOnly: true,
				sameSite: 'lax',
				secure,
				path: '/',
				secrets: [ctx.env.AUTH_SECRET],
			},
		})
		entry = { storage, verified: new LRUCache({ max: 5_000 }) }
		storages.set(key, entry)
	}
	return entry
}

/** The data of a session cookie (its Cookie header), its signature checked once per distinct value. */
async function cookieData(ctx: Pick<RequestContext, 'env' | 'origin'>, header: string): Promise<CookieData> {
	const { storage, verified } = sessionStorageFor(ctx)
	const known = verified.get(header)
	if (known) return known
	const session = await storage.getSession(header)
	const data: CookieData = { claims: session.get('claims') as SessionClaims | undefined, sid: session.get('sid') }
	if (data.claims) verified.set(header, data)
	return data
}

async function claimsFor(ctx: RequestContext, user: User): Promise<SessionClaims> {
	const assignedCourses =
		user.role === 'course_admin' && user.tenant_id
			? await assignedCourseSlugs(ctx.db, { tenantId: user.tenant_id, userId: user.id })
			: []
	return {
		userId: user.id,
		tenantId: user.tenant_id,
		role: user.role,
		tokenVersion: user.token_version,
		assignedCourses,
		permissions: PERMISSIONS[user.role],
		name: user.name,
		email: user.email,
		locale: user.locale,
	}
}

export type SessionRead = { state: 'none' } | { state: 'valid'; session: CurrentSession } | { state: 'rejected' }

/**
 * Whether a stored session may still sign its user in on this host: not
 * revoked, not expired (idle or absolute), issued on this host's tenant, minted
 * under the user's current token_version, and the user still active and of
 * this tenant (a super_admin's session names the tenant it entered).
 */
function usable(ctx: RequestContext, session: SessionRow, user: User, now: number) {
	const hostTenantId = ctx.tenant?.id ?? null
	const platformAdmin = user.role === 'super_admin' && user.tenant_id === null
	return (
		session.revoked_at === null &&
		session.expires_at.getTime() > now &&
		session.idle_expires_at.getTime() > now &&
		session.tenant_id === hostTenantId &&
		session.token_version === user.token_version &&
		!user.deactivated_at &&
		(platformAdmin || user.tenant_id === hostTenantId)
	)
}

/**
 * Reads and re-validates the session cookie against the database on every
 * request: the session row (revocation, expiry, host), the user (exists, not
 * deactivated, of this host's tenant) and the claims' token_version. An
 * impersonated session also needs the super_admin session it came from to be
 * valid. Anything else is a forced sign-out.
 */
/**
 * What an API key acts as (decision 0071): its creator, with the claims a session of theirs would
 * carry, and the key's id for the audit rows. No session row or cookie stands behind it.
 */
export async function apiKeySession(ctx: RequestContext, creator: User, apiKeyId: string): Promise<CurrentSession> {
	return {
		id: `api-key:${apiKeyId}`,
		claims: await claimsFor(ctx, creator),
		user: creator,
		impersonator: null,
		via: { via: 'api', viaId: apiKeyId },
	}
}

export async function readSession(ctx: RequestContext, request: Request): Promise<SessionRead> {
	// Only the cookie as we set it (canonical.server.ts): another spelling, or a second one, is refused.
	const cookie = readCookie(request.headers.get('cookie'), sessionCookieName(ctx), { signed: true })
	if (cookie.state === 'none') return { state: 'none' }
	if (cookie.state === 'refused') return { state: 'rejected' }
	const { claims, sid: sessionId } = await cookieData(ctx, cookie.header)
	if (!claims || typeof claims.userId !== 'string') return { state: 'none' }
	if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return { state: 'rejected' }
	const found = await findSessionWithUser(ctx.db, sessionId)
	const now = Date.now()
	if (
		!found ||
		found.user.id !== claims.userId ||
		claims.tokenVersion !== found.user.token_version ||
		!usable(ctx, found.session, found.user, now)
	) {
		return { state: 'rejected' }
	}
	const { session, user } = found
	let impersonator: CurrentSession['impersonator'] = null
	if (session.impersonator_session_id) {
		const origin = await findSessionWithUser(ctx.db, session.impersonator_session_id)
		if (!origin || origin.user.role !== 'super_admin' || !usable(ctx, origin.session, origin.user, now))
			return { state: 'rejected' }
		impersonator = { sessionId: origin.session.id, userId: origin.user.id, tokenVersion: origin.user.token_version }
	}
	// Renewed at most every 1/24 of the idle time, after the answer: a read, not a write, per request.
	const { idleMs } = lifetimeOf(user, impersonator !== null)
	if (session.idle_expires_at.getTime() - now < (idleMs * 23) / 24) {
		const next = new Date(Math.min(now + idleMs, session.expires_at.getTime()))
		ctx.afterResponse(() => renewSession(ctx.db, session.id, next))
	}
	return { state: 'valid', session: { id: session.id, claims, user, impersonator } }
}

export interface SessionCommit {
	/** Set-Cookie value of the new session. */
	cookie: string
	claims: SessionClaims
}

/** A session stored by `newSessionSteps`, whose cookie `sessionCookie` makes once its transaction has committed. */
export interface NewSession {
	id: string
	user: User
	maxAgeMs: number
}

/** The hash a proof's session is stored under (`proof_hash`, unique): of the proof's one spelling. */
export function proofHash(proof: string) {
	return createHash('sha256').update(proof).digest('hex')
}

/**
 * A new session for the user on this host, as steps of the caller's transaction, so that what
 * signs a person in (a token used, a password set, an audit row) and their session are stored
 * together: its own random id, its own expiry, stored so that sign-out can end it. With `proof`
 * (canonical, from parseProof), the consumed-token proof it is minted from: null when that proof
 * has already minted a session (replay). The user's stale sessions are forgotten on the way.
 */
export function* newSessionSteps(
	tx: Tx,
	ctx: Pick<RequestContext, 'tenant' | 'origin'>,
	user: User,
	options: { proof?: string; impersonatorSessionId?: string } = {},
) {
	const now = Date.now()
	const lifetime = lifetimeOf(user, Boolean(options.impersonatorSessionId))
	const sessionId = randomBytes(24).toString('base64url')
	yield* pruneSessionsSteps(tx, user.id, new Date(now))
	const row = yield* insertSessionSteps(tx, {
		id: sessionId,
		userId: user.id,
		tenantId: ctx.tenant?.id ?? null,
		tokenVersion: user.token_version,
		idleExpiresAt: new Date(now + lifetime.idleMs),
		expiresAt: new Date(now + lifetime.absoluteMs),
		impersonatorSessionId: options.impersonatorSessionId,
		proofHash: options.proof === undefined ? null : proofHash(options.proof),
		host: new URL(ctx.origin).hostname,
	})
	return row ? ({ id: sessionId, user, maxAgeMs: lifetime.absoluteMs } satisfies NewSession) : null
}

/** The cookie (and claims) of a session newSessionSteps stored. */
export async function sessionCookie(ctx: RequestContext, session: NewSession): Promise<SessionCommit> {
	const { storage } = sessionStorageFor(ctx)
	const cookie = await storage.getSession()
	const claims = await claimsFor(ctx, session.user)
	cookie.set('claims', claims)
	cookie.set('sid', session.id)
	return { cookie: await storage.commitSession(cookie, { maxAge: session.maxAgeMs / 1000 }), claims }
}

/** A new session for the user on this host (newSessionSteps in a transaction of its own) and its cookie. */
export async function commitUserSession(ctx: RequestContext, user: User): Promise<SessionCommit> {
	const session = await inTransaction(ctx.db, (tx) => newSessionSteps(tx, ctx, user))
	if (!session) throw new Error('session could not be stored')
	return sessionCookie(ctx, session)
}

/** Set-Cookie value that clears the session cookie. */
export async function destroySessionCookie(ctx: RequestContext) {
	const { storage } = sessionStorageFor(ctx)
	return storage.destroySession(await storage.getSession())
}

/** Sign-out: the session ends on the server (revoked), and its cookie is cleared. */
export async function endSession(ctx: RequestContext, session: Pick<CurrentSession, 'id'> | null) {
	if (session) await revokeSession(ctx.db, session.id)
	return destroySessionCookie(ctx)
}
