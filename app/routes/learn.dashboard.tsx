import { ProgressBar } from '#app/components/learning.tsx'
import { Link } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { requireSession } from '#app/utils/auth.server.ts'
import { readContent } from '#app/utils/cms.server.ts'
import { formatDate } from '#app/utils/format.ts'
import { flattenEntries } from '#app/utils/learning.server.ts'
import { listAllProgress, listEnrollments, recentAttempts } from '#db/learning.ts'
import type { Route } from './+types/learn.dashboard.ts'
import type { ScriptsHandle } from '#app/root.tsx'

// JavaScript earns its keep here: courses open client-side, prefetched on intent.
export const handle = { scripts: true } satisfies ScriptsHandle

/** The learner's home: enrolled courses with progress, entries to resume, recent quiz scores. Scoped by tenant and user. */
export async function loader({ context }: Route.LoaderArgs) {
	const { claims, user } = requireSession(context)
	const ctx = getRequestContext(context)
	if (!ctx.tenant)
		return { name: claims.name, email: claims.email, locale: ctx.locale, courses: [], resume: [], scores: [] }
	const scope = { tenantId: ctx.tenant.id, userId: user.id }
	const [enrollments, progress, attempts] = await Promise.all([
		listEnrollments(ctx.db, scope),
		listAllProgress(ctx.db, scope),
		recentAttempts(ctx.db, scope),
	])
	const visible = enrollments.filter((e) => e.status !== 'cancelled')
	// One content read per enrolled course, in parallel: titles, entry order and counts.
	const courses = await Promise.all(
		visible.map((e) =>
			readContent(`course ${e.course_slug}`, () => ctx.cms.course(ctx.site, e.course_slug, ctx.locale)),
		),
	)

	const cards = visible.flatMap((enrollment, i) => {
		const course = courses[i]
		if (!course) return []
		const entries = flattenEntries(course)
		const rows = progress.filter((p) => p.course_slug === course.slug)
		const done = new Set(rows.filter((r) => r.completed_at).map((r) => r.entry_slug))
		const completedCount = entries.filter((e) => done.has(e.slug)).length
		return [
			{
				slug: course.slug,
				title: course.title,
				// The locale the course's titles were served in (en when it has no translation).
				lang: course.locale,
				status: enrollment.status,
				percent: entries.length ? Math.round((completedCount / entries.length) * 100) : 0,
				completedCount,
				total: entries.length,
				entries,
				done,
			},
		]
	})
	// Resume across devices: the most recently viewed entries not yet complete.
	const resume = progress
		.filter((p) => p.last_viewed_at && !p.completed_at)
		.sort((a, b) => b.last_viewed_at!.getTime() - a.last_viewed_at!.getTime())
		.flatMap((p) => {
			const card = cards.find((c) => c.slug === p.course_slug)
			const entry = card?.entries.find((e) => e.slug === p.entry_slug)
			return card && entry && card.status !== 'pending'
				? [
						{
							href: `/learn/course/${card.slug}/entry/${entry.slug}`,
							title: entry.title,
							course: card.title,
							lang: card.lang,
							viewedAt: p.last_viewed_at!.toISOString(),
						},
					]
				: []
		})
		.slice(0, 5)
	const scores = attempts.map((a) => {
		const card = cards.find((c) => c.slug === a.course_slug)
		return {
			key: a.id,
			href: `/learn/course/${a.course_slug}/entry/${a.entry_slug}?attempt=${a.attempt_number}`,
			title: card?.entries.find((e) => e.slug === a.entry_slug)?.title ?? a.entry_slug,
			course: card?.title ?? a.course_slug,
			lang: card?.lang,
			score: a.score,
			passed: a.passed,
			attempt: a.attempt_number,
		}
	})
	return {
		name: claims.name,
		email: claims.email,
		locale: ctx.locale,
		courses: cards.map(({ entries: _e, done: _d, ...c }) => c),
		resume,
		scores,
	}
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.learning.dashboard.title }]

export default function Dashboard({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.learning.dashboard
	// The stored status shown as words; an unknown one is shown as stored.
	const status = (s: string) => (Object.hasOwn(m.status, s) ? m.status[s as keyof typeof m.status] : s)
	return (
		<section>
			<h1>{t.format(m.welcome, { name: d.name })}</h1>
			<p className="lead">{t.format(m.signedInAs, { email: d.email })}</p>
			{d.resume.length ? (
				<section aria-labelledby="resume-heading">
					<h2 id="resume-heading">{t.m.learning.continue}</h2>
					<ul className="resume">
						{d.resume.map((r) => (
							<li key={r.href}>
								<Link prefetch="intent" to={r.href} lang={r.lang}>
									{r.title}
								</Link>{' '}
								<span className="hint">
									{t.format(m.viewed, { course: r.course, date: formatDate(r.viewedAt, d.locale) })}
								</span>
							</li>
						))}
					</ul>
				</section>
			) : null}
			<h2>{m.myCourses}</h2>
			{d.courses.length === 0 ? (
				<p className="empty">
					{m.empty}{' '}
					<Link prefetch="intent" to={'/learn'}>
						{m.browse}
					</Link>
				</p>
			) : (
				<ul className="cards" aria-label={m.myCourses}>
					{d.courses.map((c) => (
						<li key={c.slug} className="card">
							<h3 lang={c.lang}>
								<Link prefetch="intent" to={`/learn/course/${c.slug}`}>
									{c.title}
								</Link>
							</h3>
							<p className="hint">{status(c.status)}</p>
							<ProgressBar
								percent={c.percent}
								label={t.plural(t.m.learning.entriesComplete, c.total, { done: t.number(c.completedCount) })}
							/>
						</li>
					))}
				</ul>
			)}
			{d.scores.length ? (
				<section aria-labelledby="scores-heading">
					<h2 id="scores-heading">{m.scores}</h2>
					<table>
						<thead>
							<tr>
								<th scope="col">{m.columns.quiz}</th>
								<th scope="col">{m.columns.course}</th>
								<th scope="col">{m.columns.attempt}</th>
								<th scope="col">{m.columns.score}</th>
							</tr>
						</thead>
						<tbody>
							{d.scores.map((s) => (
								<tr key={s.key}>
									<td>
										<Link prefetch="intent" to={s.href} lang={s.lang}>
											{s.title}
										</Link>
									</td>
									<td lang={s.lang}>{s.course}</td>
									<td>{t.number(s.attempt)}</td>
									<td>{t.format(s.passed ? m.passed : m.notPassed, { score: t.percent(s.score) })}</td>
								</tr>
							))}
						</tbody>
					</table>
				</section>
			) : null}
		</section>
	)
}
