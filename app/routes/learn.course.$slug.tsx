import { Form, Link } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { ContentLanguage } from '#app/content/content-language.tsx'
import { Notice, Submit, RedirectNotice } from '#app/ui/feedback.tsx'
import { PreviewBanner, ProgressBar } from '#app/learning/learning.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { courseProgress, isActiveEnrollment, requireCourseOrPreview } from '#app/learning/learning.server.ts'
import { previewBanner, previewSearch } from '#app/learning/preview.server.ts'
import { courseResult } from '#app/learning/course-result.server.ts'
import { formatMinutes, formatPrice } from '#app/i18n/format.ts'
import { renderMarkdown } from '#app/content/markdown.server.ts'
import { heroImage } from '#app/content/images.server.ts'
import { getSession } from '#app/accounts/session.server.ts'
import { LEARNING_NOTICES } from '#app/platform/notices.ts'
import { courseDueLines } from '#app/learning/due-dates.server.ts'
import { DueBadge, DueList } from '#app/learning/due-list.tsx'
import type { Course } from '#app/content/content.ts'
import type { Route } from './+types/learn.course.$slug.ts'
import type { IndexableHandle } from '#app/root.tsx'
import { describePage, isoMinutes, organization } from '#app/content/seo.ts'

// The landing is what search engines index; the enrolled course home is the learner's own.
export const handle = {
	indexable: (data: { view: 'landing' | 'home' }) => data?.view === 'landing',
} satisfies IndexableHandle

/** The landing's outline: each module's entries by title and type, in the locale each is served in. */
function landingOutline(course: Course) {
	return course.modules.map((m) => ({
		slug: m.slug,
		title: m.title,
		locale: m.locale ?? course.locale,
		entries: m.entries.map((e) => ({
			slug: e.slug,
			title: e.title,
			locale: e.locale ?? course.locale,
			type: e.type,
		})),
	}))
}

/** The public landing for visitors and unenrolled users; the course home once enrolled (or previewing). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const session = getSession(context)
	// A draft answers only staff previewing it (issue 40); it is then always the preview below.
	const { course, draft, preview } = await requireCourseOrPreview(ctx, params.slug, request, session)
	const scope = session && ctx.tenant ? { tenantId: ctx.tenant.id, userId: session.user.id } : null
	// A preview reads no standing (it has none); a visitor has none either, and sees the landing.
	const progress = preview || scope ? await courseProgress(ctx, preview ? null : scope, course) : null
	const summary = {
		slug: course.slug,
		title: course.title,
		summary: course.summary,
		descriptionHtml: await renderMarkdown(ctx, course.description, { courseSlug: course.slug }),
		// The course's picture (decision 0082), resized by the asset route (`?w=`) like every content image.
		image: course.image ? await heroImage(ctx, course.image, course.slug) : null,
		price: course.price,
		estimatedMinutes: course.estimatedMinutes,
		locale: ctx.locale,
		// The locale the course's title was served in (en when it has no translation in the page's locale);
		// the description and each module and entry title say their own (decision 0012).
		contentLocale: course.locale,
		descriptionLocale: course.descriptionLocale ?? course.locale,
	}
	if (!progress || (!preview && !isActiveEnrollment(progress.enrollment))) {
		return {
			view: 'landing' as const,
			...summary,
			signedIn: Boolean(session),
			enrollmentStatus: progress?.enrollment?.status ?? null,
			modules: landingOutline(course),
		}
	}
	const { entries, completed, locks, continueSlug, percent, enrollment } = progress
	// Every due entry of this course for this learner (decision 0045), in their zone; none in a preview.
	// The standing read above is passed on, not read again (issue 47).
	const [due, result] =
		preview || !scope
			? [null, null]
			: await Promise.all([
					courseDueLines(ctx, scope, course, progress),
					courseResult(ctx, scope, course, progress.completed),
				])
	const dueOf = new Map(due?.lines.map((line) => [line.entrySlug, line]))
	return {
		view: 'home' as const,
		...summary,
		preview: Boolean(preview),
		// What the preview's links carry to stay in it, and whom a CMS link is for (decision 0100).
		previewSearch: previewSearch(preview),
		previewLink: previewBanner(ctx, preview),
		draft,
		status: enrollment?.status ?? null,
		// Passed or not by the course's rule, and what remains (decision 0037); judged from the learner's rows now.
		result,
		percent,
		completedCount: completed.size,
		total: entries.length,
		continueSlug,
		due: due && { timeZone: due.timeZone, soon: due.lines.filter((x) => x.state === 'overdue' || x.state === 'soon') },
		modules: course.modules.map((m) => ({
			slug: m.slug,
			title: m.title,
			locale: m.locale ?? course.locale,
			entries: entries
				.filter((e) => e.moduleSlug === m.slug)
				.map((e) => ({
					slug: e.slug,
					title: e.title,
					locale: e.locale,
					type: e.type,
					done: completed.has(e.slug),
					// The entry's own result beside its state (issue 52): "Complete · Not passed".
					passed: result?.entries[e.slug] ?? null,
					locked: Boolean(locks.get(e.slug)),
					due: dueOf.get(e.slug) ?? null,
				})),
		})),
	}
}

export const meta: Route.MetaFunction = ({ loaderData: course, matches }) => {
	const t = metaI18n(matches)
	if (!course) return [{ title: t.m.learning.course.fallbackTitle }]
	if (course.view === 'home') return [{ title: course.title }]
	return describePage(matches, {
		title: course.title,
		description: course.summary,
		trail: [
			{ name: t.m.learning.catalogue.title, path: '/learn' },
			{ name: course.title, path: `/learn/course/${course.slug}` },
		],
		// Google's Course info: provider, offers (free or paid) and, when its workload is known, an online instance.
		structuredData: [
			{
				'@type': 'Course',
				name: course.title,
				description: course.summary || course.title,
				inLanguage: course.contentLocale,
				provider: organization(matches),
				offers: [
					course.price
						? {
								'@type': 'Offer',
								category: 'Paid',
								price: course.price.amount / 100,
								priceCurrency: course.price.currency,
							}
						: { '@type': 'Offer', category: 'Free', price: 0 },
				],
				...(course.estimatedMinutes
					? {
							hasCourseInstance: [
								{
									'@type': 'CourseInstance',
									courseMode: 'Online',
									courseWorkload: isoMinutes(course.estimatedMinutes),
								},
							],
						}
					: {}),
			},
		],
	})
}

export default function CoursePage({ loaderData: data }: Route.ComponentProps) {
	const t = useI18n()
	const l = t.m.learning
	const q = data.view === 'home' ? data.previewSearch : ''
	return (
		<article className="course">
			{data.view === 'home' && data.preview ? <PreviewBanner draft={data.draft} link={data.previewLink} /> : null}
			<RedirectNotice accept={LEARNING_NOTICES} />
			<h1 lang={data.contentLocale}>{data.title}</h1>
			<ContentLanguage served={data.view === 'landing' ? data.descriptionLocale : data.contentLocale} />
			{data.view === 'landing' ? (
				<>
					{data.image ? <img className="hero" {...data.image} alt="" fetchPriority="high" /> : null}
					<div
						className="prose"
						lang={data.descriptionLocale}
						dangerouslySetInnerHTML={{ __html: data.descriptionHtml }}
					/>
					<p className="meta">
						<span className={data.price ? 'badge' : 'badge badge-free'}>
							{data.price ? formatPrice(data.price, data.locale) : t.m.common.free}
						</span>
						{data.estimatedMinutes ? <span>{formatMinutes(data.estimatedMinutes, data.locale)}</span> : null}
					</p>
					{data.enrollmentStatus === 'pending' ? (
						<Notice tone="error">{l.course.pending}</Notice>
					) : data.price ? (
						<Notice tone="info">{l.course.paid}</Notice>
					) : (
						// Router paths take no locale prefix: React Router adds the page's basename (/es).
						<Form method="post" action={`/learn/course/${data.slug}/enroll`} className="actions">
							<Submit>
								{data.enrollmentStatus === 'cancelled'
									? l.enrollAgain
									: data.signedIn
										? l.enrollFree
										: l.course.signInToEnroll}
							</Submit>
							{/* A visitor without an account makes one and comes back here (issue 40). */}
							{data.signedIn ? null : (
								<a
									className="button button-secondary"
									href={t.href(`/learn/sign-up?${new URLSearchParams({ callbackUrl: `/learn/course/${data.slug}` })}`)}
								>
									{l.course.createAccount}
								</a>
							)}
						</Form>
					)}
					<h2>{l.course.outline}</h2>
					<ol className="outline">
						{data.modules.map((m) => (
							<li key={m.slug}>
								<strong lang={m.locale}>{m.title}</strong>
								<ul>
									{m.entries.map((e) => (
										<li key={e.slug}>
											<span lang={e.locale}>{e.title}</span>{' '}
											<span className="hint">{t.format(l.course.typeHint, { type: l.entryTypes[e.type] })}</span>
										</li>
									))}
								</ul>
							</li>
						))}
					</ol>
				</>
			) : (
				<>
					<ProgressBar
						percent={data.percent}
						label={[
							t.plural(l.entriesComplete, data.total, { done: t.number(data.completedCount) }),
							// The course's own result (its pass rules) beside the spec's progress (issue 52).
							data.result ? (data.result.passed ? l.result.passed : l.result.notPassed) : null,
						]
							.filter(Boolean)
							.join(' · ')}
					/>
					{data.result ? <ResultPanel result={data.result} courseSlug={data.slug} /> : null}
					{data.continueSlug ? (
						<p>
							<Link
								className="button"
								prefetch="intent"
								to={`/learn/course/${data.slug}/entry/${data.continueSlug}${q}`}
							>
								{data.completedCount ? l.continue : l.course.start}
							</Link>
						</p>
					) : null}
					{data.due && data.due.soon.length ? <DueList lines={data.due.soon} timeZone={data.due.timeZone} /> : null}
					{data.modules.map((m) => (
						<section key={m.slug} aria-labelledby={`module-${m.slug}`}>
							<h2 id={`module-${m.slug}`} lang={m.locale}>
								{m.title}
							</h2>
							<ol className="entries">
								{m.entries.map((e) => (
									<li key={e.slug} className={e.done ? 'entry entry-done' : e.locked ? 'entry entry-locked' : 'entry'}>
										{e.locked ? (
											<span lang={e.locale}>{e.title}</span>
										) : (
											<Link prefetch="intent" to={`/learn/course/${data.slug}/entry/${e.slug}${q}`} lang={e.locale}>
												{e.title}
											</Link>
										)}{' '}
										<span className="hint">
											{l.entryTypes[e.type]} ·{' '}
											{e.done ? l.course.state.done : e.locked ? l.course.state.locked : l.course.state.open}
											{e.passed === null ? null : ` · ${e.passed ? l.result.passed : l.result.notPassed}`}
										</span>
										{e.due ? (
											<>
												<br />
												<DueBadge line={e.due} />
											</>
										) : null}
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

type ResultData = NonNullable<Extract<Route.ComponentProps['loaderData'], { view: 'home' }>['result']>

/** Completed and passed, or what remains to pass, each entry named in the language it was served in. */
function ResultPanel({ result, courseSlug }: { result: ResultData; courseSlug: string }) {
	const t = useI18n()
	const r = t.m.learning.result
	const entryLink = (slug: string, title: string, lang: string) => (
		<Link to={`/learn/course/${courseSlug}/entry/${slug}`} lang={lang}>
			{title}
		</Link>
	)
	return (
		<section aria-labelledby="result-heading" className="course-result">
			<h2 id="result-heading">
				{r.heading}:{' '}
				<span className={result.passed ? 'badge badge-ok' : 'badge'}>{result.passed ? r.passed : r.notPassed}</span>
			</h2>
			{result.passed ? (
				<Notice tone="ok">{t.m.learning.course.completed}</Notice>
			) : result.completed ? (
				<Notice tone="info">{r.notPassedNote}</Notice>
			) : null}
			{result.average !== null ? (
				<p className="hint">{t.format(r.averageIs, { average: t.percent(result.average) })}</p>
			) : null}
			{result.remaining.length ? (
				<>
					<p id="result-remaining">{r.remaining}</p>
					<ul aria-labelledby="result-remaining" className="result-remaining">
						{result.remaining.map((x) => (
							<li key={x.kind === 'quiz' || x.kind === 'assignment' ? x.slug : x.kind}>
								{x.kind === 'entries' ? (
									t.plural(r.entries, x.count)
								) : x.kind === 'average' ? (
									t.format(r.average, { minimum: t.percent(x.minimum), average: t.percent(x.average) })
								) : x.kind === 'quiz' ? (
									<>
										{entryLink(x.slug, x.title, x.locale)}:{' '}
										{x.best === null ? r.quiz : t.format(r.quizBest, { score: t.percent(x.best) })}
									</>
								) : (
									<>
										{entryLink(x.slug, x.title, x.locale)}: {r.assignment[x.state]}
									</>
								)}
							</li>
						))}
					</ul>
				</>
			) : null}
		</section>
	)
}
