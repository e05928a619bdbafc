/**
 * The content manager's home page counts (`GET /content-manager/homepage/count-documents`), for an
 * author, of their own sites' documents only. Strapi counts them with raw queries over whole tables,
 * which no permission condition and no Document Service middleware sees, so an author read how many
 * courses, pages and categories every other school had, and watched them change. Platform editors
 * keep Strapi's own count. The buckets are Strapi's (draft, published, modified).
 */
import type { Core } from '@strapi/strapi'
import { isPlatformEditor, sitesOf, type AdminUser } from '../../utils/tenants'

type Counts = { draft: number; published: number; modified: number }
type Homepage = { getCountDocuments(): Promise<Counts> } & Record<string, unknown>
type Plugin = { services: Record<string, (deps: { strapi: Core.Strapi }) => Homepage> }

/** The types an author writes, with the column naming their site; draft and publish or not. */
const OWNED: [uid: string, owner: string][] = [
	['api::course.course', 'site'],
	['api::page.page', 'site'],
	['api::blog-post.blog-post', 'site'],
	['api::category.category', 'site'],
	['api::tag.tag', 'site'],
	['api::site.site', 'key'],
]

async function ownCounts(strapi: Core.Strapi, sites: string[]): Promise<Counts> {
	const knex = strapi.db.connection
	const counts: Counts = { draft: 0, published: 0, modified: 0 }
	for (const [uid, owner] of OWNED) {
		const type = strapi.contentType(uid as Parameters<Core.Strapi['contentType']>[0])
		const table = type.collectionName!
		const own = knex(table).whereIn(owner, sites.length ? sites : ['-'])
		if (!type.options?.draftAndPublish) {
			const row = await own.countDistinct('document_id as count').first()
			counts.published += Number(row?.count) || 0
			continue
		}
		// Strapi's buckets: never published; published as it is; published and changed since.
		const classified = own
			.select('document_id')
			.select(
				knex.raw(`CASE
					WHEN MAX(CASE WHEN published_at IS NOT NULL THEN 1 ELSE 0 END) = 0 THEN 'draft'
					WHEN MAX(CASE WHEN published_at IS NULL THEN updated_at END) =
						MAX(CASE WHEN published_at IS NOT NULL THEN updated_at END) THEN 'published'
					ELSE 'modified' END AS bucket`),
			)
			.groupBy('document_id')
		const row = await knex
			.from(classified.as('classified'))
			.select(
				knex.raw(`COUNT(CASE WHEN bucket = 'draft' THEN 1 END) AS draft,
					COUNT(CASE WHEN bucket = 'published' THEN 1 END) AS published,
					COUNT(CASE WHEN bucket = 'modified' THEN 1 END) AS modified`),
			)
			.first()
		counts.draft += Number(row?.draft) || 0
		counts.published += Number(row?.published) || 0
		counts.modified += Number(row?.modified) || 0
	}
	return counts
}

export default (plugin: Plugin) => {
	const homepage = plugin.services.homepage
	plugin.services.homepage = (deps) => {
		const own = homepage(deps)
		const strapiCount = own.getCountDocuments
		return {
			...own,
			async getCountDocuments() {
				const user: AdminUser | undefined = deps.strapi.requestContext.get()?.state?.user
				if (!user || isPlatformEditor(user)) return strapiCount.call(this)
				return ownCounts(deps.strapi, sitesOf(user))
			},
		}
	}
	return plugin
}
