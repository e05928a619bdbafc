import { readForm } from '#app/utils/forms.server.ts'
import { NO_NUL } from '#app/utils/validation.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Field, FormError, Notice, Submit, useZodForm } from '#app/components/form.tsx'
import { auditAdmin, limitAdminMutation, requireSuperAdmin, tenantOrigin } from '#app/utils/admin.server.ts'
import { mintConsumedTokenProof } from '#app/utils/auth.server.ts'
import { bumpTenantTokenVersions } from '#db/admin.ts'
import { TENANT_STATUSES } from '#db/schema/values.ts'
import { createTenant, findTenantById, listTenants, setTenantStatus } from '#db/tenants.ts'
import { TENANTS_TAG } from '#app/utils/tenant.server.ts'
import type { Route } from './+types/admin.tenants.ts'

const createSchema = z.object({
	intent: z.literal('create'),
	slug: z
		.string({ message: 'Enter a slug' })
		.trim()
		.toLowerCase()
		.regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'Use lower-case letters, digits and inner hyphens (at most 63)'),
	name: z.string({ message: 'Enter a name' }).trim().min(1, 'Enter a name').max(120).regex(NO_NUL, 'Remove the control characters'),
	custom_domain: z
		.string()
		.trim()
		.toLowerCase()
		.regex(/^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Enter a host name such as learn.example.com')
		.optional(),
})

const statusSchema = z.object({ intent: z.literal('status'), tenantId: z.string().min(1), status: z.enum(TENANT_STATUSES) })

export async function loader({ context, request }: Route.LoaderArgs) {
	const scope = requireSuperAdmin(context, request)
	const tenants = await listTenants(scope.ctx.db)
	return {
		notice: new URL(request.url).searchParams.get('notice'),
		tenants: tenants.map((t) => ({ id: t.id, slug: t.slug, name: t.name, status: t.status, customDomain: t.custom_domain, host: new URL(tenantOrigin(scope.ctx, t)).host })),
	}
}

/** Create, change status (suspend, activate, archive) and enter a tenant; each audited. */
export async function action({ context, request }: Route.ActionArgs) {
	const scope = requireSuperAdmin(context, request)
	const limited = await limitAdminMutation(scope)
	if (limited) return limited
	const form = await readForm(request)
	const { ctx } = scope

	if (form.get('intent') === 'enter') {
		const tenant = await findTenantById(ctx.db, String(form.get('tenantId') ?? ''))
		if (!tenant || tenant.status !== 'active') throw new Response(null, { status: 404 })
		const proof = mintConsumedTokenProof(ctx, scope.session.user.id, `enter-${tenant.id}`)
		return redirect(`${tenantOrigin(ctx, tenant)}/admin/enter?user=${scope.session.user.id}&proof=${encodeURIComponent(proof)}`)
	}

	if (form.get('intent') === 'status') {
		const parsed = statusSchema.safeParse(Object.fromEntries(form))
		if (!parsed.success) return data({ result: null, error: 'Choose a tenant and a status.' }, { status: 400 })
		const tenant = await findTenantById(ctx.db, parsed.data.tenantId)
		if (!tenant) throw new Response(null, { status: 404 })
		if (tenant.status === parsed.data.status) return redirect('/admin/tenants')
		await setTenantStatus(ctx.db, tenant.id, parsed.data.status)
		ctx.tags.revalidate([TENANTS_TAG])
		// Suspension and archiving end every session of the tenant's users at once.
		if (parsed.data.status !== 'active') await bumpTenantTokenVersions(ctx.db, tenant.id)
		const action = { suspended: 'tenant.suspended', active: 'tenant.activated', archived: 'tenant.archived' }[parsed.data.status]
		await auditAdmin(scope, request, action, { kind: 'tenant', id: tenant.id, tenantId: tenant.id }, { from: tenant.status, to: parsed.data.status })
		return redirect(`/admin/tenants?notice=${parsed.data.status}`)
	}

	const submission = parseWithZod(form, { schema: createSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), error: null }, { status: 400 })
	const { slug, name, custom_domain } = submission.value
	const tenant = await createTenant(ctx.db, { slug, name, custom_domain: custom_domain ?? null })
	if (tenant) ctx.tags.revalidate([TENANTS_TAG])
	if (!tenant) return data({ result: submission.reply({ fieldErrors: { slug: ['That slug or custom domain is already taken'] } }), error: null }, { status: 409 })
	await auditAdmin(scope, request, 'tenant.created', { kind: 'tenant', id: tenant.id, tenantId: tenant.id }, { slug, name })
	return redirect('/admin/tenants?notice=created')
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Tenants · Administration' }]

const NOTICES: Record<string, string> = {
	created: 'The tenant was created.',
	suspended: 'The tenant was suspended: its pages answer 503 and its users were signed out.',
	active: 'The tenant is active again.',
	archived: 'The tenant was archived: its hosts now answer 404.',
}

export default function Tenants({ loaderData: d, actionData }: Route.ComponentProps) {
	const [form, fields] = useZodForm(createSchema, actionData && 'result' in actionData ? actionData.result : undefined)
	return (
		<section>
			<h1>Tenants</h1>
			{d.notice && NOTICES[d.notice] ? <Notice tone="ok">{NOTICES[d.notice]}</Notice> : null}
			{actionData?.error ? <Notice tone="error">{actionData.error}</Notice> : null}
			<table>
				<thead>
					<tr>
						<th scope="col">Tenant</th>
						<th scope="col">Host</th>
						<th scope="col">Status</th>
						<th scope="col">Actions</th>
					</tr>
				</thead>
				<tbody>
					{d.tenants.map((t) => (
						<tr key={t.id}>
							<td>{t.name}</td>
							<td>{[t.host, t.customDomain].filter(Boolean).join(', ')}</td>
							<td>{t.status}</td>
							<td className="actions">
								{t.status === 'active' ? (
									<Form method="post">
										<input type="hidden" name="intent" value="enter" />
										<input type="hidden" name="tenantId" value={t.id} />
										<button type="submit" className="link-button">{`Open ${t.name}`}</button>
									</Form>
								) : null}
								{(['active', 'suspended', 'archived'] as const)
									.filter((s) => s !== t.status)
									.map((s) => (
										<Form method="post" key={s}>
											<input type="hidden" name="intent" value="status" />
											<input type="hidden" name="tenantId" value={t.id} />
											<input type="hidden" name="status" value={s} />
											<button type="submit" className="link-button">
												{{ active: 'Activate', suspended: 'Suspend', archived: 'Archive' }[s]} {t.name}
											</button>
										</Form>
									))}
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<h2>New tenant</h2>
			<Form method="post" className="stack narrow" {...getFormProps(form)}>
				<input type="hidden" name="intent" value="create" />
				<FormError errors={form.errors} id={form.errorId} />
				<Field label="Slug (the subdomain)" meta={fields.slug} />
				<Field label="Name" meta={fields.name} />
				<Field label="Custom domain (optional)" meta={fields.custom_domain} />
				<Submit>Create tenant</Submit>
			</Form>
		</section>
	)
}
