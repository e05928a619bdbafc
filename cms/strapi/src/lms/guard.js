'use strict'
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
 *   workflows), as the first policy (src/policies/site-wall.js): the documents a request names
 *   (path, query or body, by documentId, row id or history version) are checked before Strapi's
 *   own permission check and the controller, so that a route reading rows directly (i18n's
 *   non-localized fields) answers nothing either, and the refusal is always this one.
 *
 * Refused: 403, a ForbiddenError saying the document belongs to another site (what the admin
 * panel shows). Platform editors (any role without the Authors: prefix) and calls outside an
 * admin request (seed, content API) are not limited.
 */
const { errors } = require('@strapi/utils')
const { sitesOf, isPlatformEditor } = require('./tenants')

const SITE = 'api::site.site'
const COURSE = 'api::course.course'
const WATCHED = new Set([SITE, COURSE, 'api::page.page', 'api::blog-post.blog-post'])
const HISTORY = 'plugin::content-manager.history-version'
const READS = new Set(['findMany', 'findFirst', 'count'])
const FOREIGN = 'This document belongs to another site: you may open and change only the documents of your own site'
const MOVED = "A document's site is set when it is created and cannot be changed"
const SINGLE = 'Courses, pages, posts and sites are not single types: open them by their id'

/**
 * A PolicyError (Strapi passes its message through to the answer; a plain ForbiddenError's it
 * replaces by "Forbidden") that answers as the ForbiddenError it is.
 */
class WallError extends errors.PolicyError {
	constructor(message) {
		super(message)
		this.name = 'ForbiddenError'
	}
}

const ownerField = (uid) => (uid === SITE ? 'key' : 'site')

/** The author whose request this is, or null (no request, or a platform editor). */
function authorOf(strapi) {
	const user = strapi.requestContext.get()?.state?.user
	return user && !isPlatformEditor(user) ? user : null
}

/** Row ids are digits; documentIds are not (Strapi makes them with cuid2: a letter first). */
const isRowId = (ref) => Number.isInteger(ref) || (typeof ref === 'string' && /^\d+$/.test(ref))

/** The stored sites of the documents `refs` names (documentIds or row ids): every version's. */
async function storedSites(strapi, uid, refs) {
	const docs = refs.filter((r) => !isRowId(r))
	const rows = refs.filter(isRowId).map(Number)
	const or = [...(docs.length ? [{ documentId: { $in: docs } }] : []), ...(rows.length ? [{ id: { $in: rows } }] : [])]
	if (!or.length) return []
	const field = ownerField(uid)
	const found = await strapi.db.query(uid).findMany({ where: { $or: or }, select: ['documentId', field] })
	return [...new Set(found.map((row) => row[field]))]
}

const allOwn = (sites, user) => sites.every((s) => sitesOf(user).includes(s))

/** Document Service middleware: the last wall, for every caller inside an author's request. */
function documentsGuard(strapi) {
	return async (context, next) => {
		const { uid, action } = context
		const user = WATCHED.has(uid) ? authorOf(strapi) : null
		if (!user) return next()
		const params = (context.params ??= {})
		const field = ownerField(uid)
		const own = sitesOf(user)
		const stored = params.documentId ? await storedSites(strapi, uid, [params.documentId]) : []
		if (!allOwn(stored, user)) throw new WallError(FOREIGN)
		const data = params.data
		// The site is not on the author's form (decision 0073): a new document goes to the author's site.
		const empty = data && [undefined, null, ''].includes(data[field])
		if (action === 'create' && empty && uid !== SITE && own.length === 1) data[field] = own[0]
		// A new translation's form sends the site it does not show as empty (decision 0082): it stays the
		// stored one, for every locale (the field is not localized), rather than read as a move.
		if (action !== 'create' && empty && data[field] !== undefined && stored.length === 1) data[field] = stored[0]
		if (data && data[field] !== undefined) {
			// A new document (create, or a clone's copy) goes to one of the author's sites; an existing
			// one stays where it is stored.
			const creates = action === 'create' || action === 'clone'
			if (creates && !own.includes(data[field])) throw new WallError(FOREIGN)
			if (!creates && stored.some((s) => s !== data[field])) throw new WallError(MOVED)
		}
		if (READS.has(action)) params.filters = { $and: [params.filters ?? {}, { [field]: { $in: own } }] }
		return next()
	}
}

/** The values a request names under `keys` (path, query, then body), arrays flattened. */
function named(ctx, keys) {
	const body = ctx.request?.body && typeof ctx.request.body === 'object' ? ctx.request.body : {}
	const sources = [ctx.params ?? {}, ctx.request?.query ?? {}, body]
	return sources.flatMap((source) => keys.flatMap((k) => (source[k] === undefined ? [] : [source[k]].flat())))
}

/**
 * The documents an admin request names, as { uid, refs }, or null when it names one in a form that
 * cannot be checked (an object where an id belongs: `documentId[$ne]=…`).
 */
async function documentsNamed(strapi, ctx) {
	const found = []
	for (const id of named(ctx, ['versionId'])) {
		if (!isRowId(id)) return null
		const version = await strapi.db
			.query(HISTORY)
			.findOne({ where: { id: Number(id) }, select: ['contentType', 'relatedDocumentId'] })
		if (version) found.push({ uid: version.contentType, refs: [version.relatedDocumentId] })
	}
	const uids = named(ctx, ['model', 'model_uid', 'contentType', 'contentTypeUid', 'uid']).filter((u) => WATCHED.has(u))
	if (!uids.length) return found
	const refs = named(ctx, ['id', 'sourceId', 'documentId', 'documentIds', 'entryDocumentId'])
	if (refs.some((r) => typeof r !== 'string' && typeof r !== 'number')) return null
	return [...found, ...uids.map((uid) => ({ uid, refs }))]
}

/** The policy first on every admin route of Strapi's plugins (the media library has its own). */
async function sitePolicy(policyContext, _config, { strapi }) {
	const user = policyContext.state?.user
	if (!user || isPlatformEditor(user)) return true
	const docs = await documentsNamed(strapi, policyContext)
	if (!docs) throw new errors.ValidationError('A document is named by its id')
	const single = String(policyContext.state.route?.path ?? '').includes('/single-types/')
	for (const { uid, refs } of docs) {
		if (!WATCHED.has(uid)) continue
		if (single) throw new WallError(SINGLE)
		if (!allOwn(await storedSites(strapi, uid, refs), user)) throw new WallError(FOREIGN)
	}
	return true
}

/**
 * A course is up or down as a whole (decision 0048): unpublishing one locale unpublishes every
 * locale. The controller answers with the first version unpublished: the one asked for comes first.
 */
function wholeUnpublish() {
	return async (context, next) => {
		if (context.uid !== COURSE || context.action !== 'unpublish') return next()
		const asked = context.params?.locale
		context.params = { ...context.params, locale: '*' }
		const result = await next()
		if (result?.entries && typeof asked === 'string')
			result.entries.sort((a, b) => (b.locale === asked) - (a.locale === asked))
		return result
	}
}

/** Installs both layers; call from register() (routes are mounted after it). */
function installGuard(strapi) {
	strapi.documents.use(documentsGuard(strapi))
	strapi.documents.use(wholeUnpublish())
	for (const [name, plugin] of Object.entries(strapi.plugins)) {
		if (name === 'upload') continue
		const routers = Array.isArray(plugin.routes) ? [{ routes: plugin.routes }] : Object.values(plugin.routes ?? {})
		for (const router of routers) {
			if (router.type === 'content-api' || !Array.isArray(router.routes)) continue
			for (const route of router.routes) {
				route.config = route.config ?? {}
				route.config.policies = ['global::site-wall', ...(route.config.policies ?? [])]
			}
		}
	}
}

module.exports = { installGuard, sitePolicy }
