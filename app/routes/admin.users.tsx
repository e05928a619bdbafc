import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { NO_NUL, recordId } from '#app/platform/validation.ts'
import { z } from 'zod'
import { adminAction, requireAdmin, tenantOrigin } from '#app/admin/admin.server.ts'
import { formErrorResult, limitAction, readForm, TOO_MANY } from '#app/platform/forms.server.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { withNotice } from '#app/platform/notices.ts'
import { FormError, PostButton, RedirectNotice } from '#app/ui/feedback.tsx'
import { COUNT_CAP, findScopedUser, isErasedEmail, listUsers, resendVerification } from '#app/admin/users.server.ts'
import { findTenantById, listTenants } from '#app/admin/tenants.server.ts'
import { ROLES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.users.ts'
import { parseIdCursor } from '#app/platform/canonical.server.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ScrollTable } from '#app/ui/table.tsx'

// The order of the status filter's options
const USER_STATUSES = ['active', 'unverified', 'deactivated', 'erased'] as const

const filters = z.object({
	q: z.string().trim().max(200).regex(NO_NUL).optional().catch(undefined),
	role: z.enum(ROLES).optional().catch(undefined),
	status: z.enum(USER_STATUSES).optional().catch(undefined),
	// On the apex only: one tenant's users, by slug
	tenant: z.string().max(63).regex(NO_NUL).optional().catch(undefined),
})

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/**
 * Users of this tenant, searchable and filterable, 50 a page. On the apex a super_admin sees every
 * user, with each one's tenant and a tenant filter.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
	const { ctx, tenant } = requireAdmin(context)
	const url = new URL(request.url)
	// Keyset cursors (a user id of the list, see listUsers) only as the list's own links write them
	// (canonical.server.ts); any other spelling, or both, is the first page.
	const params = { ...filters.parse(Object.fromEntries(url.searchParams)), ...parseIdCursor(url.search) }
	const tenants = tenant ? [] : await listTenants(ctx.db)
	const chosen = tenants.find((t) => t.slug === params.tenant)
	const result = await listUsers(ctx.db, {
		...params,
		tenantId: tenant?.id ?? chosen?.id ?? null,
		q: params.q || undefined,
	})
	const tenantNames = new Map(tenants.map((t) => [t.id, t.name]))
	return {
		params: { ...params, tenant: chosen?.slug },
		onTenant: Boolean(tenant),
		tenants: tenants.map((t) => ({ slug: t.slug, name: t.name })),
		countCap: COUNT_CAP,
		...result,
		rows: result.rows.map((u) => ({
			id: u.id,
			email: u.email,
			name: u.name,
			role: u.role,
			tenant: u.tenant_id ? (tenantNames.get(u.tenant_id) ?? null) : null,
			// Listed only when asked for (listUsers): erased people have no actions left.
			status: (isErasedEmail(u.email)
				? 'erased'
				: u.deactivated_at
					? 'deactivated'
					: u.email_verified_at
						? 'active'
						: 'unverified') as (typeof USER_STATUSES)[number],
		})),
	}
}

// The list's one action: a new confirmation link to an unverified account (issue 40), as on the user's page.
const schema = z.object({
	intent: z.literal('resend-verification', { message: 'admin.user.errors.unknownAction' }),
	userId: recordId,
})

export const action = adminAction({ scope: 'platform' }, async ({ scope }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { ctx } = scope
	// Another tenant's user (or an id of none) is 404, like their page; a tenant admin does not manage platform accounts.
	const target = await findScopedUser(ctx.db, scope.tenant?.id ?? null, submission.value.userId)
	if (!target || (target.role === 'super_admin' && !scope.isSuper)) throw notFound()
	const refuse = (message: string) => data({ result: submission.reply({ formErrors: [message] }) }, { status: 409 })
	if (target.deactivated_at) return refuse('admin.users.errors.deactivated')
	if (target.email_verified_at) return refuse('admin.user.errors.alreadyVerified')
	// Per account, with the learner's own resends (the same inbox): a few an hour, however many admins click.
	const inbox = await limitAction(ctx, 'verificationResend', target.id, { result: formErrorResult(TOO_MANY) })
	if (inbox) return inbox
	// The link opens on the account's own host: on the apex the super admin resends for a user of some tenant,
	// whose links are valid only there.
	const home =
		target.tenant_id && target.tenant_id !== scope.tenant?.id ? await findTenantById(ctx.db, target.tenant_id) : null
	const site = home ? { origin: tenantOrigin(ctx, home), tenantId: home.id, locale: ctx.locale } : jobSite(ctx)
	await resendVerification(scope, target, site)
	return redirect(localePath(ctx.locale, withNotice('/admin/users', 'verificationSent')))
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.admin.users.title }) }]
}

export default function Users({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.users
	const query = (cursor?: { after: string } | { before: string }) => {
		const search = new URLSearchParams()
		if (d.params.q) search.set('q', d.params.q)
		if (d.params.role) search.set('role', d.params.role)
		if (d.params.status) search.set('status', d.params.status)
		if (d.params.tenant) search.set('tenant', d.params.tenant)
		for (const [name, id] of Object.entries(cursor ?? {})) search.set(name, id)
		return search.size ? `?${search}` : t.href('/admin/users')
	}
	return (
		<section>
			<h1>{m.title}</h1>
			<RedirectNotice accept={['verificationSent']} />
			<FormError result={actionData?.result} />
			{d.onTenant ? (
				<p className="actions">
					<Link className="button" prefetch="intent" to={'/admin/users/invite'}>
						{m.invite}
					</Link>
					<Link prefetch="intent" to={'/admin/users/invitations'}>
						{t.m.admin.invitations.title}
					</Link>
				</p>
			) : null}
			<Form method="get" className="filters" role="search">
				<label>
					{m.search} <input type="search" name="q" defaultValue={d.params.q ?? ''} placeholder={m.searchPlaceholder} />
				</label>
				<label>
					{m.role}{' '}
					<select name="role" defaultValue={d.params.role ?? ''}>
						<option value="">{m.any}</option>
						{ROLES.map((r) => (
							<option key={r} value={r}>
								{t.m.admin.roles[r]}
							</option>
						))}
					</select>
				</label>
				<label>
					{m.status}{' '}
					<select name="status" defaultValue={d.params.status ?? ''}>
						<option value="">{m.any}</option>
						{USER_STATUSES.map((s) => (
							<option key={s} value={s}>
								{t.m.admin.userStatuses[s]}
							</option>
						))}
					</select>
				</label>
				{d.onTenant ? null : (
					<label>
						{m.tenant}{' '}
						<select name="tenant" defaultValue={d.params.tenant ?? ''}>
							<option value="">{m.any}</option>
							{d.tenants.map((tenant) => (
								<option key={tenant.slug} value={tenant.slug}>
									{tenant.name}
								</option>
							))}
						</select>
					</label>
				)}
				<button type="submit" className="button button-secondary">
					{m.filter}
				</button>
			</Form>
			<p className="hint">
				{d.totalCapped ? t.format(m.summaryMore, { count: t.number(d.countCap) }) : t.plural(m.summary, d.total)}
			</p>
			{d.rows.length === 0 ? (
				<p className="empty">{m.empty}</p>
			) : (
				<ScrollTable label={m.title} cards>
					<thead>
						<tr>
							<th scope="col">{m.name}</th>
							<th scope="col">{m.email}</th>
							{d.onTenant ? null : <th scope="col">{m.tenant}</th>}
							<th scope="col">{m.role}</th>
							<th scope="col">{m.status}</th>
						</tr>
					</thead>
					<tbody>
						{d.rows.map((u) => (
							<tr key={u.id}>
								<td>
									<Link prefetch="intent" to={`/admin/users/${u.id}`}>
										{u.name || t.m.admin.user.erasure.erasedName}
									</Link>
								</td>
								<td className="break" data-label={m.email}>
									{u.email}
								</td>
								{d.onTenant ? null : <td data-label={m.tenant}>{u.tenant ?? m.platform}</td>}
								<td data-label={m.role}>{t.m.admin.roleNames[u.role]}</td>
								<td data-label={m.status}>
									{u.status === 'unverified' ? (
										<div className="row-actions">
											<span className="badge badge-warn">{t.m.admin.userStatusNames[u.status]}</span>
											<PostButton link fields={{ intent: 'resend-verification', userId: u.id }}>
												{t.format(m.resend, { name: u.name })}
											</PostButton>
										</div>
									) : (
										t.m.admin.userStatusNames[u.status]
									)}
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
			<nav aria-label={m.pages} className="actions">
				{d.firstPage ? null : <a href={query()}>{m.first}</a>}
				{d.previous ? <a href={query({ before: d.previous })}>{m.previous}</a> : null}
				{d.next ? <a href={query({ after: d.next })}>{m.next}</a> : null}
			</nav>
		</section>
	)
}
