/**
 * A slug is unique within its site (not across tenants: two schools may both have `onboarding`):
 * the documents middleware of src/index.ts checks it on every write (api::authoring.guard, which
 * runs first, decides which site an author may write in), the database holds the same rule beneath
 * it, and a copy or a course whose slug was made from its title takes the next free one.
 */
import type { Core } from '@strapi/strapi'
import { errors } from '@strapi/utils'

/** A write's params, as far as slugs go. */
export type WriteParams = {
	documentId?: string
	locale?: string
	data?: Record<string, unknown> & { slug?: string; site?: string }
}
/** The rows the checks read: a version's site and slug. */
type Placed = { site?: string | null; slug?: string | null } | null

/** The types whose slugs are unique in their site, with the columns of the rule: per locale and version (draft or published) where they have them. */
const SLUGGED: Record<string, string> = {
	'api::course.course': 'site, slug, locale, (published_at is null)',
	'api::page.page': 'site, slug, locale, (published_at is null)',
	'api::blog-post.blog-post': 'site, slug, locale, (published_at is null)',
	// A site's categories and tags: one row each (not translated, no drafts).
	'api::category.category': 'site, slug',
	'api::tag.tag': 'site, slug',
}
const why = (error: unknown) => (error as { message?: unknown } | null | undefined)?.message ?? error

/** The index's refusal (a save that lost the race) as the editor's own message; null for any other error. */
export function slugTaken(error: unknown, params: WriteParams) {
	const e = error as { message?: string; cause?: { message?: string }; constraint?: string } | null | undefined
	const text = `${e?.message ?? ''} ${e?.cause?.message ?? ''} ${e?.constraint ?? ''}`
	if (!/_site_slug_unique/.test(text)) return null
	const slug = params.data?.slug ?? ''
	return new errors.ValidationError(`The slug "${slug}" is taken in this site`, {
		errors: [{ path: ['slug'], message: 'This slug is taken in this site', name: 'ValidationError' }],
	})
}

const slugs = ({ strapi }: { strapi: Core.Strapi }) => {
	/** `base`, or base-2, base-3… the first no document of the site but `documentId` has. */
	async function nextFreeSlug(uid: string, site: unknown, base: unknown, documentId: string | null | undefined) {
		for (let n = 1; ; n++) {
			const slug = n === 1 ? base : `${base}-${n}`
			const other = { site, slug, ...(documentId ? { documentId: { $ne: documentId } } : {}) }
			if (!site || !(await strapi.db.query(uid).findOne({ where: other, select: ['id'] }))) return slug
		}
	}

	return {
		/** Refuses a create or update that would give a slug taken in the document's site. */
		async check(uid: string, action: string, params: WriteParams) {
			const data = params.data ?? {}
			if (uid === 'api::site.site' || (action !== 'create' && action !== 'update')) return
			if (data.slug === undefined && data.site === undefined) return
			const current: Placed = params.documentId
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
		},

		/**
		 * The database holds the rule `check` checks (issue 50): two saves at once can both pass the
		 * check, and only one may store the slug. Per site, locale and version (draft or published: a
		 * document's two versions share their slug), in SQLite and PostgreSQL alike. Content stored before
		 * the rule that breaks it keeps the server starting: the check still runs, and the log says why.
		 */
		async ensureIndexes() {
			for (const [uid, columns] of Object.entries(SLUGGED)) {
				const table = strapi.getModel(uid as Parameters<Core.Strapi['getModel']>[0]).collectionName
				try {
					await strapi.db.connection.raw(
						`create unique index if not exists ${table}_site_slug_unique on ${table} (${columns})`,
					)
				} catch (error) {
					strapi.log.error(`[slugs] ${table}: no unique index on (site, slug): ${why(error)}`)
				}
			}
		},

		/** A slug made from a title, suffixed -2, -3… until no other course of its site has it. */
		async free(uid: string, params: WriteParams) {
			const stored: Placed = params.documentId
				? await strapi.db.query(uid).findOne({ where: { documentId: params.documentId }, select: ['site'] })
				: null
			return nextFreeSlug(uid, params.data?.site ?? stored?.site, params.data?.slug, params.documentId)
		},

		/** A clone's slug: the one asked for, or its source's, made free in the source's site. */
		async forClone(uid: string, params: WriteParams) {
			const source: Placed = await strapi.db
				.query(uid)
				.findOne({ where: { documentId: params.documentId }, select: ['site', 'slug'] })
			if (!source?.site) return
			params.data = { ...params.data }
			params.data.slug = (await nextFreeSlug(uid, source.site, params.data.slug || source.slug, null)) as string
		},
	}
}

export type Slugs = ReturnType<typeof slugs>
export default slugs
