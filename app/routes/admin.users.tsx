import { Form } from 'react-router'
import { NO_NUL } from '#app/utils/validation.ts'
import { z } from 'zod'
import { requireAdmin } from '#app/utils/admin.server.ts'
import { listUsers } from '#db/admin.ts'
import { ROLES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.users.ts'

const filters = z.object({
	q: z.string().trim().max(200).regex(NO_NUL).optional().catch(undefined),
	role: z.enum(ROLES).optional().catch(undefined),
	status: z.enum(['active', 'deactivated', 'unverified']).optional().catch(undefined),
	page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
})

/** Users of this tenant (every user for a super_admin on the apex), searchable and filterable, 50 a page. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const { ctx, tenant } = requireAdmin(context, request)
	const params = filters.parse(Object.fromEntries(new URL(request.url).searchParams))
	const result = await listUsers(ctx.db, { tenantId: tenant?.id ?? null, ...params, q: params.q || undefined })
	return {
		params,
		onTenant: Boolean(tenant),
		...result,
		rows: result.rows.map((u) => ({
			id: u.id,
			email: u.email,
			name: u.name,
			role: u.role,
			status: u.deactivated_at ? 'deactivated' : u.email_verified_at ? 'active' : 'unverified',
		})),
	}
}

export const meta: Route.MetaFunction = () => [{ title: 'Users · Administration' }]

export default function Users({ loaderData: d }: Route.ComponentProps) {
	const query = (page: number) => {
		const search = new URLSearchParams()
		if (d.params.q) search.set('q', d.params.q)
		if (d.params.role) search.set('role', d.params.role)
		if (d.params.status) search.set('status', d.params.status)
		search.set('page', String(page))
		return `?${search}`
	}
	return (
		<section>
			<h1>Users</h1>
			{d.onTenant ? (
				<p>
					<a className="button" href="/admin/users/invite">
						Invite someone
					</a>
				</p>
			) : null}
			<Form method="get" className="filters" role="search">
				<label>
					Search <input type="search" name="q" defaultValue={d.params.q ?? ''} placeholder="Name or email" />
				</label>
				<label>
					Role{' '}
					<select name="role" defaultValue={d.params.role ?? ''}>
						<option value="">Any</option>
						<option value="student">Student</option>
						<option value="course_admin">Course admin</option>
						<option value="tenant_admin">Tenant admin</option>
						<option value="super_admin">Super admin</option>
					</select>
				</label>
				<label>
					Status{' '}
					<select name="status" defaultValue={d.params.status ?? ''}>
						<option value="">Any</option>
						<option value="active">Active</option>
						<option value="unverified">Unverified</option>
						<option value="deactivated">Deactivated</option>
					</select>
				</label>
				<button type="submit" className="button button-secondary">
					Filter
				</button>
			</Form>
			<p className="hint">{`${d.total} users · page ${d.page} of ${d.pages}`}</p>
			{d.rows.length === 0 ? (
				<p className="empty">No users match.</p>
			) : (
				<table>
					<thead>
						<tr>
							<th scope="col">Name</th>
							<th scope="col">Email</th>
							<th scope="col">Role</th>
							<th scope="col">Status</th>
						</tr>
					</thead>
					<tbody>
						{d.rows.map((u) => (
							<tr key={u.id}>
								<td>
									<a href={`/admin/users/${u.id}`}>{u.name}</a>
								</td>
								<td className="break">{u.email}</td>
								<td>{u.role.replace('_', ' ')}</td>
								<td>{u.status}</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			<nav aria-label="Pages" className="actions">
				{d.page > 1 ? <a href={query(d.page - 1)}>← Previous</a> : null}
				{d.page < d.pages ? <a href={query(d.page + 1)}>Next →</a> : null}
			</nav>
		</section>
	)
}
