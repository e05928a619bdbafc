import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import { inviteAuthor } from '#app/admin/authors.server.ts'
import { readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { emailField } from '#app/platform/validation.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import { FormError, Notice, Submit } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { readCatalogue } from '#app/content/cms.server.ts'
import type { Route } from './+types/admin.courses.ts'
import { TenantHint } from '#app/admin/headings.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ScrollTable } from '#app/ui/table.tsx'

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

// Inviting an author to the content service (decision 0053): the only form of the page.
const schema = z.object({
	intent: z.literal('inviteAuthor', { message: 'admin.invite.errors.unknownAction' }),
	email: z.string({ error: 'admin.invite.emailRequired' }).pipe(emailField),
})

/** The tenant's catalogue of the tenant's courses in every state, with links to each course's admin pages. */
export async function loader({ context }: Route.LoaderArgs) {
	const { ctx, tenant } = requireAdmin(context)
	if (!tenant) return { hint: true as const, courses: [] }
	const courses = await readCatalogue(ctx)
	const cms = ctx.env.CMS_ADMIN_URL
	return {
		hint: false as const,
		courses: courses.map((c) => ({
			slug: c.slug,
			// The course in the CMS's list, found by its slug (decision 0073).
			cmsUrl: cms ? `${cms}/admin/content-manager/collection-types/api::course.course?${cmsQuery(c.slug)}` : null,
			title: c.title,
			// The locale the title was served in (decision 0012).
			locale: c.locale,
			status: c.status,
			listed: c.listed,
			entryCount: c.entryCount,
			paid: Boolean(c.price),
		})),
	}
}

const cmsQuery = (slug: string) =>
	new URLSearchParams({ 'filters[$and][0][slug][$eq]': slug, 'plugins[i18n][locale]': 'en' }).toString()

/** Invites an author to the CMS: tenant_admin and super_admin on the tenant's host (decision 0053). */
export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
	const invitation = await inviteAuthor(scope, tenant, submission.value.email)
	if (!invitation)
		return data(
			{ result: submission.reply({ formErrors: ['adminCourses.courses.authors.unavailable'] }) },
			{ status: 409 },
		)
	return { result: submission.reply({ resetForm: true }), invitation }
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.adminCourses.courses.metaTitle }]

export default function AdminCourses({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.adminCourses
	const [form, fields] = useActionForm(actionData?.result)
	const invitation = actionData && 'invitation' in actionData ? actionData.invitation : null
	if (d.hint) return <TenantHint title={m.courses.title} what={m.courses.hintWhat} />
	// The status label, then "(unlisted)" and "· paid" wrapped around it as they apply.
	const status = (c: (typeof d.courses)[number]) => {
		let label = m.courseStatus[c.status]
		if (!c.listed) label = t.format(m.courses.unlisted, { status: label })
		return c.paid ? t.format(m.courses.paid, { status: label }) : label
	}
	return (
		<section>
			<h1>{m.courses.title}</h1>
			{/* A new tenant has none yet: where they come from (issue 40). */}
			{d.courses.length === 0 ? (
				<p className="empty">{m.courses.empty}</p>
			) : (
				<ScrollTable label={m.courses.title} cards>
					<thead>
						<tr>
							<th scope="col">{m.courses.course}</th>
							<th scope="col">{m.courses.status}</th>
							<th scope="col">{m.courses.entries}</th>
							<th scope="col">{m.courses.admin}</th>
						</tr>
					</thead>
					<tbody>
						{d.courses.map((c) => (
							<tr key={c.slug}>
								<td lang={c.locale}>{c.title}</td>
								<td data-label={m.courses.status}>{status(c)}</td>
								<td data-label={m.courses.entries}>{t.number(c.entryCount)}</td>
								<td className="actions">
									<Link prefetch="intent" to={`/admin/courses/${c.slug}/dashboard`}>
										{m.nav.dashboard}
									</Link>
									<Link prefetch="intent" to={`/admin/courses/${c.slug}/submissions`}>
										{t.m.grading.nav.submissions}
									</Link>
									<Link prefetch="intent" to={`/admin/courses/${c.slug}/settings`}>
										{m.nav.settings}
									</Link>
									<Link prefetch="intent" to={`/admin/courses/${c.slug}/admins`}>
										{m.nav.admins}
									</Link>
									{/* The course as a learner sees it, drafts too (issue 40): read-only, marked as a preview. */}
									<Link to={`/learn/course/${c.slug}?preview=1`}>{m.courses.preview}</Link>
									{c.cmsUrl ? <a href={c.cmsUrl}>{m.courses.editInCms}</a> : null}
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
			<h2>{m.courses.authors.title}</h2>
			<p>{m.courses.authors.intro}</p>
			{invitation ? (
				<Notice tone="ok">
					{invitation.registrationUrl ? (
						<>
							<p>{t.format(m.courses.authors.invited, { email: invitation.email })}</p>
							<p>
								<a
									href={invitation.registrationUrl}
									aria-label={t.format(m.courses.authors.link, { email: invitation.email })}
								>
									{invitation.registrationUrl}
								</a>
							</p>
						</>
					) : (
						<p>{t.format(m.courses.authors.added, { email: invitation.email })}</p>
					)}
				</Notice>
			) : null}
			<FormError errors={form.errors} id={form.errorId} />
			<Form method="post" className="stack narrow" {...getFormProps(form)}>
				<input type="hidden" name="intent" value="inviteAuthor" />
				<Field label={m.courses.authors.email} meta={fields.email} type="email" autoComplete="off" />
				<Submit>{m.courses.authors.invite}</Submit>
			</Form>
		</section>
	)
}
