import { data, Form, redirect } from 'react-router'
import { Notice, Submit } from '#app/components/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { requireSession } from '#app/utils/auth.server.ts'
import { limitAction, TOO_MANY } from '#app/utils/forms.server.ts'
import { formatPrice } from '#app/utils/format.ts'
import { noticeText } from '#app/utils/notices.ts'
import { enrollInCourse, isActiveEnrollment, requireCourse } from '#app/utils/learning.server.ts'
import { findEnrollment } from '#db/learning.ts'
import type { Route } from './+types/learn.course.$slug.enroll.ts'

const PAID = 'This course is paid, and online payment is not available on this site yet. Nothing was charged. Contact the site’s administrator to join it.'

/** Confirmation page (the landing's button posts here directly). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	const session = requireSession(context, request)
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const enrollment = await findEnrollment(ctx.db, { tenantId: ctx.tenant!.id, userId: session.user.id }, course.slug)
	// Already enrolled: a page that says so rather than a redirect, so that a refused post (429) keeps its status.
	return { slug: course.slug, title: course.title, price: course.price, locale: ctx.locale, again: enrollment?.status === 'cancelled', enrolled: isActiveEnrollment(enrollment) }
}

// enrollInCourse
export async function action({ request, context, params }: Route.ActionArgs) {
	const session = requireSession(context, request)
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const scope = { tenantId: ctx.tenant!.id, userId: session.user.id }
	const limited = await limitAction(ctx, 'enrollment', `user|${scope.userId}`, { error: TOO_MANY })
	if (limited) return limited
	const outcome = await enrollInCourse(ctx, scope, course)
	if (outcome.kind === 'paid') return data({ error: PAID }, { status: 501 })
	return redirect(`/learn/course/${course.slug}${outcome.change ? '?notice=enrolled' : ''}`)
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `Enroll · ${loaderData?.title ?? 'Course'}` }]

export default function Enroll({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<section className="narrow">
			<h1>Enroll in {loaderData.title}</h1>
			{actionData?.error ? <Notice tone="error">{actionData.error}</Notice> : null}
			{loaderData.enrolled ? (
				<p>
					{`${noticeText('already_enrolled')} `}
					<a href={`/learn/course/${loaderData.slug}`}>Go to the course</a>
				</p>
			) : loaderData.price ? (
				<>
					<p>
						Price: <strong>{formatPrice(loaderData.price, loaderData.locale)}</strong>
					</p>
					{actionData?.error ? null : <Notice tone="info">Online payment is not available on this site yet.</Notice>}
				</>
			) : (
				<Form method="post" className="stack">
					<p>{loaderData.again ? 'Welcome back. Your earlier progress is kept.' : 'This course is free. You can start right away.'}</p>
					<div className="actions">
						<Submit>{loaderData.again ? 'Enroll again' : 'Enroll for free'}</Submit>
						<a href={`/learn/course/${loaderData.slug}`}>Back to the course</a>
					</div>
				</Form>
			)}
		</section>
	)
}
