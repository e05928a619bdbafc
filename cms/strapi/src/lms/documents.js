'use strict'
/**
 * Reads a site's documents with their status as the content API names it: `published` when the
 * en document has a published version (served from that version), `archived` when that version
 * carries an archive date, else `draft` (served from the draft). en is the canonical document;
 * the requested locale's version of the same status supplies the translations (view.js).
 */

const UID = {
	site: 'api::site.site',
	course: 'api::course.course',
	page: 'api::page.page',
	post: 'api::blog-post.blog-post',
}

const POPULATE = {
	[UID.site]: ['favicon', 'icon', 'og_image'],
	[UID.course]: {
		modules: {
			populate: {
				entries: { populate: { quiz: { populate: { questions: { populate: ['options'] } } }, assignment: true } },
			},
		},
		categories: true,
		tags: true,
		certificate: true,
		image: true,
	},
	[UID.page]: undefined,
	[UID.post]: ['hero'],
}

const statusOf = (published) => (!published ? 'draft' : published.archivedAt ? 'archived' : 'published')

function createDocuments(strapi) {
	const find = (uid, filters, locale, status) =>
		strapi.documents(uid).findMany({ filters, locale, status, populate: POPULATE[uid], sort: ['slug:asc', 'id:asc'] })

	/** Every document of a site in slug order, each as { documentId, en, status } (no translation yet). */
	async function list(uid, site, filters = {}) {
		const [drafts, published] = await Promise.all([
			find(uid, { site, ...filters }, 'en', 'draft'),
			find(uid, { site, ...filters }, 'en', 'published'),
		])
		const live = new Map(published.map((d) => [d.documentId, d]))
		return drafts.map((draft) => {
			const pub = live.get(draft.documentId)
			return { documentId: draft.documentId, en: pub ?? draft, status: statusOf(pub) }
		})
	}

	/** Adds `loc`, the requested locale's version (of the same status), to each item. */
	async function translate(uid, site, items, locale) {
		if (locale === 'en') return items.map((item) => ({ ...item, loc: item.en }))
		const wanted = (status) =>
			items.filter((i) => (i.status === 'draft') === (status === 'draft')).map((i) => i.documentId)
		const byStatus = {}
		for (const status of ['draft', 'published']) {
			const ids = wanted(status)
			byStatus[status] = ids.length ? await find(uid, { site, documentId: { $in: ids } }, locale, status) : []
		}
		return items.map((item) => {
			const versions = byStatus[item.status === 'draft' ? 'draft' : 'published']
			return { ...item, loc: versions.find((v) => v.documentId === item.documentId) ?? null }
		})
	}

	async function one(uid, site, slug, locale) {
		const [item] = await list(uid, site, { slug })
		return item ? (await translate(uid, site, [item], locale))[0] : null
	}

	async function siteDoc(key, locale) {
		const [en] = await strapi
			.documents(UID.site)
			.findMany({ filters: { key }, locale: 'en', populate: POPULATE[UID.site] })
		if (!en) return null
		if (locale === 'en') return { en, loc: en }
		const [loc] = await strapi.documents(UID.site).findMany({ filters: { documentId: en.documentId }, locale })
		return { en, loc: loc ?? null }
	}

	return { list, translate, one, siteDoc }
}

module.exports = { createDocuments, UID, POPULATE }
