/**
 * Reads a site's documents with their status as the content API names it: `published` when the
 * en document has a published version (served from that version), `archived` when that version
 * carries an archive date, else `draft` (served from the draft). en is the canonical document;
 * the requested locale's version of the same status supplies the translations (src/utils/view.ts).
 */
import type { Core } from '@strapi/strapi'
import {
	POPULATE,
	UID,
	type ContentUid,
	type DocumentOf,
	type Instant,
	type Status,
} from '../../../utils/content-types'

/**
 * Strapi's reads of any of these types. Its own types check a read's params and type its result from
 * schemas generated into the project (`strapi ts:generate-types`), which this one does not make; for a
 * uid that is a type parameter they accept no populate, sort or filter at all.
 */
type Reads = { findMany(params: object): Promise<unknown[]> }

/** A document of a site in the API's order: en's version (the published one when there is one), and its status. */
type Listed<U extends ContentUid> = { documentId: string; en: DocumentOf<U>; status: Status }

const statusOf = (published: { archivedAt?: Instant } | undefined): Status =>
	!published ? 'draft' : published.archivedAt ? 'archived' : 'published'

const documents = ({ strapi }: { strapi: Core.Strapi }) => {
	const find = <U extends ContentUid>(uid: U, filters: object, locale: string, status: 'draft' | 'published') =>
		(strapi.documents(uid) as unknown as Reads).findMany({
			filters,
			locale,
			status,
			populate: POPULATE[uid],
			sort: ['slug:asc', 'id:asc'],
		}) as Promise<DocumentOf<U>[]>

	/** Every document of a site in slug order, each as { documentId, en, status } (no translation yet). */
	async function list<U extends ContentUid>(uid: U, site: string, filters: object = {}): Promise<Listed<U>[]> {
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
	async function translate<U extends ContentUid>(uid: U, site: string, items: Listed<U>[], locale: string) {
		if (locale === 'en') return items.map((item) => ({ ...item, loc: item.en }))
		const wanted = (status: string) =>
			items.filter((i) => (i.status === 'draft') === (status === 'draft')).map((i) => i.documentId)
		const byStatus: Record<string, DocumentOf<U>[]> = {}
		for (const status of ['draft', 'published'] as const) {
			const ids = wanted(status)
			byStatus[status] = ids.length ? await find(uid, { site, documentId: { $in: ids } }, locale, status) : []
		}
		return items.map((item) => {
			const versions = byStatus[item.status === 'draft' ? 'draft' : 'published']
			return { ...item, loc: versions.find((v) => v.documentId === item.documentId) ?? null }
		})
	}

	async function one<U extends ContentUid>(uid: U, site: string, slug: string, locale: string) {
		const [item] = await list(uid, site, { slug })
		return item ? (await translate(uid, site, [item], locale))[0] : null
	}

	type SiteDoc = DocumentOf<typeof UID.site>
	async function siteDoc(key: string, locale: string): Promise<{ en: SiteDoc; loc: SiteDoc | null } | null> {
		const sites = strapi.documents(UID.site)
		const [en] = (await sites.findMany({ filters: { key }, locale: 'en', populate: POPULATE[UID.site] })) as SiteDoc[]
		if (!en) return null
		if (locale === 'en') return { en, loc: en }
		const [loc] = (await sites.findMany({ filters: { documentId: en.documentId }, locale })) as SiteDoc[]
		return { en, loc: loc ?? null }
	}

	return { list, translate, one, siteDoc }
}

export type Documents = ReturnType<typeof documents>
export default documents
