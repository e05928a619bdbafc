import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import { FormError, Notice, PostButton, Submit } from '#app/ui/feedback.tsx'
import { Field, SelectField, useActionForm } from '#app/ui/form.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { API_KEY_SCOPES } from '#db/schema/values.ts'
import type { KeyListItem } from './api-keys.server.ts'

// What a site's key page (/admin/settings/api) and the platform's (/admin/tenants/api) both show.

/** The secret of the key just made: in the create action's answer only, shown once. */
export function CreatedKey({ created }: { created: { name: string; secret: string } | null }) {
	const t = useI18n()
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

/** The keys with their last use and a revoke button each (it asks first: the page's ConfirmStep). */
export function KeyTable({ keys, label }: { keys: KeyListItem[]; label: string }) {
	const t = useI18n()
	const text = t.m.adminSettings.apiKeys
	if (keys.length === 0) return <p className="empty">{text.empty}</p>
	return (
		<ScrollTable label={label}>
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
				{keys.map((k) => (
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
						<td>{k.lastUsedAt ? `${t.date(k.lastUsedAt)}${k.lastUsedIp ? ` · ${k.lastUsedIp}` : ''}` : text.never}</td>
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
	)
}

/** The key of a create action's answer, if it is one. */
export function createdOf(actionData: unknown) {
	return actionData && typeof actionData === 'object' && 'created' in actionData
		? (actionData.created as { name: string; secret: string })
		: null
}

/** Name and access; a site's page adds the course a key may be limited to (`courses`). */
export function CreateKeyForm({
	courses,
	result,
}: {
	courses?: Array<{ value: string; label: string }>
	result: SubmissionResult<string[]> | undefined
}) {
	const t = useI18n()
	const text = t.m.adminSettings.apiKeys
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
			{courses ? (
				<SelectField
					label={text.course}
					meta={fields.course}
					options={[{ value: '', label: text.allCourses }, ...courses]}
				/>
			) : null}
			<Submit>{text.create}</Submit>
		</Form>
	)
}
