/**
 * The wall between sites, decided by the stored document (decision 0048). An author (a user whose
 * roles are all `Authors: <site>`) reaches only documents whose stored `site` (a site document:
 * its `key`) is one of their sites, whatever the request says. Two layers:
 *
 * - every Document Service call made while an author's request runs: an action that names a
 *   document (`documentId`) loads its stored site first; a create or clone may name only the
 *   author's sites; an update never changes the site; finds and counts see only the author's
 *   sites. Every admin route that reads or writes content ends up here, routes Strapi adds later
 *   included.
 * - every admin route of Strapi's plugins (content manager, i18n, history, releases, review
 *   workflows), as the first policy (src/policies/site-wall.ts): the documents a request names
 *   (path, query or body, by documentId, row id or history version) are checked before Strapi's
 *   own permission check and the controller, so that a route reading rows directly (i18n's
 *   non-localized fields) answers nothing either, and the refusal is always this one.
 *
 * Refused: 403, a ForbiddenError saying the document belongs to another site (what the admin
 * panel shows). Platform editors (any role without the Authors: prefix) and calls outside an
 * admin request (seed, content API) are not limited.
 */
import type { Core, Modules } from '@strapi/strapi'
import { errors } from '@strapi/utils'
import { isPlatformEditor, sitesOf, type AdminUser } from '../../../utils/tenants'
// A course's relations to its site's lists (decision 0098), by field.
import { fieldOf, LIST_FIELDS as LISTS, LISTED_IDS } from './lists'

const SITE = 'api::site.site'
const COURSE = 'api::course.course'
const WATCHED = new Set([SITE, COURSE, 'api::page.page', 'api::blog-post.blog-post', ...Object.values(LISTS)])
const HISTORY = 'plugin::content-manager.history-version'
const READS = new Set(['findMany', 'findFirst', 'count'])
const FOREIGN = 'This document belongs to another site: you may open and change only the documents of your own site'
const MOVED = "A document's site is set when it is created and cannot be changed"
const SINGLE = 'Courses, pages, posts and sites are not single types: open them by their id'
const OTHER_LIST = "A course lists only its own site's categories and tags"
const UNNAMED = 'A category or tag is named by its id'
const LIST_MOVED = 'A category or tag that courses list stays in their site: take it off them first'

/**
 * A Document Service call as the walls read it. Strapi's own context is a union over every
 * content type and action, each with its own params; these are the few the walls read and set.
 */
type Call = {
	uid: string
	action: string
	params?: { documentId?: string; locale?: unknown; data?: Record<string, unknown>; filters?: unknown }
}
type Ref = string | number
/** An admin request (a policy's context) as far as the walls read it. */
export type AdminRequest = {
	state?: { user?: AdminUser | null; route?: { path?: string } }
	params?: Record<string, unknown>
	request?: { query?: Record<string, unknown>; body?: unknown }
}

/**
 * A PolicyError (Strapi passes its message through to the answer; a plain ForbiddenError's it
 * replaces by "Forbidden") that answers as the ForbiddenError it is.
 */
class WallError extends errors.PolicyError {
	constructor(message: string) {
		super(message)
		;(this as Error).name = 'ForbiddenError'
	}
}

const ownerField = (uid: string) => (uid === SITE ? 'key' : 'site')

/** Row ids are digits; documentIds are not (Strapi makes them with cuid2: a letter first). */
const isRowId = (ref: unknown) => Number.isInteger(ref) || (typeof ref === 'string' && /^\d+$/.test(ref))

const allOwn = (sites: unknown[], user: AdminUser) => sites.every((s) => sitesOf(user).includes(s as string))

/** The values a request names under `keys` (path, query, then body), arrays flattened. */
function named(ctx: AdminRequest, keys: string[]): unknown[] {
	const body =
		ctx.request?.body && typeof ctx.request.body === 'object' ? (ctx.request.body as Record<string, unknown>) : {}
	const sources = [ctx.params ?? {}, ctx.request?.query ?? {}, body]
	return sources.flatMap((source) => keys.flatMap((k) => (source[k] === undefined ? [] : [source[k]].flat())))
}

/**
 * A course is up or down as a whole (decision 0048): unpublishing one locale unpublishes every
 * locale. The controller answers with the first version unpublished: the one asked for comes first.
 */
const wholeUnpublish = (): Modules.Documents.Middleware.Middleware => async (context, next) => {
	const call = context as Call
	if (call.uid !== COURSE || call.action !== 'unpublish') return next()
	const asked = call.params?.locale
	call.params = { ...call.params, locale: '*' }
	const result = await next()
	const unpublished = result as { entries?: { locale?: unknown }[] } | null
	if (unpublished?.entries && typeof asked === 'string')
		unpublished.entries.sort((a, b) => Number(b.locale === asked) - Number(a.locale === asked))
	return result
}

/** The author whose request this is, or null (no request, or a platform editor). */
function authorOf(strapi: Core.Strapi): AdminUser | null {
	const user: AdminUser | undefined = strapi.requestContext.get()?.state?.user
	return user && !isPlatformEditor(user) ? user : null
}

/** The stored sites of the documents `refs` names (documentIds or row ids): every version's. */
async function storedSites(strapi: Core.Strapi, uid: string, refs: unknown[]): Promise<unknown[]> {
	const docs = refs.filter((r) => !isRowId(r))
	const rows = refs.filter(isRowId).map(Number)
	const or = [...(docs.length ? [{ documentId: { $in: docs } }] : []), ...(rows.length ? [{ id: { $in: rows } }] : [])]
	if (!or.length) return []
	const field = ownerField(uid)
	const found: Record<string, unknown>[] = await strapi.db
		.query(uid)
		.findMany({ where: { $or: or }, select: ['documentId', field] })
	return [...new Set(found.map((row) => row[field]))]
}

/** Document Service middleware: the last wall, for every caller inside an author's request. */
const documentsGuard =
	(strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
	async (context, next) => {
		const { uid, action } = context as Call
		const user = WATCHED.has(uid) ? authorOf(strapi) : null
		if (!user) return next()
		const params = ((context as Call).params ??= {})
		const field = ownerField(uid)
		const own = sitesOf(user)
		const stored = params.documentId ? await storedSites(strapi, uid, [params.documentId]) : []
		if (!allOwn(stored, user)) throw new WallError(FOREIGN)
		const data = params.data
		// The site is not on the author's form (decision 0073): a new document goes to the author's site.
		const empty = data && [undefined, null, ''].includes(data[field] as string | null | undefined)
		if (action === 'create' && empty && uid !== SITE && own.length === 1) data[field] = own[0]
		// A new translation's form sends the site it does not show as empty (decision 0082): it stays the
		// stored one, for every locale (the field is not localized), rather than read as a move.
		if (action !== 'create' && empty && data[field] !== undefined && stored.length === 1) data[field] = stored[0]
		if (data && data[field] !== undefined) {
			// A new document (create, or a clone's copy) goes to one of the author's sites; an existing
			// one stays where it is stored.
			const creates = action === 'create' || action === 'clone'
			if (creates && !own.includes(data[field] as string)) throw new WallError(FOREIGN)
			if (!creates && stored.some((s) => s !== data[field])) throw new WallError(MOVED)
		}
		if (READS.has(action)) params.filters = { $and: [params.filters ?? {}, { [field]: { $in: own } }] }
		return next()
	}

/** A relation's reference as Strapi reads it: a row id, or a documentId; null for one it would read otherwise. */
function reference(item: unknown): number | string | null {
	if (item !== null && typeof item === 'object') {
		// Strapi connects by a truthy documentId, else by the id beside it.
		const { documentId, id } = item as { documentId?: unknown; id?: unknown }
		if (documentId) return typeof documentId === 'string' ? documentId : null
		return 'id' in item ? reference(id) : null
	}
	if (typeof item === 'number') return Number.isSafeInteger(item) ? item : null
	if (typeof item !== 'string' || item === '') return null
	// A string parseInt reads as a number is a row id to Strapi ("12abc" too): only digits are checkable.
	if (!Number.isNaN(parseInt(item, 10))) return /^\d+$/.test(item) ? Number(item) : null
	return item
}

/**
 * The documents a relation's value names, in every form Strapi takes (a list, one reference, an
 * object with an id or documentId, or connect and set lists of them), or null when one of them
 * cannot be checked. Disconnecting needs no check.
 */
function relatedRefs(value: unknown): (number | string)[] | null {
	if (value === null || value === undefined) return []
	const listOf = (list: unknown) => (list === undefined || list === null ? [] : [list].flat())
	let items: unknown[] = [value].flat()
	if (typeof value === 'object' && !Array.isArray(value) && !('id' in value || 'documentId' in value)) {
		const { connect, set, disconnect } = value as Record<string, unknown>
		if (connect === undefined && set === undefined && disconnect === undefined) return null
		// What is disconnected needs no site, but Strapi's database layer fails on a malformed one (500).
		if (!listOf(disconnect).every((item) => reference(item) !== null)) return null
		items = [connect, set].flatMap(listOf)
	}
	const refs = items.map(reference)
	return refs.every((r) => r !== null) ? (refs as (number | string)[]) : null
}

/**
 * Document Service middleware, for every caller: a course's categories and tags are its own site's
 * (decision 0098), whoever writes it, so that an author who keeps two sites' lists cannot cross them
 * and the content API never serves another school's names. The course's site is the one it is
 * stored in, or the one it is created in or moved to (a platform editor's move): then what it
 * already lists must be the new site's too. For the same reason a category or tag that courses list
 * is not moved to another site (or to none).
 */
const listsOfOwnSite =
	(strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
	async (context, next) => {
		const { uid, action, params } = context as Call
		const data = params?.data
		// A category or tag that courses list stays in their site, whoever moves it (a platform editor may).
		const field = fieldOf(uid)
		if (field && action === 'update' && data?.site !== undefined && params?.documentId) {
			const stored = await storedSites(strapi, uid, [params.documentId])
			const listing = stored.some((s) => s !== data.site)
				? await strapi.db.query(COURSE).count({ where: { [field]: { documentId: params.documentId } } })
				: 0
			if (listing) throw new WallError(LIST_MOVED)
		}
		if (uid !== COURSE || !data) return next()
		const stored = params?.documentId && action !== 'create' ? await storedSites(strapi, uid, [params.documentId]) : []
		const site = data.site || stored[0]
		const moving = Boolean(data.site) && stored.some((s) => s !== data.site)
		if (!moving && !Object.keys(LISTS).some((field) => data[field] !== undefined)) return next()
		const listed: Record<string, { id: number }[]>[] = moving
			? await strapi.db.query(uid).findMany({
					where: { documentId: params?.documentId },
					populate: LISTED_IDS,
				})
			: []
		for (const [field, target] of Object.entries(LISTS)) {
			const refs = relatedRefs(data[field])
			if (refs === null) throw new WallError(UNNAMED)
			refs.push(...listed.flatMap((version) => (version[field] ?? []).map((r) => r.id)))
			if (refs.length && (await storedSites(strapi, target, refs)).some((s) => s !== site))
				throw new WallError(OTHER_LIST)
		}
		return next()
	}

/**
 * The documents an admin request names, as { uid, refs }, or null when it names one in a form that
 * cannot be checked (an object where an id belongs: `documentId[$ne]=…`).
 */
async function documentsNamed(
	strapi: Core.Strapi,
	ctx: AdminRequest,
): Promise<{ uid: string; refs: unknown[] }[] | null> {
	const found = []
	for (const id of named(ctx, ['versionId'])) {
		if (!isRowId(id)) return null
		const version: { contentType: string; relatedDocumentId: Ref } | null = await strapi.db
			.query(HISTORY)
			.findOne({ where: { id: Number(id) }, select: ['contentType', 'relatedDocumentId'] })
		if (version) found.push({ uid: version.contentType, refs: [version.relatedDocumentId] })
	}
	const uids = named(ctx, ['model', 'model_uid', 'contentType', 'contentTypeUid', 'uid']).filter((u): u is string =>
		WATCHED.has(u as string),
	)
	if (!uids.length) return found
	const refs = named(ctx, ['id', 'sourceId', 'documentId', 'documentIds', 'entryDocumentId'])
	if (refs.some((r) => typeof r !== 'string' && typeof r !== 'number')) return null
	return [...found, ...uids.map((uid) => ({ uid, refs }))]
}

const guard = ({ strapi }: { strapi: Core.Strapi }) => ({
	/** Installs both layers; call from register() (routes are mounted after it). */
	install() {
		strapi.documents.use(documentsGuard(strapi))
		strapi.documents.use(listsOfOwnSite(strapi))
		strapi.documents.use(wholeUnpublish())
		for (const [name, plugin] of Object.entries(strapi.plugins)) {
			if (name === 'upload') continue
			const routers = Array.isArray(plugin.routes) ? [{ routes: plugin.routes }] : Object.values(plugin.routes ?? {})
			for (const router of routers) {
				if (('type' in router && router.type === 'content-api') || !Array.isArray(router.routes)) continue
				for (const route of router.routes) {
					route.config = route.config ?? {}
					route.config.policies = ['global::site-wall', ...(route.config.policies ?? [])]
				}
			}
		}
	},

	/** The policy first on every admin route of Strapi's plugins (the media library has its own). */
	async sitePolicy(policyContext: AdminRequest) {
		const user = policyContext.state?.user
		if (!user || isPlatformEditor(user)) return true
		const docs = await documentsNamed(strapi, policyContext)
		if (!docs) throw new errors.ValidationError('A document is named by its id')
		const single = String(policyContext.state?.route?.path ?? '').includes('/single-types/')
		for (const { uid, refs } of docs) {
			if (!WATCHED.has(uid)) continue
			if (single) throw new WallError(SINGLE)
			if (!allOwn(await storedSites(strapi, uid, refs), user)) throw new WallError(FOREIGN)
		}
		return true
	},
})

export type Guard = ReturnType<typeof guard>
export default guard
