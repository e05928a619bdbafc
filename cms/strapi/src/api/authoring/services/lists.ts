/**
 * A site's categories and tags (decision 0098): two lists each site keeps (api::category.category,
 * api::tag.tag: a slug, the catalogue filter's value, and a name per locale), which its courses
 * relate to. Strapi makes every relation of a translated type per translation; a course is in the
 * same categories in every language, so a change of one translation's list is copied to the others
 * (the content API serves en's: src/utils/view.ts). The wall keeps them to the course's own site
 * (api::authoring.guard).
 */
import type { Core } from '@strapi/strapi'

const COURSE = 'api::course.course'
/** The course's fields relating to each list. */
export const LIST_FIELDS = { categories: 'api::category.category', tags: 'api::tag.tag' } as const
type Field = keyof typeof LIST_FIELDS
/** A draft version of a course, with the ids it lists (in their order). */
type Version = { id: number; locale?: string | null } & { [F in Field]?: { id: number }[] | null }

/** What a read of a course's versions populates to see the ids each lists. */
export const LISTED_IDS = { categories: { select: ['id'] }, tags: { select: ['id'] } }

/** The course's field relating to a list's type, or null for any other type. */
export const fieldOf = (uid: string): Field | null =>
	(Object.keys(LIST_FIELDS) as Field[]).find((field) => LIST_FIELDS[field] === uid) ?? null

/**
 * Whether a write's value of a relation changes it: the content manager sends `{ connect: [],
 * disconnect: [] }` for a list left as it was (a new translation's form included).
 */
export function changesRelation(value: unknown): boolean {
	if (value === undefined) return false
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return true
	const { connect, disconnect, set } = value as Record<string, unknown>
	return set !== undefined || [connect, disconnect].some((l) => (Array.isArray(l) ? l.length > 0 : l != null))
}

const ids = (version: Version | undefined, field: Field) => (version?.[field] ?? []).map((r) => r.id)

const lists = ({ strapi }: { strapi: Core.Strapi }) => ({
	/** The courses (every version) that list a category or tag: its change moves their catalogue entries. */
	coursesListing(uid: string, documentId: string): Promise<{ slug?: string | null }[]> {
		const field = fieldOf(uid)
		if (!field) return Promise.resolve([])
		return strapi.db.query(COURSE).findMany({ where: { [field]: { documentId } }, select: ['slug'] })
	},

	/**
	 * After a write of one translation's draft: a list it changed is copied to the other translations'
	 * drafts; a list it left empty (a new translation) is taken from one that has it.
	 */
	async align(documentId: string, locale: string, data: Record<string, unknown> | undefined) {
		const versions: Version[] = await strapi.db
			.query(COURSE)
			.findMany({ where: { documentId, publishedAt: null }, populate: LISTED_IDS, orderBy: { id: 'asc' } })
		const written = versions.find((v) => v.locale === locale)
		if (!written) return
		for (const field of Object.keys(LIST_FIELDS) as Field[]) {
			const source = changesRelation(data?.[field])
				? written
				: ids(written, field).length === 0
					? (versions.find((v) => v.locale === 'en' && ids(v, field).length) ??
						versions.find((v) => ids(v, field).length))
					: undefined
			if (!source) continue
			const wanted = ids(source, field)
			for (const version of versions)
				if (ids(version, field).join() !== wanted.join())
					await strapi.db.query(COURSE).update({ where: { id: version.id }, data: { [field]: wanted } })
		}
	},
})

export type Lists = ReturnType<typeof lists>
export default lists
