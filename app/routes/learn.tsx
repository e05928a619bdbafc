import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import {
	isFiltered,
	readCatalogueQuery,
	searchCatalogue,
	type CatalogueQuery,
} from '#app/content/catalogue-search.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { formatMinutes, formatPrice } from '#app/i18n/format.ts'
import { describePage, rootData } from '#app/content/seo.ts'
import type { IndexableHandle, RobotsHandle } from '#app/root.tsx'
import type { Route } from './+types/learn.ts'
import { notFound } from '#app/platform/errors.ts'

export async function loader({ context, request }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant) throw notFound()
	const query = readCatalogueQuery(new URL(request.url))
	const found = await searchCatalogue(ctx, query)
	return {
		locale: ctx.locale,
		query,
		filtered: isFiltered(query),
		total: found.total,
		page: found.page,
		pageCount: found.pageCount,
		categories: found.categories,
		tags: found.tags,
		// Each card keeps the locales its title and summary were served in (en when there is no translation).
		courses: found.courses.map(
			({ slug, title, summary, price, estimatedMinutes, entryCount, locale, summaryLocale }) => ({
				slug,
				title,
				summary,
				price,
				estimatedMinutes,
				entryCount,
				locale,
				summaryLocale: summaryLocale ?? locale,
			}),
		),
	}
}

// The plain catalogue is indexed; a search, a filter or a later page says noindex, follow (decision 0042).
export const handle = {
	indexable: (data: { filtered: boolean }) => data?.filtered === false,
	robots: 'noindex, follow',
} satisfies IndexableHandle & RobotsHandle

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const title = metaI18n(matches).m.learning.catalogue.title
	const origin = rootData(matches)?.canonicalOrigin ?? ''
	const tags = describePage(matches, {
		title,
		trail: [{ name: title, path: '/learn' }],
		// The catalogue as a list of courses (Google's course list is an ItemList of their landing URLs).
		structuredData: loaderData?.filtered
			? []
			: [
					{
						'@type': 'ItemList',
						name: title,
						itemListElement: (loaderData?.courses ?? []).map((course, i) => ({
							'@type': 'ListItem',
							position: i + 1,
							url: origin + localePath(loaderData!.locale, `/learn/course/${course.slug}`),
							name: course.title,
						})),
					},
				],
	})
	// A page crawlers are told not to index names no canonical (one signal, not two); the layout gives its description.
	return loaderData?.filtered
		? tags.filter((tag) => !('rel' in tag && tag.rel === 'canonical') && !('name' in tag && tag.name === 'description'))
		: tags
}

/** The catalogue's URL for a query, with only the parameters that say something. */
function catalogueHref(href: (path: string) => string, query: Partial<CatalogueQuery>) {
	const params = new URLSearchParams()
	if (query.q) params.set('q', query.q)
	if (query.category) params.set('category', query.category)
	if (query.tag) params.set('tag', query.tag)
	if (query.page && query.page > 1) params.set('page', String(query.page))
	const search = params.toString()
	return href('/learn') + (search ? `?${search}` : '')
}

export default function Catalogue({ loaderData }: Route.ComponentProps) {
	const { courses, locale, query, filtered, total, page, pageCount, categories, tags } = loaderData
	const t = useI18n()
	const m = t.m.learning.catalogue
	return (
		<>
			<h1>{m.title}</h1>
			<form method="get" action={t.href('/learn')} role="search" className="catalogue-search">
				<p className="field">
					<label htmlFor="catalogue-q">{m.searchLabel}</label>
					<input id="catalogue-q" type="search" name="q" defaultValue={query.q} maxLength={200} />
				</p>
				<FacetSelect name="category" label={m.category} any={m.any} facets={categories} value={query.category} />
				<FacetSelect name="tag" label={m.tag} any={m.any} facets={tags} value={query.tag} />
				<p>
					<button type="submit" className="button">
						{m.search}
					</button>
				</p>
			</form>
			{filtered && total > 0 ? (
				<p role="status" className="catalogue-count">
					{query.q ? t.plural(m.results, total, { q: query.q }) : t.plural(m.filtered, total)}
				</p>
			) : null}
			{courses.length === 0 ? (
				filtered ? (
					<div className="empty" role="status">
						<p>{query.q ? t.format(m.noMatch, { q: query.q }) : m.noMatchFiltered}</p>
						<p>{m.noMatchHint}</p>
						<p>
							<a href={t.href('/learn')}>{m.showAll}</a>
						</p>
					</div>
				) : (
					<p className="empty">{m.empty}</p>
				)
			) : (
				<ul className="cards" aria-label={m.listLabel}>
					{courses.map((course) => (
						<li key={course.slug} className="card">
							<h2 lang={course.locale}>
								<a href={t.href(`/learn/course/${course.slug}`)}>{course.title}</a>
							</h2>
							<p lang={course.summaryLocale}>{course.summary}</p>
							<p className="meta">
								<span className={course.price ? 'badge' : 'badge badge-free'}>
									{course.price ? formatPrice(course.price, locale) : t.m.common.free}
								</span>
								{course.estimatedMinutes ? <span>{formatMinutes(course.estimatedMinutes, locale)}</span> : null}
								<span>{t.plural(m.entries, course.entryCount)}</span>
							</p>
						</li>
					))}
				</ul>
			)}
			{pageCount > 1 ? (
				<nav aria-label={m.pages} className="pager">
					{page > 1 ? (
						<a rel="prev" href={catalogueHref(t.href, { ...query, page: page - 1 })}>
							{m.previous}
						</a>
					) : null}
					<span>{t.format(m.pageOf, { page, count: pageCount })}</span>
					{page < pageCount ? (
						<a rel="next" href={catalogueHref(t.href, { ...query, page: page + 1 })}>
							{m.next}
						</a>
					) : null}
				</nav>
			) : null}
		</>
	)
}

/** A filter of the catalogue's form (categories, tags), when the content names any. */
function FacetSelect(props: {
	name: string
	label: string
	any: string
	facets: Array<{ slug: string; name: string; count: number }>
	value: string | null | undefined
}) {
	if (props.facets.length === 0) return null
	const id = `catalogue-${props.name}`
	return (
		<p className="field">
			<label htmlFor={id}>{props.label}</label>
			<select id={id} name={props.name} defaultValue={props.value ?? ''}>
				<option value="">{props.any}</option>
				{props.facets.map((c) => (
					<option key={c.slug} value={c.slug}>
						{c.name} ({c.count})
					</option>
				))}
			</select>
		</p>
	)
}
