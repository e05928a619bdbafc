import { Link } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import { Notice } from '../ui/feedback.tsx'

/** Shown on every page of a course while staff preview it: nothing is recorded. */
/** Staff previewing; a course not published yet says so first (issue 40). */
export function PreviewBanner({ draft = false }: { draft?: boolean }) {
	const { m } = useI18n()
	return (
		<div className={draft ? 'banner banner-preview banner-draft' : 'banner banner-preview'} role="status">
			{draft ? (
				<p>
					<strong>{m.common.preview.draftTitle}</strong> {m.common.preview.draftBody}
				</p>
			) : null}
			<p>
				<strong>{m.common.preview.title}</strong> {m.common.preview.body}
			</p>
		</div>
	)
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
	const t = useI18n()
	return (
		<div className="progress">
			{/* The text beside it says the same: a screen reader hears it once, not as a bar and again as text. */}
			<progress max={100} value={percent} aria-hidden="true">
				{t.percent(percent)}
			</progress>
			<span>{`${t.percent(percent)} · ${label}`}</span>
		</div>
	)
}

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
