import type { Locale } from '#db/schema/values.ts'
import { scopedKey } from './cache-tags.server.ts'
import { readCatalogue, readContent, type CmsClient, type SiteKey } from './cms.server.ts'
import { isPublished, type Course, type CourseSummary } from './content.ts'
import { createCatalogueIndex, type CatalogueIndex, type FieldTexts } from './catalogue-index.ts'
import { LRUCache } from 'lru-cache'

// Finding a course (decisions 0042, 0074): the catalogue searched in memory over the published,
// listed courses the content cache already holds per site and locale, in a MiniSearch index kept
// in step with the cached documents. A school's catalogue is hundreds of courses, not millions.

const PAGE_SIZE = 12
/** A query is cut to this many characters; a longer one is no search anyone typed. */
export const MAX_QUERY_LENGTH = 200
/** How many course documents a first search reads from the content service at once. */
const READ_CONCURRENCY = 6

export interface CatalogueQuery {
	q: string
	category: string | null
	tag: string | null
	page: number
}

const SLUG = /^[a-z0-9-]{1,64}$/

/**
 * The catalogue's query from its URL: the first of each parameter (`?q=a&q=b` searches `a`),
 * control and other invisible characters read as spaces, at most MAX_QUERY_LENGTH characters (whole words);
 * a filter that is not a slug and a page that is not a number are ignored.
 */
export function readCatalogueQuery(url: URL): CatalogueQuery {
	const params = url.searchParams
	const chars = [...(params.get('q') ?? '').replace(/[\p{C}\s]+/gu, ' ').trim()]
	let q = chars.slice(0, MAX_QUERY_LENGTH).join('')
	// A query cut short loses its last, cut word rather than searching for a fragment of it.
	if (chars.length > MAX_QUERY_LENGTH && chars[MAX_QUERY_LENGTH] !== ' ' && q.includes(' '))
		q = q.slice(0, q.lastIndexOf(' '))
	q = q.trim()
	const slug = (name: string) => {
		const value = params.get(name)
		return value !== null && SLUG.test(value) ? value : null
	}
	const page = params.get('page') ?? '1'
	return { q, category: slug('category'), tag: slug('tag'), page: /^[1-9]\d{0,3}$/.test(page) ? Number(page) : 1 }
}

export const isFiltered = (query: CatalogueQuery) =>
	query.q !== '' || query.category !== null || query.tag !== null || query.page > 1

// One index per site and locale, each course filed once per document the content cache holds.
const indexes = new LRUCache<string, CatalogueIndex>({ max: 500 })

function courseTexts(summary: CourseSummary, course: Course | null): FieldTexts {
	const doc = course ?? summary
	const labels = [...(doc.categories ?? []), ...(doc.tags ?? [])].map((l) => l.name).join(' · ')
	const fields: FieldTexts = {
		title: [[doc.title, doc.locale]],
		labels: [[labels, doc.locale]],
		summary: [[doc.summary, doc.summaryLocale ?? doc.locale]],
	}
	if (course) {
		fields.description = [[course.description, course.descriptionLocale ?? course.locale]]
		fields.outline = course.modules.flatMap((module): Array<[string, Locale]> => [
			[module.title, module.locale ?? course.locale],
			...module.entries.map((entry): [string, Locale] => [entry.title, entry.locale ?? module.locale ?? course.locale]),
		])
	}
	return fields
}

/** The courses matching `q`, best first (ties in the content service's order). */
async function rank(ctx: SearchContext, q: string, visible: CourseSummary[], filtered: CourseSummary[]) {
	const courses = await mapBounded(filtered, READ_CONCURRENCY, (c) =>
		readContent(`course ${c.slug}`, () => ctx.cms.course(ctx.site, c.slug, ctx.locale)),
	)
	const key = scopedKey(ctx, ctx.locale)
	const index = indexes.get(key) ?? createCatalogueIndex()
	indexes.set(key, index)
	index.keepOnly(new Set(visible.map((c) => c.slug)))
	filtered.forEach((summary, i) =>
		index.put(summary.slug, courses[i] ?? summary, courseTexts(summary, courses[i] ?? null)),
	)
	const scores = index.search(q, ctx.locale, new Set(filtered.map((c) => c.slug)))
	return filtered
		.map((summary, i) => ({ summary, i, score: scores.get(summary.slug) ?? 0 }))
		.filter((r) => r.score > 0)
		.sort((a, b) => b.score - a.score || a.i - b.i)
		.map((r) => r.summary)
}

async function mapBounded<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length)
	let next = 0
	const worker = async () => {
		while (next < items.length) {
			const i = next++
			results[i] = await work(items[i]!)
		}
	}
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
	return results
}

interface Facet {
	slug: string
	name: string
	count: number
}

function facets(courses: CourseSummary[], pick: (c: CourseSummary) => CourseSummary['tags'], locale: Locale) {
	const all = new Map<string, Facet>()
	for (const course of courses)
		for (const { slug, name } of pick(course) ?? []) {
			const facet = all.get(slug) ?? { slug, name, count: 0 }
			facet.count++
			all.set(slug, facet)
		}
	return [...all.values()].sort((a, b) => a.name.localeCompare(b.name, locale))
}

type SearchContext = {
	cms: Pick<CmsClient, 'courses' | 'course'>
	site: SiteKey
	locale: Locale
	tags: { scope: string }
}

/** The catalogue's page for a query: its courses in rank order, the page of them asked for, and the filters on offer. */
export async function searchCatalogue(ctx: SearchContext, query: CatalogueQuery) {
	const visible = (await readCatalogue(ctx)).filter((c) => isPublished(c) && c.listed)
	const filtered = visible.filter(
		(c) =>
			(query.category === null || (c.categories ?? []).some((l) => l.slug === query.category)) &&
			(query.tag === null || (c.tags ?? []).some((l) => l.slug === query.tag)),
	)
	const ranked = query.q === '' ? filtered : await rank(ctx, query.q, visible, filtered)
	const pageCount = Math.max(1, Math.ceil(ranked.length / PAGE_SIZE))
	const page = Math.min(query.page, pageCount)
	return {
		courses: ranked.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
		total: ranked.length,
		page,
		pageCount,
		categories: facets(visible, (c) => c.categories, ctx.locale),
		tags: facets(visible, (c) => c.tags, ctx.locale),
	}
}

/** The courses the home page shows: those the content marks featured, else the newest. */
export async function featuredCourses(ctx: SearchContext, limit = 3) {
	const visible = (await readCatalogue(ctx)).filter((c) => isPublished(c) && c.listed)
	const featured = visible.filter((c) => c.featured === true)
	const chosen = featured.length ? featured : [...visible].sort((a, b) => b.publishedAt!.localeCompare(a.publishedAt!))
	return { courses: chosen.slice(0, limit), marked: featured.length > 0 }
}
