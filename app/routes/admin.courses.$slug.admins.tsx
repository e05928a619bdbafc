import { askToConfirm, confirmed, readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { ConfirmStep, Submit, FormError, RedirectNotice, PostButton } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { adminAction, courseAdminPage, requireAdmin } from '#app/admin/admin.server.ts'
import { adminAudit } from '#app/platform/audit.server.ts'
import { emailField, recordId } from '#app/platform/validation.ts'
import { assignCourseAdmin, courseAssignments, revokeCourseAdmin } from '#app/admin/course-admins.server.ts'
import { findUserByEmail } from '#app/accounts/users.server.ts'
import type { Route } from './+types/admin.courses.$slug.admins.ts'
import { CourseAdminHeading, TenantHint } from '#app/admin/headings.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { notFound } from '#app/platform/errors.ts'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'

// One schema per form of the page, told apart by `intent`.
const schema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('assign'), email: emailField }),
	// An unknown or missing assignment is 404, as a page that does not exist.
	z.object({ intent: z.literal('revoke'), userId: recordId.optional(), ...confirmed }),
])

const ADMINS_NOTICES = ['courseAdminAssigned', 'courseAdminRevoked'] as const

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Who administers this course: tenant_admin and super_admin only (a course_admin gets 404, like any /admin page outside their courses' dashboards and settings). */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug, requireAdmin)
	if (!tenant) return page
	const rows = await courseAssignments(scope.ctx.db, tenant.id, course.slug)
	return {
		...page,
		admins: rows.map((r) => ({ userId: r.userId, name: r.name, email: r.email })),
	}
}

export const action = adminAction(
	{ scope: 'course', guard: requireAdmin },
	async ({ scope, tenant, course }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success')
			return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
		const { db } = scope.ctx
		const audit = (action: 'course.admin_assigned' | 'course.admin_revoked', userId: string) =>
			adminAudit(scope, action, { kind: 'user', id: userId, tenantId: tenant.id }, { courseSlug: course.slug })
		const done = (notice: NoticeName) =>
			redirect(localePath(scope.ctx.locale, withNotice(`/admin/courses/${course.slug}/admins`, notice)))

		if (submission.value.intent === 'revoke') {
			const userId = submission.value.userId ?? ''
			if (!submission.value.confirmed) {
				const assigned = (await courseAssignments(db, tenant.id, course.slug)).find((a) => a.userId === userId)
				if (!assigned) throw notFound()
				return askToConfirm({
					question: 'adminCourses.admins.confirmRevoke',
					button: 'adminCourses.admins.revoke',
					values: { name: assigned.name },
					fields: { intent: 'revoke', userId },
				})
			}
			const revoked = await revokeCourseAdmin(db, tenant.id, course.slug, userId, audit('course.admin_revoked', userId))
			if (!revoked) throw notFound()
			return done('courseAdminRevoked')
		}

		const user = await findUserByEmail(db, tenant.id, submission.value.email)
		if (!user)
			return data(
				{ result: submission.reply({ fieldErrors: { email: ['adminCourses.admins.unknownEmail'] } }) },
				{ status: 400 },
			)
		if (user.role !== 'course_admin')
			return data(
				{ result: submission.reply({ fieldErrors: { email: ['adminCourses.admins.notCourseAdmin'] } }) },
				{ status: 400 },
			)
		await assignCourseAdmin(
			db,
			{ tenantId: tenant.id, userId: user.id },
			course.slug,
			scope.session.user.id,
			audit('course.admin_assigned', user.id),
		)
		return done('courseAdminAssigned')
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.adminCourses.admins.metaTitle }]

export default function CourseAdmins({ loaderData: d, actionData }: Route.ComponentProps) {
	const [form, fields] = useActionForm(actionData && 'result' in actionData ? actionData.result : undefined)
	const t = useI18n()
	const m = t.m.adminCourses
	if (d.hint) return <TenantHint title={m.admins.hintTitle} what={m.admins.hintWhat} />
	return (
		<section className="narrow">
			<CourseAdminHeading course={d.course} title={m.admins.title} />
			<RedirectNotice accept={ADMINS_NOTICES} />
			<FormError errors={form.errors} id={form.errorId} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			{d.admins.length === 0 ? (
				<p className="empty">{m.admins.empty}</p>
			) : (
				<ul>
					{d.admins.map((a) => (
						<li key={a.userId} className="actions">
							{`${a.name} <${a.email}>`}
							<PostButton link fields={{ intent: 'revoke', userId: a.userId }}>
								{t.format(m.admins.revoke, { name: a.name })}
							</PostButton>
						</li>
					))}
				</ul>
			)}
			<h2>{m.admins.assignTitle}</h2>
			<Form method="post" className="stack" {...getFormProps(form)}>
				<input type="hidden" name="intent" value="assign" />
				<Field label={m.admins.email} meta={fields.email} type="email" autoComplete="off" />
				<Submit>{m.admins.assign}</Submit>
			</Form>
		</section>
	)
}
