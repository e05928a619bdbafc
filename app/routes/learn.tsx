import { getRequestContext } from '#app/context.ts'
import { readContent } from '#app/utils/cms.server.ts'
import { isPublished } from '#app/utils/content.ts'
import { formatMinutes, formatPrice } from '#app/utils/format.ts'
import type { Route } from './+types/learn.ts'

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant) throw new Response(null, { status: 404 })
	const courses = await readContent('catalogue', () => ctx.cms.courses(ctx.site, ctx.locale))
	return {
		locale: ctx.locale,
		courses: courses
			.filter((c) => isPublished(c) && c.listed)
			.map(({ slug, title, summary, price, estimatedMinutes, entryCount }) => ({ slug, title, summary, price, estimatedMinutes, entryCount })),
	}
}

export const meta: Route.MetaFunction = ({ matches }) => {
	const site = matches[0]?.loaderData && 'site' in matches[0].loaderData ? matches[0].loaderData.site : null
	return [{ title: `Courses · ${site?.name ?? 'Open LMS'}` }]
}

export default function Catalogue({ loaderData }: Route.ComponentProps) {
	const { courses, locale } = loaderData
	return (
		<>
			<h1>Courses</h1>
			{courses.length === 0 ? (
				<p className="empty">No courses are published yet.</p>
			) : (
				<ul className="cards" aria-label="Courses">
					{courses.map((course) => (
						<li key={course.slug} className="card">
							<h2>
								<a href={`/learn/course/${course.slug}`}>{course.title}</a>
							</h2>
							<p>{course.summary}</p>
							<p className="meta">
								<span className={course.price ? 'badge' : 'badge badge-free'}>
									{course.price ? formatPrice(course.price, locale) : 'Free'}
								</span>
								{course.estimatedMinutes ? <span>{formatMinutes(course.estimatedMinutes, locale)}</span> : null}
								<span>{course.entryCount} entries</span>
							</p>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
