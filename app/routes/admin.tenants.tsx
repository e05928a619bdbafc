import { askToConfirm, confirmed, readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { customDomainField, emailField, tenantNameField, tenantSlugField, recordId } from '#app/platform/validation.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { ConfirmStep, Submit, FormError, RedirectNotice, PostButton } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { adminAction, requireSuperAdmin, tenantOrigin, tenantOverrideLink } from '#app/admin/admin.server.ts'
import {
	createTenant,
	findTenantById,
	listTenants,
	reservedDomain,
	setTenantStatus,
} from '#app/admin/tenants.server.ts'
import { setCustomDomainLive } from '#app/admin/tenant-settings.server.ts'
import { TENANT_STATUSES, type TenantStatus } from '#db/schema/values.ts'
import { liveCustomDomain } from '#app/platform/tenant.server.ts'
import type { Route } from './+types/admin.tenants.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { notFound } from '#app/platform/errors.ts'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'
import { ScrollTable } from '#app/ui/table.tsx'

// One schema per form of the page, told apart by `intent`. The status and enter buttons carry hidden
// inputs only: their errors are the form's (replyWithHidden).
const schema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('create'),
		slug: tenantSlugField,
		name: tenantNameField,
		custom_domain: customDomainField.optional(),
		// Its first admin (issue 40): invited as tenant_admin in the transaction that creates it.
		admin_email: z.string({ error: 'admin.tenants.errors.adminRequired' }).pipe(emailField),
	}),
	z.object({
		intent: z.literal('status'),
		tenantId: z.string({ message: 'admin.tenants.errors.chooseStatus' }).pipe(recordId),
		status: z.enum(TENANT_STATUSES, { message: 'admin.tenants.errors.chooseStatus' }),
		...confirmed,
	}),
	// An unknown or missing tenant is 404, as the page of a tenant that does not exist.
	z.object({ intent: z.literal('enter'), tenantId: recordId.optional() }),
	// Its custom domain serves it (DNS and TLS in place) or not yet (decision 0062).
	z.object({ intent: z.literal('domain'), tenantId: recordId.optional(), live: z.enum(['true', 'false']) }),
])

const TENANT_NOTICES = [
	'tenantCreated',
	'tenantActive',
	'tenantSuspended',
	'tenantArchived',
	'tenantDomainLive',
	'tenantDomainNotLive',
] as const

const STATUS_NOTICES = {
	active: 'tenantActive',
	suspended: 'tenantSuspended',
	archived: 'tenantArchived',
} as const satisfies Record<TenantStatus, NoticeName>

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ context }: Route.LoaderArgs) {
	const scope = requireSuperAdmin(context)
	const tenants = await listTenants(scope.ctx.db)
	return {
		// The status column is CHECK-constrained to TENANT_STATUSES
		tenants: tenants.map((t) => ({
			id: t.id,
			slug: t.slug,
			name: t.name,
			status: t.status,
			customDomain: t.custom_domain,
			domainLive: liveCustomDomain(t) !== null,
			host: new URL(tenantOrigin(scope.ctx, t)).host,
		})),
	}
}

/** Create, change status (suspend, activate, archive) and enter a tenant; each audited. */
export const action = adminAction(
	{ scope: 'platform', guard: requireSuperAdmin },
	async ({ scope }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success')
			return data({ result: replyWithHidden(submission, ['intent', 'tenantId', 'status']) }, { status: 400 })
		const { ctx } = scope
		const input = submission.value

		if (input.intent === 'enter') {
			const tenant = input.tenantId ? await findTenantById(ctx.db, input.tenantId) : null
			if (!tenant || tenant.status !== 'active') throw notFound()
			return redirect(tenantOverrideLink(ctx, scope.session.user, tenant))
		}

		if (input.intent === 'domain') {
			const tenant = input.tenantId ? await findTenantById(ctx.db, input.tenantId) : null
			if (!tenant?.custom_domain) throw notFound()
			const live = input.live === 'true'
			await setCustomDomainLive(scope, tenant, live)
			return redirect(
				localePath(ctx.locale, withNotice('/admin/tenants', live ? 'tenantDomainLive' : 'tenantDomainNotLive')),
			)
		}

		if (input.intent === 'status') {
			const tenant = await findTenantById(ctx.db, input.tenantId)
			if (!tenant) throw notFound()
			if (tenant.status === input.status) return redirect(localePath(ctx.locale, '/admin/tenants'))
			// Suspending and archiving take a tenant's pages away from everyone: asked first.
			if (input.status !== 'active' && !input.confirmed)
				return askToConfirm({
					question: `admin.tenants.confirm.${input.status}`,
					button: `admin.tenants.setStatus.${input.status}`,
					values: { name: tenant.name },
					fields: { intent: 'status', tenantId: tenant.id, status: input.status },
				})
			await setTenantStatus(scope, tenant, input.status)
			return redirect(localePath(ctx.locale, withNotice('/admin/tenants', STATUS_NOTICES[input.status])))
		}

		if (input.custom_domain && reservedDomain(ctx, input.custom_domain)) {
			return data(
				{ result: submission.reply({ fieldErrors: { custom_domain: ['admin.tenants.errors.domainReserved'] } }) },
				{ status: 400 },
			)
		}
		const tenant = await createTenant(scope, input)
		if (!tenant)
			return data(
				{ result: submission.reply({ fieldErrors: { slug: ['admin.tenants.errors.taken'] } }) },
				{ status: 409 },
			)
		return redirect(localePath(ctx.locale, withNotice('/admin/tenants', 'tenantCreated')))
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.admin.tenants.title }) }]
}

export default function Tenants({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.tenants
	const [form, fields] = useActionForm(actionData && 'result' in actionData ? actionData.result : undefined)
	return (
		<section>
			<p className="actions">
				<Link prefetch="intent" to="/admin/tenants/api">
					{m.apiKeys}
				</Link>
			</p>
			<h1>{m.title}</h1>
			<RedirectNotice accept={TENANT_NOTICES} />
			<FormError errors={form.errors} id={form.errorId} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			<ScrollTable label={m.title} cards>
				<thead>
					<tr>
						<th scope="col">{m.tenant}</th>
						<th scope="col">{m.host}</th>
						<th scope="col">{m.status}</th>
						<th scope="col">{m.actions}</th>
					</tr>
				</thead>
				<tbody>
					{d.tenants.map((tenant) => (
						<tr key={tenant.id}>
							<td>{tenant.name}</td>
							<td data-label={m.host}>
								{tenant.host}
								{tenant.customDomain ? (
									<>
										<br />
										{t.format(tenant.domainLive ? m.domainLive : m.domainPending, { domain: tenant.customDomain })}
									</>
								) : null}
							</td>
							<td data-label={m.status}>{t.m.admin.tenantStatuses[tenant.status]}</td>
							<td className="actions">
								{tenant.status === 'active' ? (
									<PostButton link fields={{ intent: 'enter', tenantId: tenant.id }}>
										{t.format(m.open, { name: tenant.name })}
									</PostButton>
								) : null}
								{(['active', 'suspended', 'archived'] as const)
									.filter((s) => s !== tenant.status)
									.map((s) => (
										<PostButton link key={s} fields={{ intent: 'status', tenantId: tenant.id, status: s }}>
											{t.format(m.setStatus[s], { name: tenant.name })}
										</PostButton>
									))}
								{tenant.customDomain ? (
									<PostButton link fields={{ intent: 'domain', tenantId: tenant.id, live: String(!tenant.domainLive) }}>
										{t.format(tenant.domainLive ? m.markNotLive : m.markLive, { domain: tenant.customDomain })}
									</PostButton>
								) : null}
							</td>
						</tr>
					))}
				</tbody>
			</ScrollTable>
			<h2>{m.newTitle}</h2>
			<Form method="post" className="stack narrow" {...getFormProps(form)}>
				<input type="hidden" name="intent" value="create" />
				<Field label={m.slug} meta={fields.slug} />
				<Field label={m.name} meta={fields.name} />
				<Field label={m.customDomain} meta={fields.custom_domain} />
				<Field label={m.adminEmail} meta={fields.admin_email} type="email" autoComplete="off" />
				<Submit>{m.create}</Submit>
			</Form>
		</section>
	)
}
