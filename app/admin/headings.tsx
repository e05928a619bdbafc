import { Link } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import { Notice } from '../ui/feedback.tsx'

// Headings only admin pages show.

/** Shown to a super_admin on the apex for pages that belong to one tenant. */
export function TenantHint({ title, what }: { title: string; what: string }) {
	const t = useI18n()
	return (
		<section>
			<h1>{title}</h1>
			<Notice tone="info" role="note">
				{`${t.format(t.m.common.tenantHint.body, { what })} `}
				<a href={t.href('/admin/tenants')}>{t.m.common.tenantHint.open}</a> {t.m.common.tenantHint.after}
			</Notice>
		</section>
	)
}

/** The heading of a course's admin sub-page, under the way back to its dashboard. */
export function CourseAdminHeading({
	course,
	title,
}: {
	course: { slug: string; title: string; locale: string }
	/** A message with a {course} placeholder, filled with the course's title in its own language. */
	title: string
}) {
	const t = useI18n()
	return (
		<>
			<p>
				<Link prefetch="intent" to={`/admin/courses/${course.slug}/dashboard`}>
					{t.m.adminCourses.nav.backToDashboard}
				</Link>
			</p>
			<h1>{t.rich(title, { course: <span lang={course.locale}>{course.title}</span> })}</h1>
		</>
	)
}
