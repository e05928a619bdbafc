import {
	askToConfirm,
	confirmed,
	formErrorResult,
	limitAction,
	readForm,
	TOO_MANY,
} from '#app/platform/forms.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, Link } from 'react-router'
import { z } from 'zod'
import { ConfirmStep, FormError, RedirectNotice, PostButton } from '#app/ui/feedback.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { adminAction, type AdminScope, requireAdmin } from '#app/admin/admin.server.ts'
import { adminAudit } from '#app/platform/audit.server.ts'
import { readCatalogue } from '#app/content/cms.server.ts'
import { notFound } from '#app/platform/errors.ts'
import {
	coursesOfInvitations,
	findInvitationById,
	invitationSentAt,
	listPendingInvitations,
	resendInvitation,
	revokeInvitation,
} from '#app/accounts/invitations.server.ts'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'
import { noticeValues } from '#app/platform/notices.server.ts'
import { NO_NUL } from '#app/platform/validation.ts'
import type { Invitation } from '#db/invitations.ts'
import type { Route } from './+types/admin.users.invitations.ts'
import type { ScriptsHandle } from '#app/root.tsx'

// One schema per button of a row, told apart by `intent`. The id travels in a hidden input: a
// malformed one is answered like an unknown one (404), as a page that does not exist.
const id = z.string().max(100).regex(NO_NUL).optional()
const schema = z.discriminatedUnion(
	'intent',
	[z.object({ intent: z.literal('resend'), id }), z.object({ intent: z.literal('revoke'), id, ...confirmed })],
	{ message: 'admin.invitations.unknownAction' },
)

const INVITATION_NOTICES = ['invitationResent', 'invitationRevoked'] as const satisfies NoticeName[]

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Course titles by slug, in every state (an invitation may name a course unpublished since). */
async function courseTitles(scope: AdminScope) {
	const courses = await readCatalogue(scope.ctx)
	return new Map(courses.map((c) => [c.slug, c.title]))
}

/** Invitations belong to a tenant: this page needs a tenant host, like the invitation form. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	if (!scope.tenant) throw notFound()
	const [rows, titles, notice] = await Promise.all([
		listPendingInvitations(scope.ctx.db, scope.tenant.id),
		courseTitles(scope),
		noticeValues(scope.ctx, request, INVITATION_NOTICES),
	])
	// The courses each invitation enrolls in on acceptance (decision 0040).
	const carried = await coursesOfInvitations(
		scope.ctx.db,
		scope.tenant.id,
		rows.map((r) => r.id),
	)
	const title = (slug: string) => titles.get(slug) ?? slug
	return {
		notice,
		invitations: rows.map((r) => ({
			id: r.id,
			email: r.email,
			role: r.role,
			// By its title, as the admin knows it (its slug when the content service no longer lists it)
			course: [...(r.courseSlug ? [r.courseSlug] : []), ...(carried.get(r.id) ?? [])].map(title).join(', ') || null,
			invitedBy: r.inviterEmail ? { name: r.inviterName ?? '', email: r.inviterEmail } : null,
			sentAt: invitationSentAt({ expires_at: r.expiresAt }).toISOString(),
			expiresAt: r.expiresAt.toISOString(),
		})),
	}
}

export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), { schema })
	// The row's forms are bare buttons: a refusal is one error for the list (no field to show it beside).
	if (submission.status !== 'success')
		return data({ result: formErrorResult('admin.invitations.unknownAction') }, { status: 400 })
	const { ctx } = scope
	const input = submission.value
	const invitation = await findInvitationById(ctx.db, tenant.id, input.id ?? '')
	// Another tenant's invitation, or none: nothing to show about it here.
	if (!invitation) throw notFound()
	const stillPending = !invitation.accepted_at && invitation.expires_at > new Date()
	const notPending = () => data({ result: formErrorResult('admin.invitations.notPending') }, { status: 409 })
	if (!stillPending) return notPending()
	const audit = (action: 'invitation.revoked' | 'invitation.resent') => (row: Invitation) =>
		adminAudit(
			scope,
			action,
			{ kind: 'invitation', id: row.id, tenantId: tenant.id },
			{ email: row.email, role: row.role, courseSlug: row.course_slug },
		)
	// The notice names the invitation by its id: the page looks its address up (decision 0032).
	const done = (notice: (typeof INVITATION_NOTICES)[number]) =>
		redirect(localePath(ctx.locale, withNotice('/admin/users/invitations', notice, invitation.id)))

	if (input.intent === 'revoke') {
		if (!input.confirmed)
			return askToConfirm({
				question: 'admin.invitations.confirmRevoke',
				button: 'admin.invitations.revokeButton',
				values: { email: invitation.email },
				fields: { intent: 'revoke', id: invitation.id },
			})
		// Accepted or expired between the question and the answer: nothing left to revoke.
		if (!(await revokeInvitation(ctx, tenant.id, invitation.id, audit('invitation.revoked')))) return notPending()
		return done('invitationRevoked')
	}

	// Counted per invitation, after the admin's own limit: one address is not mailed more than a few times an hour.
	const tooMany = await limitAction(ctx, 'invitationResend', `invitation|${invitation.id}`, {
		result: formErrorResult(TOO_MANY),
	})
	if (tooMany) return tooMany
	if (!(await resendInvitation(ctx, tenant.id, invitation.id, audit('invitation.resent')))) return notPending()
	return done('invitationResent')
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.admin.invitations.metaTitle }) }]
}

export default function Invitations({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.invitations
	return (
		<section>
			<p className="actions">
				<Link prefetch="intent" to="/admin/users">
					{m.back}
				</Link>
				<Link prefetch="intent" to="/admin/users/invite">
					{m.invite}
				</Link>
			</p>
			<h1>{m.title}</h1>
			<p className="hint">{m.intro}</p>
			<RedirectNotice accept={INVITATION_NOTICES} values={d.notice} />
			<FormError result={actionData && 'result' in actionData ? actionData.result : null} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			{d.invitations.length === 0 ? (
				<p className="empty">{m.empty}</p>
			) : (
				<ScrollTable label={m.title}>
					<thead>
						<tr>
							<th scope="col">{m.email}</th>
							<th scope="col">{m.role}</th>
							<th scope="col">{m.course}</th>
							<th scope="col">{m.invitedBy}</th>
							<th scope="col">{m.sentAt}</th>
							<th scope="col">{m.expiresAt}</th>
							<th scope="col">{m.actions}</th>
						</tr>
					</thead>
					<tbody>
						{d.invitations.map((i) => (
							<tr key={i.id}>
								<td className="break">{i.email}</td>
								<td>{t.m.admin.roleNames[i.role]}</td>
								<td>{i.course ?? '—'}</td>
								<td className="break">
									{i.invitedBy ? `${i.invitedBy.name} <${i.invitedBy.email}>` : m.unknownInviter}
								</td>
								<td>{t.date(i.sentAt)}</td>
								<td>{t.date(i.expiresAt)}</td>
								<td>
									<div className="actions">
										<PostButton link fields={{ intent: 'resend', id: i.id }}>
											{t.format(m.resend, { email: i.email })}
										</PostButton>
										<PostButton link fields={{ intent: 'revoke', id: i.id }}>
											{t.format(m.revoke, { email: i.email })}
										</PostButton>
									</div>
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
		</section>
	)
}
