import { Form } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { Notice, Submit } from '#app/components/form.tsx'
import { PreviewBanner, ProgressBar } from '#app/components/learning.tsx'
import { canPreview, courseProgress, isActiveEnrollment, requireCourse, wantsPreview } from '#app/utils/learning.server.ts'
import { formatMinutes, formatPrice } from '#app/utils/format.ts'
import { renderMarkdown } from '#app/utils/markdown.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import { noticeText } from '#app/utils/notices.ts'
import type { Route } from './+types/learn.course.$slug.ts'

/** The public landing for visitors and unenrolled users; the course home once enrolled (or previewing). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const session = getSession(context)
	const preview = wantsPreview(request) && canPreview(session, course.slug)
	const scope = session && ctx.tenant ? { tenantId: ctx.tenant.id, userId: session.user.id } : null
	const progress = scope ? await courseProgress(ctx, scope, course, preview) : null
	const summary = {
		slug: course.slug,
		title: course.title,
		descriptionHtml: renderMarkdown(course.description),
		price: course.price,
		estimatedMinutes: course.estimatedMinutes,
		locale: ctx.locale,
		notice: new URL(request.url).searchParams.get('notice'),
	}
	if (!progress || (!preview && !isActiveEnrollment(progress.enrollment))) {
		return {
			view: 'landing' as const,
			...summary,
			signedIn: Boolean(session),
			enrollmentStatus: progress?.enrollment?.status ?? null,
			modules: course.modules.map((m) => ({ slug: m.slug, title: m.title, entries: m.entries.map((e) => ({ slug: e.slug, title: e.title, type: e.type })) })),
		}
	}
	const { entries, completed, locks, continueSlug, percent, enrollment } = progress
	return {
		view: 'home' as const,
		...summary,
		preview,
		status: enrollment?.status ?? null,
		percent,
		completedCount: completed.size,
		total: entries.length,
		continueSlug,
		modules: course.modules.map((m) => ({
			slug: m.slug,
			title: m.title,
			entries: entries
				.filter((e) => e.moduleSlug === m.slug)
				.map((e) => ({ slug: e.slug, title: e.title, type: e.type, done: completed.has(e.slug), locked: Boolean(locks.get(e.slug)) })),
		})),
	}
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title ?? 'Course' }]

const TYPE_LABEL = { lesson: 'Lesson', quiz: 'Quiz', assignment: 'Assignment' } as const

export default function CoursePage({ loaderData: data }: Route.ComponentProps) {
	const q = data.view === 'home' && data.preview ? '?preview=1' : ''
	return (
		<article className="course">
			{data.view === 'home' && data.preview ? <PreviewBanner /> : null}
			{data.notice ? <Notice tone="info">{noticeText(data.notice)}</Notice> : null}
			<h1>{data.title}</h1>
			{data.view === 'landing' ? (
				<>
					<div className="prose" dangerouslySetInnerHTML={{ __html: data.descriptionHtml }} />
					<p className="meta">
						<span className={data.price ? 'badge' : 'badge badge-free'}>{data.price ? formatPrice(data.price, data.locale) : 'Free'}</span>
						{data.estimatedMinutes ? <span>{formatMinutes(data.estimatedMinutes, data.locale)}</span> : null}
					</p>
					{data.enrollmentStatus === 'pending' ? (
						<Notice tone="error">Your enrollment is waiting for payment, and payments are not available on this site yet. Contact the site's administrator.</Notice>
					) : data.price ? (
						<Notice tone="info">This is a paid course. Online payment is not available yet.</Notice>
					) : (
						<Form method="post" action={`/learn/course/${data.slug}/enroll`}>
							<Submit>{data.enrollmentStatus === 'cancelled' ? 'Enroll again' : data.signedIn ? 'Enroll for free' : 'Sign in to enroll'}</Submit>
						</Form>
					)}
					<h2>What you will learn</h2>
					<ol className="outline">
						{data.modules.map((m) => (
							<li key={m.slug}>
								<strong>{m.title}</strong>
								<ul>
									{m.entries.map((e) => (
										<li key={e.slug}>
											{e.title} <span className="hint">({TYPE_LABEL[e.type]})</span>
										</li>
									))}
								</ul>
							</li>
						))}
					</ol>
				</>
			) : (
				<>
					<ProgressBar percent={data.percent} label={`${data.completedCount} of ${data.total} entries complete`} />
					{data.status === 'completed' ? <Notice tone="ok">You have completed this course. Well done!</Notice> : null}
					{data.continueSlug ? (
						<p>
							<a className="button" href={`/learn/course/${data.slug}/entry/${data.continueSlug}${q}`}>
								{data.completedCount ? 'Continue where you left off' : 'Start the course'}
							</a>
						</p>
					) : null}
					{data.modules.map((m) => (
						<section key={m.slug} aria-labelledby={`module-${m.slug}`}>
							<h2 id={`module-${m.slug}`}>{m.title}</h2>
							<ol className="entries">
								{m.entries.map((e) => (
									<li key={e.slug} className={e.done ? 'entry entry-done' : e.locked ? 'entry entry-locked' : 'entry'}>
										{e.locked ? <span>{e.title}</span> : <a href={`/learn/course/${data.slug}/entry/${e.slug}${q}`}>{e.title}</a>}{' '}
										<span className="hint">
											{TYPE_LABEL[e.type]} · {e.done ? 'Complete' : e.locked ? 'Locked' : 'Open'}
										</span>
									</li>
								))}
							</ol>
						</section>
					))}
				</>
			)}
		</article>
	)
}
