import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { describePage, organization, rootData } from '#app/content/seo.ts'
import type { IndexableHandle } from '#app/root.tsx'
import type { Route } from './+types/home.ts'
import { RedirectNotice } from '#app/ui/feedback.tsx'
import { featuredCourses } from '#app/content/catalogue-search.server.ts'

export const handle = { indexable: true } satisfies IndexableHandle

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant) return { isApex: true, baseDomain: ctx.env.APP_BASE_DOMAIN, featured: null }
	const { courses, marked } = await featuredCourses(ctx)
	return {
		isApex: false,
		baseDomain: ctx.env.APP_BASE_DOMAIN,
		featured: {
			marked,
			courses: courses.map(({ slug, title, summary, locale, summaryLocale }) => ({
				slug,
				title,
				summary,
				locale,
				summaryLocale: summaryLocale ?? locale,
			})),
		},
	}
}

export const meta: Route.MetaFunction = ({ matches }) => {
	if (!rootData(matches)) return [{ title: metaI18n(matches).m.common.platformName }]
	return describePage(matches, {
		structuredData: [{ ...organization(matches), description: rootData(matches)?.site.description || undefined }],
	})
}

export default function Home({ loaderData, matches }: Route.ComponentProps) {
	const t = useI18n()
	const site = matches[0].loaderData.site
	return (
		<section className="hero">
			<RedirectNotice accept={['signedOut']} />
			<h1 lang={site.locale}>{site.name}</h1>
			<p className="lead" lang={site.descriptionLocale}>
				{site.description}
			</p>
			{loaderData.isApex ? (
				<p>{t.rich(t.m.content.home.apexIntro, { example: <code>yourschool.{loaderData.baseDomain}</code> })}</p>
			) : (
				<p>
					<a className="button" href={t.href('/learn')}>
						{t.m.content.home.browse}
					</a>
				</p>
			)}
			{loaderData.featured && loaderData.featured.courses.length > 0 ? (
				<section aria-labelledby="home-courses" className="home-courses">
					<h2 id="home-courses">{loaderData.featured.marked ? t.m.content.home.featured : t.m.content.home.newest}</h2>
					<ul className="cards">
						{loaderData.featured.courses.map((course) => (
							<li key={course.slug} className="card">
								<h3 lang={course.locale}>
									<a href={t.href(`/learn/course/${course.slug}`)}>{course.title}</a>
								</h3>
								<p lang={course.summaryLocale}>{course.summary}</p>
							</li>
						))}
					</ul>
				</section>
			) : null}
		</section>
	)
}
