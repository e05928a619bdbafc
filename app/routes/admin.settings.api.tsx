import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import { readCatalogue } from '#app/content/cms.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { createApiKey, revokeApiKey, tenantApiKeys } from '#app/integrations/api-keys.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { askToConfirm, confirmed, formErrorResult, readForm } from '#app/platform/forms.server.ts'
import { withNotice } from '#app/platform/notices.ts'
import { nameField } from '#app/platform/validation.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ConfirmStep, FormError, Notice, PostButton, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { Field, SelectField, useActionForm } from '#app/ui/form.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { API_KEY_SCOPES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.settings.api.ts'

// The tenant's API keys (issue 49, decision 0071): create (the secret shown once), list with last use, revoke.
const schema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('create'),
		name: z.string({ error: 'adminSettings.apiKeys.nameRequired' }).pipe(nameField),
		scope: z.enum(API_KEY_SCOPES),
		course: z
			.string()
			.regex(/^[a-z0-9-]{1,100}$/, 'adminSettings.apiKeys.unknownCourse')
			.optional(),
	}),
	z.object({ intent: z.literal('revoke'), id: z.string().min(1).max(64), ...confirmed }),
])

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ context }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	const tenant = scope.tenant
	if (!tenant) throw notFound()
	const [keys, courses] = await Promise.all([tenantApiKeys(scope.ctx.db, tenant.id), readCatalogue(scope.ctx)])
	return {
		courses: courses.map((c) => ({ value: c.slug, label: c.title })),
		keys: keys.map((k) => ({
			id: k.id,
			name: k.name,
			prefix: k.prefix,
			scope: k.scope,
			course: k.course_slug,
			createdAt: k.created_at.toISOString(),
			lastUsedAt: k.last_used_at?.toISOString() ?? null,
			lastUsedIp: k.last_used_ip,
			revokedAt: k.revoked_at?.toISOString() ?? null,
		})),
	}
}

export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const input = submission.value
	if (input.intent === 'create') {
		const courses = await readCatalogue(scope.ctx)
		if (input.course && !courses.some((c) => c.slug === input.course))
			return data(
				{ result: submission.reply({ fieldErrors: { course: ['adminSettings.apiKeys.unknownCourse'] } }) },
				{ status: 400 },
			)
		const { key, secret } = await createApiKey(scope, tenant, {
			name: input.name,
			scope: input.scope,
			courseSlug: input.course ?? null,
		})
		// Shown once, in this answer only: never stored, logged or put in a URL.
		return data(
			{ result: submission.reply({ resetForm: true }), created: { name: key.name, secret } },
			{ status: 201, headers: { 'cache-control': 'no-store' } },
		)
	}
	const key = (await tenantApiKeys(scope.ctx.db, tenant.id)).find((k) => k.id === input.id)
	if (!key || key.revoked_at) return data({ result: formErrorResult('adminSettings.apiKeys.notLive') }, { status: 409 })
	if (!input.confirmed)
		return askToConfirm({
			question: 'adminSettings.apiKeys.confirmRevoke',
			button: 'adminSettings.apiKeys.revokeButton',
			values: { name: key.name },
			fields: { intent: 'revoke', id: key.id },
		})
	if (!(await revokeApiKey(scope, tenant, key.id)))
		return data({ result: formErrorResult('adminSettings.apiKeys.notLive') }, { status: 409 })
	return redirect(localePath(scope.ctx.locale, withNotice('/admin/settings/api', 'apiKeyRevoked')))
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.adminSettings.apiKeys.metaTitle }) }]
}

type ActionData = Route.ComponentProps['actionData']

function CreatedKey({ actionData }: { actionData: ActionData }) {
	const t = useI18n()
	const created =
		actionData && 'created' in actionData ? (actionData.created as { name: string; secret: string }) : null
	if (!created) return null
	const { name, secret } = created
	return (
		<Notice tone="ok">
			<p>
				<strong>{t.format(t.m.adminSettings.apiKeys.createdTitle, { name })}</strong>
			</p>
			<p>
				<code className="break" data-testid="api-key-secret">
					{secret}
				</code>
			</p>
			<p>{t.m.adminSettings.apiKeys.createdHint}</p>
		</Notice>
	)
}

function CreateForm({
	courses,
	actionData,
}: {
	courses: Array<{ value: string; label: string }>
	actionData: ActionData
}) {
	const t = useI18n()
	const text = t.m.adminSettings.apiKeys
	const result = actionData && 'result' in actionData ? actionData.result : undefined
	const [form, fields] = useActionForm(result, { scope: 'read' })
	return (
		<Form method="post" className="stack" {...getFormProps(form)}>
			<h2>{text.createTitle}</h2>
			<FormError errors={form.errors} id={form.errorId} />
			<input type="hidden" name="intent" value="create" />
			<Field label={text.name} meta={fields.name} hint={text.nameHint} />
			<SelectField
				label={text.scope}
				meta={fields.scope}
				options={API_KEY_SCOPES.map((s) => ({ value: s, label: text.scopes[s] }))}
			/>
			<SelectField
				label={text.course}
				meta={fields.course}
				options={[{ value: '', label: text.allCourses }, ...courses]}
			/>
			<Submit>{text.create}</Submit>
		</Form>
	)
}

export default function ApiKeys({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.adminSettings.apiKeys
	return (
		<section>
			<p className="actions">
				<Link prefetch="intent" to="/admin/settings">
					{text.settings}
				</Link>
				<Link prefetch="intent" to="/admin/api-docs">
					{text.docs}
				</Link>
			</p>
			<h1>{text.title}</h1>
			<p className="hint">{text.intro}</p>
			<RedirectNotice accept={['apiKeyRevoked']} />
			<CreatedKey actionData={actionData} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			{d.keys.length === 0 ? (
				<p className="empty">{text.empty}</p>
			) : (
				<ScrollTable label={text.title}>
					<thead>
						<tr>
							<th scope="col">{text.name}</th>
							<th scope="col">{text.prefix}</th>
							<th scope="col">{text.scope}</th>
							<th scope="col">{text.createdAt}</th>
							<th scope="col">{text.lastUsed}</th>
							<th scope="col">{text.status}</th>
							<th scope="col">{text.actions}</th>
						</tr>
					</thead>
					<tbody>
						{d.keys.map((k) => (
							<tr key={k.id}>
								<td className="break">{k.name}</td>
								<td>
									<code>{k.prefix}…</code>
								</td>
								<td>
									{text.scopes[k.scope]}
									{k.course ? ` · ${k.course}` : ''}
								</td>
								<td>{t.date(k.createdAt)}</td>
								<td>
									{k.lastUsedAt ? `${t.date(k.lastUsedAt)}${k.lastUsedIp ? ` · ${k.lastUsedIp}` : ''}` : text.never}
								</td>
								<td>{k.revokedAt ? t.format(text.revokedAt, { date: t.date(k.revokedAt) }) : text.live}</td>
								<td>
									{k.revokedAt ? null : (
										<PostButton link fields={{ intent: 'revoke', id: k.id }}>
											{t.format(text.revoke, { name: k.name })}
										</PostButton>
									)}
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
			<CreateForm courses={d.courses} actionData={actionData} />
		</section>
	)
}
