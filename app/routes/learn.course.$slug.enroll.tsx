import { data, Form, redirect } from 'react-router'
import { Notice, Submit, FormError } from '#app/ui/feedback.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { limitAction, TOO_MANY, formErrorResult } from '#app/platform/forms.server.ts'
import { formatPrice } from '#app/i18n/format.ts'
import { withNotice } from '#app/platform/notices.ts'
import { enrollInCourse, isActiveEnrollment, requireCourse } from '#app/learning/learning.server.ts'
import { findEnrollment } from '#app/learning/enrollments.server.ts'
import type { Route } from './+types/learn.course.$slug.enroll.ts'

// A catalogue key: the page shows it in its locale.
const PAID = 'learning.enroll.paid'

/** Confirmation page (the landing's button posts here directly). */
export async function loader({ context, params }: Route.LoaderArgs) {
	const session = requireSession(context)
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const enrollment = await findEnrollment(ctx.db, { tenantId: ctx.tenant!.id, userId: session.user.id }, course.slug)
	// Already enrolled: a page that says so rather than a redirect, so that a refused post (429) keeps its status.
	return {
		slug: course.slug,
		title: course.title,
		price: course.price,
		locale: ctx.locale,
		again: enrollment?.status === 'cancelled',
		enrolled: isActiveEnrollment(enrollment),
	}
}

// enrollInCourse
export async function action({ context, params }: Route.ActionArgs) {
	const session = requireSession(context)
	const ctx = getRequestContext(context)
	const course = await requireCourse(ctx, params.slug)
	const scope = { tenantId: ctx.tenant!.id, userId: session.user.id }
	const limited = await limitAction(ctx, 'enrollment', `user|${scope.userId}`, { result: formErrorResult(TOO_MANY) })
	if (limited) return limited
	const outcome = await enrollInCourse(ctx, scope, course)
	if (outcome.kind === 'paid') return data({ result: formErrorResult(PAID) }, { status: 501 })
	const home = `/learn/course/${course.slug}`
	return redirect(localePath(ctx.locale, outcome.change ? withNotice(home, 'enrolled') : home))
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	return [
		{
			title: t.format(t.m.learning.enroll.metaTitle, {
				course: loaderData?.title ?? t.m.learning.course.fallbackTitle,
			}),
		},
	]
}

export default function Enroll({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const l = t.m.learning
	return (
		<section className="narrow">
			<h1>{t.format(l.enroll.heading, { course: loaderData.title })}</h1>
			<FormError result={actionData?.result} />
			{loaderData.enrolled ? (
				<p>
					{`${t.m.common.notices.alreadyEnrolled} `}
					<a href={t.href(`/learn/course/${loaderData.slug}`)}>{l.enroll.goToCourse}</a>
				</p>
			) : loaderData.price ? (
				<>
					<p>
						{l.enroll.price} <strong>{formatPrice(loaderData.price, loaderData.locale)}</strong>
					</p>
					{actionData?.result ? null : <Notice tone="info">{l.enroll.paymentUnavailable}</Notice>}
				</>
			) : (
				<Form method="post" className="stack">
					<p>{loaderData.again ? l.enroll.welcomeBack : l.enroll.free}</p>
					<div className="actions">
						<Submit>{loaderData.again ? l.enrollAgain : l.enrollFree}</Submit>
						<a href={t.href(`/learn/course/${loaderData.slug}`)}>{l.backToCourse}</a>
					</div>
				</Form>
			)}
		</section>
	)
}
