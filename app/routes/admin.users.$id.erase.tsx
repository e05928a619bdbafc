import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { adminAction, type AdminScope, requireAdmin } from '#app/admin/admin.server.ts'
import { erasePerson, erasureRefusal, erasureTarget } from '#app/admin/erasure.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { notFound } from '#app/platform/errors.ts'
import { askToConfirm, confirmed, limitForm, readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { withNotice } from '#app/platform/notices.ts'
import { ConfirmStep, FormError, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { useActionForm } from '#app/ui/form.tsx'
import type { ScriptsHandle } from '#app/root.tsx'
import type { Route } from './+types/admin.users.$id.erase.ts'

/*
 * Erasing a person (decision 0044): what goes and what stays, then a confirmation that works
 * without JavaScript. On a tenant's own host only (the apex has no tenant to erase in); the
 * person must be of that tenant, not a platform account, not the admin themselves. The right to
 * erase is checked again in the erasure's transaction.
 */

export const handle = { scripts: true } satisfies ScriptsHandle

async function requireErasable(scope: AdminScope, id: string) {
	const tenant = scope.tenant
	if (!tenant) throw notFound()
	const target = await erasureTarget({ ...scope, tenant }, id)
	if (!target) throw notFound()
	return { tenant, target }
}

export async function loader({ context, params }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	const { target } = await requireErasable(scope, params.id)
	const refusal = erasureRefusal(scope, target)
	return {
		user: {
			id: target.id,
			name: refusal === 'erased' ? '' : target.name,
			email: refusal === 'erased' ? '' : target.email,
		},
		refusal,
	}
}

const schema = z.object({ intent: z.literal('erase', { message: 'admin.user.errors.unknownAction' }), ...confirmed })

export const action = adminAction({ scope: 'tenant' }, async ({ scope }, { request, params }: Route.ActionArgs) => {
	const { tenant, target } = await requireErasable(scope, params.id)
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
	const refuse = (message: string, status: number) =>
		data({ result: submission.reply({ formErrors: [message] }) }, { status })
	const refusal = erasureRefusal(scope, target)
	if (refusal) return refuse(`admin.user.erasure.refused.${refusal}`, 409)
	if (!submission.value.confirmed)
		return askToConfirm({
			question: 'admin.user.erasure.confirm',
			button: 'admin.user.erasure.confirmButton',
			values: { name: target.name || target.email, email: target.email },
			fields: { intent: 'erase' },
		})
	// Only a confirmed erasure counts against the admin's few an hour.
	const tooMany = await limitForm(scope.ctx, 'erasure', `user|${scope.session.user.id}`, submission)
	if (tooMany) return tooMany
	if (!(await erasePerson(scope, { tenantId: tenant.id, userId: target.id })))
		return refuse('admin.user.erasure.refused.notAllowed', 409)
	return redirect(localePath(scope.ctx.locale, withNotice(`/admin/users/${target.id}/erase`, 'userErased')))
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.admin.user.erasure.metaTitle }) }]
}

export default function EraseUser({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const e = t.m.admin.user.erasure
	const name = d.user.name || d.user.email || e.erasedName
	const [form] = useActionForm(actionData && 'result' in actionData ? actionData.result : undefined)
	const confirm = actionData && 'confirm' in actionData ? actionData.confirm : null
	return (
		<section className="narrow stack">
			<p>
				<Link prefetch="intent" to={`/admin/users/${d.user.id}`}>
					← {name}
				</Link>
			</p>
			<h1>{d.refusal === 'erased' ? e.erasedName : t.format(e.title, { name })}</h1>
			<FormError errors={form.errors} id={form.errorId} />
			<ConfirmStep confirm={confirm} />
			{d.refusal ? (
				// Just erased: the notice says so, and is the page's one message (issue 52).
				<RedirectNotice accept={['userErased']} fallback={<p>{e.refused[d.refusal]}</p>} />
			) : (
				<>
					<h2>{e.removedTitle}</h2>
					<p>{e.removed}</p>
					<h2>{e.keptTitle}</h2>
					<p>{e.kept}</p>
					{confirm ? null : (
						<Form method="post" {...getFormProps(form)}>
							<input type="hidden" name="intent" value="erase" />
							<Submit>{e.button}</Submit>
						</Form>
					)}
				</>
			)}
		</section>
	)
}
