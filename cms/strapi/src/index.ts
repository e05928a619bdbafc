/**
 * The CMS's register and bootstrap: the wall between sites first (api::authoring.guard), then one
 * Document Service middleware for every write to content (ids a teacher never types, the site a
 * document belongs to, slugs unique in their site, the revalidation webhooks and the content API's
 * remembered answers); at boot the webhooks left over, the media lifecycles, the slugs' indexes, the
 * "own sites" condition, the course editor's fields and form, and the app's locales.
 */
import type { Core, Modules } from '@strapi/strapi'
import { errors } from '@strapi/utils'
import { fieldOf } from './api/authoring/services/lists'
import { slugTaken, type WriteParams } from './api/authoring/services/slugs'
import { fillIds, slugify, type CourseData } from './utils/autofill'
import { tagsOf, type Tagged } from './utils/revalidate'
import { service } from './utils/services'

const LOCALES = [
	['es', 'Spanish (es)'],
	['fr', 'French (fr)'],
	['de', 'German (de)'],
	['pt', 'Portuguese (pt)'],
	['zh', 'Chinese (zh)'],
]
const WATCHED = new Set([
	'api::site.site',
	'api::course.course',
	'api::page.page',
	'api::blog-post.blog-post',
	'api::category.category',
	'api::tag.tag',
])
const WRITES = new Set(['create', 'update', 'delete', 'publish', 'unpublish', 'discardDraft'])
/** Every committed write to content or media makes the content API's remembered answers stale. */
const contentChanged = (strapi: Core.Strapi) => () => service(strapi, 'api::content.answers').changed()

const DEEP: Record<string, object> = {
	'api::course.course': { modules: { populate: { entries: true } } },
}

/**
 * A Document Service call as the middleware reads it: Strapi's own context is a union over every
 * content type and action, each with its own params.
 */
type Call = { uid: string; action: string; params: WriteParams }

/** The middleware of every write to content: see the module's comment. */
function contentWrites(strapi: Core.Strapi): Modules.Documents.Middleware.Middleware {
	const revalidator = service(strapi, 'api::content.revalidation')
	const slugs = service(strapi, 'api::authoring.slugs')
	const lists = service(strapi, 'api::authoring.lists')
	const changed = contentChanged(strapi)
	const baseDomain = process.env.APP_BASE_DOMAIN || 'localhost'

	// The tags of every version (locales, draft and published) of a document; a category's or tag's
	// are those of the courses listing it (their catalogue entries name it).
	const tagged = async (uid: string, documentId: string | undefined): Promise<string[]> => {
		if (!documentId) return []
		if (fieldOf(uid))
			return (await lists.coursesListing(uid, documentId)).flatMap((c) => tagsOf('api::course.course', c, baseDomain))
		const versions: Tagged[] = await strapi.db.query(uid).findMany({ where: { documentId }, populate: DEEP[uid] })
		return versions.flatMap((doc) => tagsOf(uid, doc, baseDomain))
	}
	// After the change is committed: the app must not read the old content back.
	const afterCommit = (cb: () => void) =>
		strapi.db.inTransaction() ? strapi.db.transaction(({ onCommit }) => onCommit(cb)) : cb()

	return async (context, next) => {
		const { uid, action, params } = context as unknown as Call
		// A copy takes the next free slug of its site (intro-to-web-2): its source's is taken.
		if (action === 'clone' && WATCHED.has(uid) && uid !== 'api::site.site') await slugs.forClone(uid, params)
		if (!WATCHED.has(uid) || !WRITES.has(action)) return next()
		// Ids a teacher never types (slugs of the course, modules and entries, question and option keys).
		if (
			uid === 'api::course.course' &&
			(action === 'create' || action === 'update') &&
			fillIds(params.data, await canonicalOf(strapi, uid, params))
		)
			params.data!.slug = (await slugs.free(uid, params)) as string
		// A category's or tag's slug (the filter's value) is made from its name when left empty.
		const data = params.data
		if (fieldOf(uid) && data && (action === 'create' || 'slug' in data) && !data.slug && typeof data.name === 'string')
			data.slug = (await slugs.free(uid, {
				...params,
				data: { ...data, slug: slugify(data.name) || 'list' },
			})) as string
		// The site is off the form (an author's comes from their role, api::authoring.guard): still required.
		if (uid !== 'api::site.site' && action === 'create' && !params.data?.site)
			throw new errors.ValidationError("A document belongs to a site: create it as one of the site's authors", {
				errors: [{ path: ['site'], message: 'Which site this belongs to', name: 'ValidationError' }],
			})
		await slugs.check(uid, action, params)
		// The slugs a change may move: those of the versions before it (what the app may be serving)
		// and, when it writes content (create, update), after it. Publishing copies the draft, whose
		// slugs are among those before.
		const before = action === 'create' ? [] : await tagged(uid, params.documentId)
		const result = await next().catch((error) => {
			throw slugTaken(error, params) ?? error
		})
		const writes = action === 'create' || action === 'update'
		const written = (result as { documentId?: string } | null)?.documentId
		// The same categories and tags in every translation (api::authoring.lists).
		if (uid === 'api::course.course' && writes && written)
			await lists.align(written, params.locale ?? 'en', params.data)
		const after = writes ? await tagged(uid, params.documentId ?? written) : []
		const tags = [...new Set([...before, ...after])]
		changed()
		// Stored in the change's own transaction when it has one: committed with it, or not at all.
		await revalidator.record(tags)
		await afterCommit(() => {
			changed()
			revalidator.kick()
		})
		return result
	}
}

/** A translation's en version (its modules and entries, src/utils/autofill.ts matches them by place), or null. */
async function canonicalOf(strapi: Core.Strapi, uid: string, params: WriteParams): Promise<CourseData | null> {
	if (!params.documentId || !params.locale || params.locale === 'en') return null
	return strapi.db.query(uid).findOne({
		where: { documentId: params.documentId, locale: 'en', publishedAt: null },
		populate: DEEP[uid],
	})
}

export default {
	register({ strapi }: { strapi: Core.Strapi }) {
		// First: the wall between sites runs before anything else sees a write (api::authoring.guard).
		service(strapi, 'api::authoring.guard').install()
		strapi.documents.use(contentWrites(strapi))
		// A due date typed and shown in the site's time zone (src/admin/zoned-datetime.jsx, decision 0095):
		// stored as the instant Strapi's own datetime stores.
		strapi.customFields.register({ name: 'zoned-datetime', type: 'datetime' })
	},

	async bootstrap({ strapi }: { strapi: Core.Strapi }) {
		// What an earlier run could not deliver goes out now (src/utils/revalidate.ts).
		await service(strapi, 'api::content.revalidation').start()
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
		await service(strapi, 'api::authoring.slugs').ensureIndexes()
		await service(strapi, 'api::authoring.tenants').registerCondition()
		// Roles made before this version get what it lets authors do (their site's categories and tags).
		await service(strapi, 'api::authoring.provisioning').refreshRoles()
		// Content of the older model moves to the course editor's fields (decision 0073).
		await service(strapi, 'api::authoring.editor-migration').run()
		// Labels, help and layouts of the course form in a teacher's words (decision 0073).
		await service(strapi, 'api::authoring.editor-view').configure()
		// The six locales of the app are Strapi's locales; en is the default.
		const locales = strapi.plugin('i18n').service('locales')
		const existing = new Set((await locales.find()).map((l: { code: string }) => l.code))
		if (!existing.has('en')) await locales.create({ code: 'en', name: 'English (en)' })
		for (const [code, name] of LOCALES) if (!existing.has(code)) await locales.create({ code, name })
		await locales.setDefaultLocale({ code: 'en' })
	},

	destroy({ strapi }: { strapi: Core.Strapi }) {
		service(strapi, 'api::content.revalidation')?.stop()
	},
}
