import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { z } from 'zod'
import { reissueCertificate, revokeByAdmin } from '#app/certificates/award.server.ts'
import { ConfirmStep, FormError, PostButton, RedirectNotice } from '#app/ui/feedback.tsx'
import { RevokeStep } from '#app/certificates/revoke-step.tsx'
import { CourseAdminHeading, TenantHint } from '#app/admin/headings.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { adminAction, courseAdminPage } from '#app/admin/admin.server.ts'
import { adminAudit } from '#app/platform/audit.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { askToConfirm, confirmed, formErrorResult, readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'
import { courseCertificate, courseCertificates } from '#app/certificates/records.server.ts'
import { findUserById } from '#app/accounts/users.server.ts'
import { recordId } from '#app/platform/validation.ts'
import type { Route } from './+types/admin.courses.$slug.certificates.ts'

/** The list shows at most this many certificates, newest first. */
const LIST_LIMIT = 500

// One schema per action of the page, told apart by `intent`. An unknown certificate is 404.
const schema = z.discriminatedUnion('intent', [
	// Revoking asks for a reason first: the step without `confirmed` changes nothing.
	z.object({
		intent: z.literal('revoke'),
		id: recordId,
		reason: z.string().trim().max(500, 'certificates.admin.reasonRequired').optional(),
		...confirmed,
	}),
	z.object({ intent: z.literal('reissue'), id: recordId, ...confirmed }),
])

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** A course's certificates: its assigned course admins, tenant admins and super admins (on the tenant's host). */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return page
	const rows = await courseCertificates(scope.ctx.db, tenant.id, course.slug, LIST_LIMIT)
	return {
		...page,
		enabled: Boolean(course.certificate?.enabled),
		truncated: rows.length === LIST_LIMIT,
		rows: rows.map((r) => ({
			id: r.id,
			publicId: r.publicId,
			recipientName: r.recipientName,
			currentName: r.currentName,
			email: r.email,
			issuedAt: r.issuedAt.toISOString(),
			revokedAt: r.revokedAt?.toISOString() ?? null,
			revokedReason: r.revokedReason,
		})),
	}
}

export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success')
			return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
		const { db } = scope.ctx
		const form = submission.value
		const certificate = await courseCertificate(db, tenant.id, course.slug, form.id)
		if (!certificate) throw notFound()
		const done = (notice: NoticeName) =>
			redirect(localePath(scope.ctx.locale, withNotice(`/admin/courses/${course.slug}/certificates`, notice)))
		const alreadyRevoked = () => data({ result: formErrorResult('certificates.admin.alreadyRevoked') }, { status: 409 })
		if (certificate.revoked_at) return alreadyRevoked()
		const audit = (action: 'certificate.revoked' | 'certificate.reissued', metadata: Record<string, unknown>) =>
			adminAudit(
				scope,
				action,
				{ kind: 'certificate', id: certificate.id, tenantId: tenant.id },
				{
					courseSlug: course.slug,
					learnerUserId: certificate.user_id,
					publicId: certificate.public_id,
					...metadata,
				},
			)

		if (form.intent === 'revoke') {
			const step = { id: certificate.id, name: certificate.recipient_name }
			if (!form.confirmed) return { revoke: step }
			if (!form.reason)
				return data(
					{
						result: submission.reply({ fieldErrors: { reason: ['certificates.admin.reasonRequired'] } }),
						revoke: step,
					},
					{ status: 400 },
				)
			const revoked = await revokeByAdmin(
				db,
				certificate,
				form.reason,
				scope.session.user.id,
				audit('certificate.revoked', { reason: form.reason }),
			)
			return revoked ? done('certificateRevoked') : alreadyRevoked()
		}

		const learner = await findUserById(db, certificate.user_id)
		const current = learner?.name.trim() || learner?.email || ''
		if (!learner || current === certificate.recipient_name)
			return data({ result: formErrorResult('certificates.admin.sameName') }, { status: 400 })
		if (!form.confirmed)
			return askToConfirm({
				question: 'certificates.admin.confirmReissue',
				button: 'certificates.admin.reissueButton',
				values: { name: certificate.recipient_name, current },
				fields: { intent: 'reissue', id: certificate.id },
			})
		const reissued = await reissueCertificate(scope.ctx, tenant, course, certificate, {
			by: scope.session.user.id,
			audit: audit('certificate.reissued', { reason: 'reissued' }),
		})
		return reissued ? done('certificateReissued') : alreadyRevoked()
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	const m = t.m.certificates.admin
	return [
		{
			title: t.format(m.metaTitle, { course: loaderData && !loaderData.hint ? loaderData.course.title : m.hintTitle }),
		},
	]
}

export default function CourseCertificates({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.certificates.admin
	const result = actionData && 'result' in actionData ? actionData.result : undefined
	if (d.hint) return <TenantHint title={m.hintTitle} what={m.hintWhat} />
	const revoke = actionData && 'revoke' in actionData ? actionData.revoke : null
	const page = `/admin/courses/${d.course.slug}/certificates`
	return (
		<section>
			<CourseAdminHeading course={d.course} title={m.title} />
			<RedirectNotice accept={['certificateRevoked', 'certificateReissued']} />
			{revoke ? (
				<RevokeStep id={revoke.id} name={revoke.name} error={result?.error?.reason?.[0]} cancelTo={page} />
			) : (
				<FormError result={result} />
			)}
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			<p className="hint">{d.enabled ? m.intro : m.disabled}</p>
			{d.rows.length === 0 ? (
				<p className="empty">{m.empty}</p>
			) : (
				<ScrollTable label={m.table}>
					<thead>
						<tr>
							<th scope="col">{m.learner}</th>
							<th scope="col">{m.issued}</th>
							<th scope="col">{m.status}</th>
							<th scope="col">{m.actions}</th>
						</tr>
					</thead>
					<tbody>
						{d.rows.map((r) => (
							<tr key={r.id}>
								<td>
									{r.recipientName} <span className="break">&lt;{r.email}&gt;</span>
									{r.currentName && r.currentName !== r.recipientName ? (
										<>
											{' '}
											<span className="hint">({t.format(m.nowNamed, { name: r.currentName })})</span>
										</>
									) : null}
								</td>
								<td>{t.date(r.issuedAt)}</td>
								<td>
									{r.revokedAt
										? t.format(m.revokedOn, {
												date: t.date(r.revokedAt),
												reason: r.revokedReason === 'reissued' ? m.reasonReissued : (r.revokedReason ?? ''),
											})
										: m.valid}
								</td>
								<td className="actions">
									<a href={t.href(`/certificates/${r.publicId}`)}>{m.view}</a>
									{r.revokedAt ? null : (
										<>
											<PostButton link fields={{ intent: 'revoke', id: r.id }}>
												{m.revoke}
											</PostButton>
											{r.currentName && r.currentName !== r.recipientName ? (
												<PostButton link fields={{ intent: 'reissue', id: r.id }}>
													{m.reissue}
												</PostButton>
											) : null}
										</>
									)}
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
		</section>
	)
}
