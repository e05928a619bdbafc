import { createContext, createCookieSessionStorage, type RouterContextProvider, type SessionStorage } from 'react-router'
import type { RequestContext } from '#app/context.ts'
import type { Role } from '#db/schema/values.ts'
import { assignedCourseSlugs } from '#db/learning.ts'
import { findUserById, type User } from '#db/users.ts'

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
	claims: SessionClaims
	user: User
}

/** Set once per request by the root middleware: the validated session, or null. */
export const sessionContext = createContext<CurrentSession | null>(null)

export function getSession(context: Readonly<RouterContextProvider>) {
	return context.get(sessionContext)
}

const PERMISSIONS: Record<Role, string[]> = {
	student: ['learn'],
	course_admin: ['learn', 'course.preview', 'course.analytics'],
	tenant_admin: ['learn', 'course.preview', 'course.analytics', 'course.assign', 'users.manage', 'audit.read', 'invitations.send'],
	super_admin: ['learn', 'course.preview', 'course.analytics', 'course.assign', 'users.manage', 'audit.read', 'invitations.send', 'tenants.manage', 'users.impersonate'],
}

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600

const storages = new Map<string, SessionStorage>()

/** `__Host-` and Secure over https; a plain name on http (local development and tests). */
export function sessionStorageFor(ctx: Pick<RequestContext, 'env' | 'origin'>) {
	const secure = ctx.origin.startsWith('https:')
	const key = `${secure}:${ctx.env.AUTH_SECRET}`
	let storage = storages.get(key)
	if (!storage) {
		storage = createCookieSessionStorage({
			cookie: {
				name: secure ? '__Host-lms_session' : 'lms_session',
				httpOnly: true,
				sameSite: 'lax',
				secure,
				path: '/',
				maxAge: SESSION_MAX_AGE_SECONDS,
				secrets: [ctx.env.AUTH_SECRET],
			},
		})
		storages.set(key, storage)
	}
	return storage
}

export async function claimsFor(ctx: RequestContext, user: User): Promise<SessionClaims> {
	const assignedCourses =
		user.role === 'course_admin' && user.tenant_id ? await assignedCourseSlugs(ctx.db, { tenantId: user.tenant_id, userId: user.id }) : []
	return {
		userId: user.id,
		tenantId: user.tenant_id,
		role: user.role as Role,
		tokenVersion: user.token_version,
		assignedCourses,
		permissions: PERMISSIONS[user.role as Role],
		name: user.name,
		email: user.email,
		locale: user.locale,
	}
}

export type SessionRead = { state: 'none' } | { state: 'valid'; session: CurrentSession } | { state: 'rejected' }

/**
 * Reads and re-validates the session cookie against the database: the user
 * exists, is not deactivated, belongs to this host's tenant (a session minted
 * on another tenant's host is worthless here), and its token_version still
 * matches the claim. Anything else is a forced sign-out.
 */
export async function readSession(ctx: RequestContext, request: Request): Promise<SessionRead> {
	const cookie = request.headers.get('cookie')
	if (!cookie) return { state: 'none' }
	const session = await sessionStorageFor(ctx).getSession(cookie)
	const claims = session.get('claims') as SessionClaims | undefined
	if (!claims || typeof claims.userId !== 'string') return { state: 'none' }
	const user = await findUserById(ctx.db, claims.userId)
	const hostTenantId = ctx.tenant?.id ?? null
	// A super_admin belongs to no tenant: their session is valid on the apex and,
	// once entered through the tenant override (admin.server.ts), on a tenant host.
	const platformAdmin = user?.role === 'super_admin' && user.tenant_id === null && claims.tenantId === null
	if (
		!user ||
		user.deactivated_at ||
		(!platformAdmin && (user.tenant_id !== hostTenantId || claims.tenantId !== hostTenantId)) ||
		user.token_version !== claims.tokenVersion
	) {
		return { state: 'rejected' }
	}
	return { state: 'valid', session: { claims, user } }
}

/** Set-Cookie value of a new session for the user, and the claims it carries. */
export async function commitUserSession(ctx: RequestContext, user: User) {
	const storage = sessionStorageFor(ctx)
	const session = await storage.getSession()
	const claims = await claimsFor(ctx, user)
	session.set('claims', claims)
	return { cookie: await storage.commitSession(session), claims }
}

export async function destroySessionCookie(ctx: RequestContext) {
	const storage = sessionStorageFor(ctx)
	return storage.destroySession(await storage.getSession())
}
