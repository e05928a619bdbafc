import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { readCatalogue } from '#app/content/cms.server.ts'
import { isPublished } from '#app/content/content.ts'
import { localePath } from '#app/i18n/locales.ts'
import { formatMinutes, formatPrice } from '#app/platform/format.ts'
import { describePage, rootData } from '#app/content/seo.ts'
import type { IndexableHandle } from '#app/root.tsx'
import type { Route } from './+types/learn.ts'
import { notFound } from '#app/platform/errors.ts'

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant) throw notFound()
	const courses = await readCatalogue(ctx)
	return {
		locale: ctx.locale,
		courses: courses
			.filter((c) => isPublished(c) && c.listed)
			// Each card keeps the locales its title and summary were served in (en when there is no translation).
			.map(({ slug, title, summary, price, estimatedMinutes, entryCount, locale, summaryLocale }) => ({
				slug,
				title,
				summary,
				price,
				estimatedMinutes,
				entryCount,
				locale,
				summaryLocale: summaryLocale ?? locale,
			})),
	}
}

export const handle = { indexable: true } satisfies IndexableHandle

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const title = metaI18n(matches).m.learning.catalogue.title
	const origin = rootData(matches)?.canonicalOrigin ?? ''
	return describePage(matches, {
		title,
		trail: [{ name: title, path: '/learn' }],
		// The catalogue as a list of courses (Google's course list is an ItemList of their landing URLs).
		structuredData: [
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
}

export default function Catalogue({ loaderData }: Route.ComponentProps) {
	const { courses, locale } = loaderData
	const t = useI18n()
	const m = t.m.learning.catalogue
	return (
		<>
			<h1>{m.title}</h1>
			{courses.length === 0 ? (
				<p className="empty">{m.empty}</p>
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
		</>
	)
}
