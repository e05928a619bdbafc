'use strict'
const { errors } = require('@strapi/utils')
const { tagsOf } = require('./lms/revalidate')
const { registerCondition } = require('./lms/tenants')
const { installGuard } = require('./lms/guard')
const { migrateEditorFields } = require('./lms/migrate')
const { fillIds } = require('./lms/autofill')
const { configureEditor } = require('./lms/editor-view')

const LOCALES = [
	['es', 'Spanish (es)'],
	['fr', 'French (fr)'],
	['de', 'German (de)'],
	['pt', 'Portuguese (pt)'],
	['zh', 'Chinese (zh)'],
]
const WATCHED = new Set(['api::site.site', 'api::course.course', 'api::page.page', 'api::blog-post.blog-post'])
const WRITES = new Set(['create', 'update', 'delete', 'publish', 'unpublish', 'discardDraft'])
/** Every committed write to content or media makes the content API's remembered answers stale. */
const contentChanged = (strapi) => () => strapi.service('api::content.answers').changed()

const DEEP = {
	'api::course.course': { modules: { populate: { entries: true } } },
}

module.exports = {
	register({ strapi }) {
		// First: the wall between sites runs before anything else sees a write (lms/guard.js).
		installGuard(strapi)
		const revalidator = strapi.service('api::content.revalidation')
		const changed = contentChanged(strapi)
		const baseDomain = process.env.APP_BASE_DOMAIN || 'localhost'

		// Every version (locales, draft and published) of a document, with what its tags need.
		const versions = (uid, documentId) =>
			documentId ? strapi.db.query(uid).findMany({ where: { documentId }, populate: DEEP[uid] }) : []
		// After the change is committed: the app must not read the old content back.
		const afterCommit = (cb) =>
			strapi.db.inTransaction() ? strapi.db.transaction(({ onCommit }) => onCommit(cb)) : cb()

		strapi.documents.use(async (context, next) => {
			const { uid, action, params } = context
			// A copy takes the next free slug of its site (intro-to-web-2): its source's is taken.
			if (action === 'clone' && WATCHED.has(uid) && uid !== 'api::site.site') await cloneSlug(strapi, uid, params)
			if (!WATCHED.has(uid) || !WRITES.has(action)) return next()
			// Ids a teacher never types (slugs of the course, modules and entries, question and option keys).
			if (
				uid === 'api::course.course' &&
				(action === 'create' || action === 'update') &&
				fillIds(params.data, await canonicalOf(strapi, uid, params))
			)
				params.data.slug = await freeSlug(strapi, uid, params)
			// The site is off the form (an author's comes from their role, lms/guard.js): still required.
			if (uid !== 'api::site.site' && action === 'create' && !params.data?.site)
				throw new errors.ValidationError("A document belongs to a site: create it as one of the site's authors", {
					errors: [{ path: ['site'], message: 'Which site this belongs to', name: 'ValidationError' }],
				})
			await guardTenant(strapi, uid, action, params)
			// The slugs a change may move: those of the versions before it (what the app may be serving)
			// and, when it writes content (create, update), after it. Publishing copies the draft, whose
			// slugs are among those before.
			const before = action === 'create' ? [] : await versions(uid, params.documentId)
			const result = await next().catch((error) => {
				throw slugTaken(error, params) ?? error
			})
			const writes = action === 'create' || action === 'update'
			const after = writes ? await versions(uid, params.documentId ?? result?.documentId) : []
			const tags = [...new Set([...before, ...after].flatMap((doc) => tagsOf(uid, doc, baseDomain)))]
			changed()
			// Stored in the change's own transaction when it has one: committed with it, or not at all.
			await revalidator.record(tags)
			await afterCommit(() => {
				changed()
				revalidator.kick()
			})
			return result
		})
	},

	async bootstrap({ strapi }) {
		// What an earlier run could not deliver goes out now (lms/revalidate.js).
		await strapi.service('api::content.revalidation').start()
		// Media changes move the content API's answers too (asset URLs in documents, asset owners).
		const changed = contentChanged(strapi)
		strapi.db.lifecycles.subscribe({
			models: ['plugin::upload.file', 'plugin::upload.folder'],
			afterCreate: changed,
			afterCreateMany: changed,
			afterUpdate: changed,
			afterUpdateMany: changed,
			afterDelete: changed,
			afterDeleteMany: changed,
		})
		await uniqueSlugs(strapi)
		await registerCondition(strapi)
		// Content of the older model moves to the course editor's fields (decision 0073).
		await migrateEditorFields(strapi)
		// Labels, help and layouts of the course form in a teacher's words (decision 0073).
		await configureEditor(strapi)
		// The six locales of the app are Strapi's locales; en is the default.
		const locales = strapi.plugin('i18n').service('locales')
		const existing = new Set((await locales.find()).map((l) => l.code))
		if (!existing.has('en')) await locales.create({ code: 'en', name: 'English (en)' })
		for (const [code, name] of LOCALES) if (!existing.has(code)) await locales.create({ code, name })
		await locales.setDefaultLocale({ code: 'en' })
	},

	destroy({ strapi }) {
		strapi.service('api::content.revalidation')?.stop()
	},
}

/**
 * A slug is unique within its site (not across tenants: two schools may both have `onboarding`).
 * Which site an author may write in is lms/guard.js's, which runs first.
 */
async function guardTenant(strapi, uid, action, params) {
	const data = params.data ?? {}
	if (uid === 'api::site.site' || (action !== 'create' && action !== 'update')) return
	if (data.slug === undefined && data.site === undefined) return
	const current = params.documentId
		? await strapi.db.query(uid).findOne({ where: { documentId: params.documentId }, select: ['site', 'slug'] })
		: null
	const site = data.site ?? current?.site
	const slug = data.slug ?? current?.slug
	if (!site || !slug) return
	const clash = await strapi.db.query(uid).findOne({
		where: { site, slug, ...(params.documentId ? { documentId: { $ne: params.documentId } } : {}) },
		select: ['documentId'],
	})
	if (clash)
		throw new errors.ValidationError(`The slug "${slug}" is taken in site ${site}`, {
			errors: [{ path: ['slug'], message: 'This slug is taken in this site', name: 'ValidationError' }],
		})
}

/**
 * The database holds the rule guardTenant checks (issue 50): two saves at once can both pass the
 * check, and only one may store the slug. Per site, locale and version (draft or published: a
 * document's two versions share their slug), in SQLite and PostgreSQL alike. Content stored before
 * the rule that breaks it keeps the server starting: the check still runs, and the log says why.
 */
async function uniqueSlugs(strapi) {
	for (const uid of WATCHED) {
		if (uid === 'api::site.site') continue
		const table = strapi.getModel(uid).collectionName
		try {
			await strapi.db.connection.raw(
				`create unique index if not exists ${table}_site_slug_unique on ${table} (site, slug, locale, (published_at is null))`,
			)
		} catch (error) {
			strapi.log.error(`[slugs] ${table}: no unique index on (site, slug): ${error?.message ?? error}`)
		}
	}
}

/** The index's refusal (a save that lost the race) as the editor's own message; null for any other error. */
function slugTaken(error, params) {
	const text = `${error?.message ?? ''} ${error?.cause?.message ?? ''} ${error?.constraint ?? ''}`
	if (!/_site_slug_unique/.test(text)) return null
	const slug = params.data?.slug ?? ''
	return new errors.ValidationError(`The slug "${slug}" is taken in this site`, {
		errors: [{ path: ['slug'], message: 'This slug is taken in this site', name: 'ValidationError' }],
	})
}

/** A translation's en version (its modules and entries, lms/autofill.js matches them by place), or null. */
async function canonicalOf(strapi, uid, params) {
	if (!params.documentId || !params.locale || params.locale === 'en') return null
	return strapi.db.query(uid).findOne({
		where: { documentId: params.documentId, locale: 'en', publishedAt: null },
		populate: DEEP[uid],
	})
}

/** A slug made from a title, suffixed -2, -3… until no other course of its site has it. */
async function freeSlug(strapi, uid, params) {
	const stored = params.documentId
		? await strapi.db.query(uid).findOne({ where: { documentId: params.documentId }, select: ['site'] })
		: null
	return nextFreeSlug(strapi, uid, params.data.site ?? stored?.site, params.data.slug, params.documentId)
}

/** `base`, or base-2, base-3… the first no document of the site but `documentId` has. */
async function nextFreeSlug(strapi, uid, site, base, documentId) {
	for (let n = 1; ; n++) {
		const slug = n === 1 ? base : `${base}-${n}`
		const other = { site, slug, ...(documentId ? { documentId: { $ne: documentId } } : {}) }
		if (!site || !(await strapi.db.query(uid).findOne({ where: other, select: ['id'] }))) return slug
	}
}

/** A clone's slug: the one asked for, or its source's, made free in the source's site. */
async function cloneSlug(strapi, uid, params) {
	const source = await strapi.db
		.query(uid)
		.findOne({ where: { documentId: params.documentId }, select: ['site', 'slug'] })
	if (!source?.site) return
	params.data = { ...params.data }
	params.data.slug = await nextFreeSlug(strapi, uid, source.site, params.data.slug || source.slug, null)
}
