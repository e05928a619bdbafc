import { readForm } from '#app/platform/forms.server.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, Link } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, SelectField, useActionForm } from '#app/ui/form.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { adminAudit, requireAdmin, tenantMutation } from '#app/admin/admin.server.ts'
import { invitableCourses, sendInvitation } from '#app/accounts/invitations.server.ts'
import { noticeValues } from '#app/platform/notices.server.ts'
import { emailField } from '#app/platform/validation.ts'
import { INVITABLE_ROLES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.users.invite.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { notFound } from '#app/platform/errors.ts'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'

const schema = z
	.object({
		// The empty field speaks of the invitee, not of the admin's own address.
		email: z.string({ error: 'admin.invite.emailRequired' }).pipe(emailField),
		role: z.enum(INVITABLE_ROLES, { message: 'admin.invite.chooseRole' }),
		course_slug: z.string().trim().optional(),
	})
	.superRefine((v, issue) => {
		if (v.role === 'course_admin' && !v.course_slug)
			issue.addIssue({ code: 'custom', path: ['course_slug'], message: 'admin.invite.courseRequired' })
	})

async function publishedCourses(scope: ReturnType<typeof requireAdmin>) {
	return (await invitableCourses(scope.ctx)).map((c) => ({ value: c.slug, label: c.title }))
}

const INVITE_NOTICES = ['invitationSent', 'invitationSentToMember'] as const satisfies NoticeName[]

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Invitations belong to a tenant: this page needs a tenant host. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	if (!scope.tenant) throw notFound()
	const [courses, notice] = await Promise.all([
		publishedCourses(scope),
		noticeValues(scope.ctx, request, INVITE_NOTICES),
	])
	return { courses, notice }
}

export async function action({ context, request }: Route.ActionArgs) {
	const scope = requireAdmin(context)
	const { tenant, limited } = await tenantMutation(scope)
	if (limited) return limited
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { email, role } = submission.value
	const courseSlug = role === 'course_admin' ? submission.value.course_slug! : null
	if (courseSlug && !(await publishedCourses(scope)).some((c) => c.value === courseSlug)) {
		return data(
			{ result: submission.reply({ fieldErrors: { course_slug: ['admin.invite.unpublishedCourse'] } }) },
			{ status: 400 },
		)
	}
	// The invitation, its audit row and the job that mails it: one transaction.
	const { invitation, member } = await sendInvitation(
		scope.ctx,
		{ tenantId: tenant.id, email, role, courseSlug, invitedBy: scope.session.user.id },
		(row) =>
			adminAudit(
				scope,
				'invitation.sent',
				{ kind: 'invitation', id: row.id, tenantId: tenant.id },
				{ email: row.email, role, courseSlug },
			),
	)
	// The notice names the invitation by its id: the page looks its address up (decision 0032).
	return redirect(
		localePath(
			scope.ctx.locale,
			withNotice('/admin/users/invite', member ? 'invitationSentToMember' : 'invitationSent', invitation.id),
		),
	)
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.admin.invite.metaTitle }) }]
}

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.invite
	const [form, fields] = useActionForm(actionData?.result)
	return (
		<section className="narrow">
			<p className="actions">
				<Link prefetch="intent" to={'/admin/users'}>
					{m.back}
				</Link>
				<Link prefetch="intent" to={'/admin/users/invitations'}>
					{t.m.admin.invitations.title}
				</Link>
			</p>
			<h1>{m.title}</h1>
			<RedirectNotice accept={INVITE_NOTICES} values={loaderData.notice} />
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<Field label={m.email} meta={fields.email} type="email" autoComplete="off" />
				<SelectField
					label={m.role}
					meta={fields.role}
					options={INVITABLE_ROLES.map((r) => ({ value: r, label: t.m.admin.roles[r] }))}
				/>
				<SelectField
					label={m.course}
					meta={fields.course_slug}
					options={[{ value: '', label: m.noCourse }, ...loaderData.courses]}
				/>
				<Submit>{m.submit}</Submit>
			</Form>
		</section>
	)
}
