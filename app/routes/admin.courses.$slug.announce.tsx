import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, TextAreaField, useActionForm } from '#app/ui/form.tsx'
import { adminAction, courseAdminPage } from '#app/admin/admin.server.ts'
import { limitForm, readForm } from '#app/platform/forms.server.ts'
import { POLICIES } from '#app/platform/rate-limit.server.ts'
import { latestAnnouncements, postAnnouncement } from '#app/reminders/announcements.server.ts'
import type { Route } from './+types/admin.courses.$slug.announce.ts'
import { CourseAdminHeading, TenantHint } from '#app/admin/headings.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { withNotice } from '#app/platform/notices.ts'
import { DISPLAY_TEXT, NO_NUL } from '#app/platform/validation.ts'

const required = 'common.validation.required'
const schema = z.object({
	// A mail's subject line: no control characters (a NUL PostgreSQL cannot store, a line break in a header).
	subject: z
		.string({ error: required })
		.trim()
		.min(1, required)
		.max(100, 'common.validation.max100')
		.regex(DISPLAY_TEXT, 'common.validation.controlCharacters'),
	message: z
		.string({ error: required })
		.trim()
		.min(1, required)
		.max(5000, 'common.validation.max5000')
		.regex(NO_NUL, 'common.validation.controlCharacters'),
})

const RECENT_DAYS = 30

export const handle = { scripts: true } satisfies ScriptsHandle

/** Course staff (its course admins, tenant admins) write to the course's enrolled learners (decision 0047). */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return page
	return {
		...page,
		perDay: POLICIES.announcement.points,
		recent: await latestAnnouncements(scope.ctx, tenant.id, course.slug, RECENT_DAYS),
	}
}

export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		// Per course, whoever of its staff writes: each announcement mails every learner of the course.
		const tooMany = await limitForm(scope.ctx, 'announcement', `course|${tenant.id}|${course.slug}`, submission)
		if (tooMany) return tooMany
		await postAnnouncement(scope, tenant, course.slug, submission.value)
		return redirect(
			localePath(scope.ctx.locale, withNotice(`/admin/courses/${course.slug}/announce`, 'announcementSent')),
		)
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [
	{ title: metaI18n(matches).m.adminCourses.announce.metaTitle },
]

export default function CourseAnnounce({ loaderData: d, actionData }: Route.ComponentProps) {
	const [form, fields] = useActionForm(actionData?.result)
	const t = useI18n()
	const m = t.m.adminCourses
	if (d.hint) return <TenantHint title={m.announce.hintTitle} what={m.announce.hintWhat} />
	return (
		<section className="narrow stack">
			<CourseAdminHeading course={d.course} title={m.announce.title} />
			<RedirectNotice accept={['announcementSent']} />
			<p>{m.announce.intro}</p>
			<p>{t.format(m.announce.limit, { count: String(d.perDay) })}</p>
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<Field label={m.announce.subject} meta={fields.subject} autoComplete="off" />
				<TextAreaField label={m.announce.message} meta={fields.message} rows={8} />
				<Submit>{m.announce.send}</Submit>
			</Form>
			<h2>{m.announce.recent}</h2>
			{d.recent.length === 0 ? (
				<p className="empty">{m.announce.empty}</p>
			) : (
				<ul>
					{d.recent.map((a) => (
						<li key={a.id}>
							<time dateTime={a.at}>{t.date(a.at)}</time> · {a.subject}
						</li>
					))}
				</ul>
			)}
		</section>
	)
}
