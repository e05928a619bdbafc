import { createCookie, type RouterContextProvider } from 'react-router'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { assignedCourseSlugs } from '#db/learning.ts'
import type { Tenant } from '#db/tenants.ts'
import type { User } from '#db/users.ts'
import { localePath } from '#app/i18n/locales.ts'
import { mintConsumedTokenProof, requireSession } from '../accounts/auth.server.ts'
import { exactQueryValue, parseProof, proofString, readCookie } from '../platform/canonical.server.ts'
import { formErrorResult, limitAction, TOO_MANY } from '../platform/forms.server.ts'
import { readContent } from '../content/cms.server.ts'
import type { Course } from '../content/content.ts'
import { SESSION_LIFETIMES, type CurrentSession } from '../accounts/session.server.ts'
import { forbidden, isApiPath, notFound } from '#app/platform/errors.ts'

const IMPERSONATOR_COOKIE = '__impersonator_uid'

export interface AdminScope {
	ctx: RequestContext
	session: CurrentSession
	/** The tenant of this host; null on the apex, where only a super_admin gets here. */
	tenant: Tenant | null
	isSuper: boolean
}

/**
 * /admin and its pages outside a course: tenant_admin (of this host's tenant)
 * and super_admin. A course_admin gets 404 (spec, rule 10: other /admin paths
 * are hidden from them), any other signed-in user 403, a visitor the sign-in
 * redirect. The JSON API (/api/…) answers in its envelope: 401 for a visitor,
 * 403 for a course_admin as for anyone else (it has no pages to hide).
 * Call it in every loader and action.
 */
export function requireAdmin(context: Readonly<RouterContextProvider>): AdminScope {
	const session = requireSession(context)
	const ctx = getRequestContext(context)
	const { role } = session.user
	if (role === 'course_admin' && !isApiPath(ctx.page.path)) throw notFound()
	if (role !== 'tenant_admin' && role !== 'super_admin') throw forbidden()
	return { ctx, session, tenant: ctx.tenant, isSuper: role === 'super_admin' }
}

/**
 * /admin/courses/<slug>/...: tenant_admin and super_admin, and a course_admin
 * assigned to the course (checked in the database, not the session claim, so
 * a revoked assignment takes effect at once); other course_admins 404.
 */
export async function requireCourseAdmin(
	context: Readonly<RouterContextProvider>,
	courseSlug: string,
): Promise<AdminScope> {
	const session = requireSession(context)
	const ctx = getRequestContext(context)
	const { role } = session.user
	if (role === 'tenant_admin' || role === 'super_admin')
		return { ctx, session, tenant: ctx.tenant, isSuper: role === 'super_admin' }
	if (role !== 'course_admin') throw forbidden()
	if (!ctx.tenant) throw notFound()
	const assigned = await assignedCourseSlugs(ctx.db, { tenantId: ctx.tenant.id, userId: session.user.id })
	if (!assigned.includes(courseSlug)) throw notFound()
	return { ctx, session, tenant: ctx.tenant, isSuper: false }
}

/** super_admin only (tenants, impersonation). */
export function requireSuperAdmin(context: Readonly<RouterContextProvider>): AdminScope {
	const scope = requireAdmin(context)
	if (!scope.isSuper) throw forbidden()
	return scope
}

/** The course as the content service has it, in any state (admins see drafts too); 404 when unknown. */
export async function requireAdminCourse(scope: AdminScope, slug: string): Promise<Course> {
	const course = await readContent(`course ${slug}`, () => scope.ctx.cms.course(scope.ctx.site, slug, scope.ctx.locale))
	if (!course) throw notFound()
	return course
}

/**
 * Who may act: `requireAdmin` (the default outside a course), `requireSuperAdmin`, or on a
 * course's pages `requireCourseAdmin` (the default there; `requireAdmin` where course admins may
 * not act). Course guards are given the course's slug; the others ignore it.
 */
type Guard = (context: Readonly<RouterContextProvider>, slug: string) => AdminScope | Promise<AdminScope>

/**
 * What an action acts on: `platform`, a page that also serves the apex (a person's page, the
 * tenants); `tenant`, a tenant's records (404 on the apex); `course`, one of its courses, the
 * `slug` of the route's params.
 */
interface Starts {
	platform: { scope: AdminScope }
	tenant: { scope: AdminScope; tenant: Tenant }
	course: { scope: AdminScope; tenant: Tenant; course: Course }
}

/** The part of a route's ActionArgs the start reads. */
interface ActionArgs {
	context: Readonly<RouterContextProvider>
	params: Partial<Record<string, string>>
}

/**
 * The one start of every admin action (decision 0060), always in this order: the guard, a tenant
 * host (unless `platform`), the adminMutation limit (60 mutations a minute per admin), then the
 * course. A record the action names (a person, a hand-in) is looked up first thing in `act`, so
 * after the limit too. Refusals before the limit are thrown (403, 404, the sign-in redirect);
 * an exhausted limit is answered here, 429 with Retry-After and `{ result }` carrying the
 * form's message, returned rather than thrown so the page re-renders its form with it (a throw
 * would show the error boundary). `act` runs only when all of these passed.
 *
 *     export const action = adminAction({ scope: 'course' }, async ({ scope, tenant, course }, { request }: Route.ActionArgs) => …)
 */
export function adminAction<S extends keyof Starts, Args extends ActionArgs, R>(
	options: { scope: S; guard?: Guard },
	act: (start: Starts[S], args: Args) => Promise<R>,
) {
	return async (args: Args) => {
		const slug = args.params.slug ?? ''
		const guard = options.guard ?? (options.scope === 'course' ? requireCourseAdmin : requireAdmin)
		const scope = await guard(args.context, slug)
		const tenant = options.scope === 'platform' ? null : scope.tenant
		if (options.scope !== 'platform' && !tenant) throw notFound()
		const limited = await limitAction(scope.ctx, 'adminMutation', `user|${scope.session.user.id}`, {
			result: formErrorResult(TOO_MANY),
		})
		if (limited) return limited
		const course = options.scope === 'course' ? await requireAdminCourse(scope, slug) : null
		// Each scope's fields are set above, in the order of its checks: the cast names which.
		return act({ scope, tenant, course } as Starts[S], args)
	}
}

/** A course as a page's heading names it, with the locale its title was served in (decision 0012). */
const courseHeading = (course: Course) => ({ slug: course.slug, title: course.title, locale: course.locale })

/**
 * The start of every /admin/courses/<slug>/… loader: the role guard (as its actions'), then the
 * course. `page` is what each of these pages shows first: on the apex, where a super_admin has no
 * tenant and so no course, its TenantHint (`hint: true`); else the course's heading.
 */
export async function courseAdminPage(
	context: Readonly<RouterContextProvider>,
	slug: string,
	guard: Guard = requireCourseAdmin,
) {
	const scope = await guard(context, slug)
	const tenant = scope.tenant
	if (!tenant) return { page: { hint: true as const }, tenant: null }
	const course = await requireAdminCourse(scope, slug)
	return { page: { hint: false as const, course: courseHeading(course) }, scope, tenant, course }
}

/**
 * `__impersonator_uid`: the original super_admin's id while impersonating
 * (spec). HTTP-only and signed, but never trusted alone: impersonation stop
 * also needs the current session to be the impersonated one, started from a
 * super_admin session of that id that is still valid (session.server.ts).
 */
export function impersonatorCookie(ctx: Pick<RequestContext, 'env' | 'origin'>) {
	return createCookie(IMPERSONATOR_COOKIE, {
		httpOnly: true,
		sameSite: 'lax',
		path: '/',
		secure: ctx.origin.startsWith('https:'),
		secrets: [ctx.env.AUTH_SECRET],
		maxAge: SESSION_LIFETIMES.impersonation.absoluteMs / 1000,
	})
}

/**
 * The impersonation marker as impersonation start set it, read through readCookie (canonical.server.ts):
 * the super_admin's id, or null for none, another spelling or two of them.
 */
export async function readImpersonator(ctx: Pick<RequestContext, 'env' | 'origin'>, request: Request) {
	const read = readCookie(request.headers.get('cookie'), IMPERSONATOR_COOKIE, { signed: true })
	if (read.state !== 'ok') return null
	const value: unknown = await impersonatorCookie(ctx).parse(read.header)
	return typeof value === 'string' ? value : null
}

/** The tenant's subdomain origin, with the scheme and port this request came in on. */
export function tenantOrigin(ctx: RequestContext, tenant: Tenant) {
	const url = new URL(ctx.origin)
	return `${url.protocol}//${tenant.slug}.${ctx.env.APP_BASE_DOMAIN}${url.port ? `:${url.port}` : ''}`
}

/**
 * The tenant override's link (decision 0015): the tenant's own host, `/admin/enter` and exactly
 * `?user=<id>&proof=<proof>`, the proof bound to that tenant and to the super admin's current
 * token_version, valid for a minute and for one session.
 */
export function tenantOverrideLink(ctx: RequestContext, user: Pick<User, 'id' | 'token_version'>, tenant: Tenant) {
	const proof = mintConsumedTokenProof(ctx, user, `enter-${tenant.id}`)
	return `${tenantOrigin(ctx, tenant)}${localePath(ctx.locale, '/admin/enter')}?${overrideQuery(user.id, proof)}`
}

const overrideQuery = (userId: string, proof: string) => new URLSearchParams({ user: userId, proof }).toString()

/**
 * The override link as this tenant's host receives it, in the one spelling tenantOverrideLink
 * writes (canonical.server.ts): its user and proof, else a 404 (another tenant's link, an extra
 * segment, a second parameter, another order or encoding).
 */
export function readTenantOverride(ctx: RequestContext, request: Request) {
	const search = new URL(request.url).search
	const userId = exactQueryValue(search, 'user')
	const proof = parseProof(exactQueryValue(search, 'proof'))
	if (
		!ctx.tenant ||
		!userId ||
		!proof ||
		proof.ref !== `enter-${ctx.tenant.id}` ||
		search !== `?${overrideQuery(userId, proofString(proof))}`
	)
		throw notFound()
	return { tenant: ctx.tenant, userId, proof }
}
