import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import {
	createGroupMapping,
	createScimToken,
	deleteGroupMapping,
	listGroupMappings,
	listScimTokens,
	revokeScimToken,
} from '#app/admin/scim/tokens.server.ts'
import { readCatalogue } from '#app/content/cms.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { notFound } from '#app/platform/errors.ts'
import { readForm } from '#app/platform/forms.server.ts'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'
import { NO_NUL, recordId } from '#app/platform/validation.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { FormError, Notice, PostButton, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { Field, SelectField, useActionForm } from '#app/ui/form.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import type { Route } from './+types/admin.settings.scim.ts'

// SCIM provisioning (decision 0070): the tenant admin's tokens for the school's identity provider
// (a new one shown once, in the answer to its form) and the mappings of its groups.

const plain = (max: number, message: string) =>
	z.string(message).trim().min(1, message).max(max, message).regex(NO_NUL, message)
const TARGETS = ['enrollment', 'course_admin', 'tenant_admin'] as const

const schema = z.discriminatedUnion(
	'intent',
	[
		z.object({ intent: z.literal('create-token'), label: plain(100, 'adminSettings.scim.errors.label') }),
		z.object({ intent: z.literal('revoke-token'), id: recordId }),
		z.object({
			intent: z.literal('add-mapping'),
			group: plain(200, 'adminSettings.scim.errors.group'),
			target: z.enum(TARGETS, 'adminSettings.scim.errors.unknownAction'),
			course: z.string().max(100).regex(NO_NUL).optional(),
		}),
		z.object({ intent: z.literal('delete-mapping'), id: recordId }),
	],
	{ message: 'adminSettings.scim.errors.unknownAction' },
)

const NOTICES = ['scimTokenRevoked', 'scimMappingAdded', 'scimMappingRemoved'] as const satisfies NoticeName[]

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** A tenant admin's (or a super admin's entered into the tenant) on the tenant's host; 404 on the apex. */
export async function loader({ context }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	if (!scope.tenant) throw notFound()
	const [tokens, mappings, courses] = await Promise.all([
		listScimTokens(scope.ctx.db, scope.tenant.id),
		listGroupMappings(scope.ctx.db, scope.tenant.id),
		readCatalogue(scope.ctx),
	])
	const titles = new Map(courses.map((c) => [c.slug, c.title]))
	return {
		baseUrl: `${scope.ctx.origin}/scim/v2`,
		courses: courses.map((c) => ({ value: c.slug, label: c.title })),
		tokens: tokens.map((t) => ({
			...t,
			createdAt: t.createdAt.toISOString(),
			lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
			revoked: t.revokedAt !== null,
		})),
		mappings: mappings.map((m) => ({
			id: m.id,
			group: m.display_name,
			target: m.role ?? ('enrollment' as const),
			course: m.course_slug ? (titles.get(m.course_slug) ?? m.course_slug) : null,
		})),
	}
}

export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const input = submission.value
	const done = (notice: (typeof NOTICES)[number]) =>
		redirect(localePath(scope.ctx.locale, withNotice('/admin/settings/scim', notice)))
	if (input.intent === 'create-token') {
		// Shown once, in this answer: never stored, never in a URL, never in the audit row.
		const token = await createScimToken(scope, tenant, input.label)
		return data({ created: { label: input.label, token: token.raw } }, { headers: { 'cache-control': 'no-store' } })
	}
	if (input.intent === 'revoke-token') {
		if (!(await revokeScimToken(scope, tenant, input.id))) throw notFound()
		return done('scimTokenRevoked')
	}
	if (input.intent === 'delete-mapping') {
		if (!(await deleteGroupMapping(scope, tenant, input.id))) throw notFound()
		return done('scimMappingRemoved')
	}
	const wantsCourse = input.target !== 'tenant_admin'
	const courses = await readCatalogue(scope.ctx)
	if (wantsCourse && !courses.some((c) => c.slug === input.course))
		return data(
			{ result: submission.reply({ fieldErrors: { course: ['adminSettings.scim.errors.course'] } }) },
			{ status: 400 },
		)
	const target =
		input.target === 'enrollment'
			? { role: null, courseSlug: input.course! }
			: { role: input.target, courseSlug: wantsCourse ? input.course! : null }
	if (!(await createGroupMapping(scope, tenant, input.group, target)))
		return data(
			{ result: submission.reply({ fieldErrors: { group: ['adminSettings.scim.errors.mapped'] } }) },
			{ status: 409 },
		)
	return done('scimMappingAdded')
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.adminSettings.scim.metaTitle }) }]
}

type ActionData = Route.ComponentProps['actionData']
const resultOf = (a: ActionData) => (a && 'result' in a ? a.result : undefined)

export default function ScimSettings({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.adminSettings.scim
	const created = actionData && 'created' in actionData ? actionData.created : null
	return (
		<section>
			<p className="actions">
				<Link prefetch="intent" to="/admin/settings">
					{t.m.adminSettings.settings.title}
				</Link>
			</p>
			<h1>{m.title}</h1>
			<p className="hint">{m.intro}</p>
			<RedirectNotice accept={NOTICES} />
			<p>
				{m.baseUrl}: <code className="break">{d.baseUrl}</code>
			</p>
			{created ? (
				<Notice tone="ok">
					<p>
						<strong>{m.createdTitle}</strong>
					</p>
					<p>{t.format(m.createdFor, { label: created.label })}</p>
					<p>
						<code className="break" id="scim-token">
							{created.token}
						</code>
					</p>
				</Notice>
			) : null}
			<h2>{m.tokens}</h2>
			<p className="hint">{m.tokenNote}</p>
			<TokenForm actionData={actionData} />
			<TokenTable tokens={d.tokens} />
			<h2>{m.mappings}</h2>
			<p className="hint">{m.mappingsIntro}</p>
			<MappingForm actionData={actionData} courses={d.courses} />
			<MappingTable mappings={d.mappings} />
		</section>
	)
}

function TokenForm({ actionData }: { actionData: ActionData }) {
	const m = useI18n().m.adminSettings.scim
	const last = resultOf(actionData)
	const mine = last?.initialValue?.intent === 'create-token' ? last : undefined
	const [form, fields] = useActionForm(mine)
	return (
		<Form method="post" className="stack narrow" {...getFormProps(form)}>
			<FormError errors={form.errors} id={form.errorId} />
			<input type="hidden" name="intent" value="create-token" />
			<Field label={m.tokenLabel} meta={fields.label} hint={m.tokenLabelHint} />
			<Submit>{m.create}</Submit>
		</Form>
	)
}

function TokenTable({ tokens }: { tokens: Route.ComponentProps['loaderData']['tokens'] }) {
	const t = useI18n()
	const m = t.m.adminSettings.scim
	if (!tokens.length) return <p className="empty">{m.noTokens}</p>
	return (
		<ScrollTable label={m.tokens}>
			<thead>
				<tr>
					<th scope="col">{m.tokenLabel}</th>
					<th scope="col">{m.createdBy}</th>
					<th scope="col">{m.created}</th>
					<th scope="col">{m.lastUsed}</th>
					<th scope="col">{m.status}</th>
					<th scope="col">{m.actions}</th>
				</tr>
			</thead>
			<tbody>
				{tokens.map((k) => (
					<tr key={k.id}>
						<td className="break">{k.label}</td>
						<td className="break">{k.createdBy}</td>
						<td>{t.date(k.createdAt)}</td>
						<td>{k.lastUsedAt ? t.date(k.lastUsedAt) : m.never}</td>
						<td>{k.revoked ? m.revoked : m.active}</td>
						<td>
							{k.revoked ? null : (
								<PostButton link fields={{ intent: 'revoke-token', id: k.id }}>
									{t.format(m.revoke, { label: k.label })}
								</PostButton>
							)}
						</td>
					</tr>
				))}
			</tbody>
		</ScrollTable>
	)
}

function MappingForm({
	actionData,
	courses,
}: {
	actionData: ActionData
	courses: Array<{ value: string; label: string }>
}) {
	const m = useI18n().m.adminSettings.scim
	const last = resultOf(actionData)
	const mine = last?.initialValue?.intent === 'add-mapping' ? last : undefined
	const [form, fields] = useActionForm(mine, { target: 'enrollment', course: courses[0]?.value ?? '' })
	const targets = (['enrollment', 'course_admin', 'tenant_admin'] as const).map((value) => ({
		value,
		label: m.targets[value],
	}))
	return (
		<Form method="post" className="stack narrow" {...getFormProps(form)}>
			<FormError errors={form.errors} id={form.errorId} />
			<input type="hidden" name="intent" value="add-mapping" />
			<Field label={m.group} meta={fields.group} />
			<SelectField label={m.target} meta={fields.target} options={targets} />
			<SelectField label={m.course} meta={fields.course} options={courses} />
			<Submit>{m.addMapping}</Submit>
		</Form>
	)
}

function MappingTable({ mappings }: { mappings: Route.ComponentProps['loaderData']['mappings'] }) {
	const t = useI18n()
	const m = t.m.adminSettings.scim
	if (!mappings.length) return <p className="empty">{m.noMappings}</p>
	return (
		<ScrollTable label={m.mappings}>
			<thead>
				<tr>
					<th scope="col">{m.group}</th>
					<th scope="col">{m.target}</th>
					<th scope="col">{m.course}</th>
					<th scope="col">{m.actions}</th>
				</tr>
			</thead>
			<tbody>
				{mappings.map((g) => (
					<tr key={g.id}>
						<td className="break">{g.group}</td>
						<td>{m.targets[g.target]}</td>
						<td>{g.course ?? '—'}</td>
						<td>
							<PostButton link fields={{ intent: 'delete-mapping', id: g.id }}>
								{t.format(m.deleteMapping, { group: g.group })}
							</PostButton>
						</td>
					</tr>
				))}
			</tbody>
		</ScrollTable>
	)
}
