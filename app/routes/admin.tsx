import { requireAdmin } from '#app/utils/admin.server.ts'
import { formatDate } from '#app/utils/format.ts'
import { adminCounts, listAudit } from '#db/admin.ts'
import type { Route } from './+types/admin.ts'

/** Counts and recent audit rows: the tenant's on a tenant host, the whole platform's for a super_admin on the apex. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const { ctx, session, tenant, isSuper } = requireAdmin(context, request)
	const tenantId = tenant?.id ?? null
	const [counts, recent] = await Promise.all([adminCounts(ctx.db, tenantId), listAudit(ctx.db, { tenantId, limit: 10 })])
	return {
		name: session.user.name,
		role: session.user.role,
		scope: tenant ? tenant.name : 'the whole platform',
		isSuper,
		onTenant: Boolean(tenant),
		locale: ctx.locale,
		counts,
		recent: recent.map((a) => ({ id: a.id, action: a.action, targetKind: a.target_kind, createdAt: a.created_at.toISOString() })),
	}
}

export const meta: Route.MetaFunction = () => [{ title: 'Administration' }]

export default function Admin({ loaderData: d }: Route.ComponentProps) {
	return (
		<section>
			<h1>Administration</h1>
			<p className="lead">{`Signed in as ${d.name} (${d.role.replace('_', ' ')}) · ${d.scope}`}</p>
			<ul className="stats" aria-label="Counts">
				<li>
					<strong>{d.counts.users}</strong> users
				</li>
				<li>
					<strong>{d.counts.enrollments}</strong> enrollments
				</li>
				<li>
					<strong>{d.counts.attempts}</strong> quiz attempts
				</li>
				{d.isSuper && !d.onTenant ? (
					<li>
						<strong>{d.counts.tenants}</strong> tenants
					</li>
				) : null}
			</ul>
			<nav aria-label="Administration" className="actions">
				<a href="/admin/users">Users</a>
				{d.onTenant ? <a href="/admin/users/invite">Invite</a> : null}
				<a href="/admin/courses">Courses</a>
				<a href="/admin/audit">Audit log</a>
				<a href="/admin/api-docs">API documentation</a>
				{d.isSuper ? <a href="/admin/tenants">Tenants</a> : null}
			</nav>
			<h2>Recent activity</h2>
			{d.recent.length === 0 ? (
				<p className="empty">Nothing has happened yet.</p>
			) : (
				<ul>
					{d.recent.map((a) => (
						<li key={a.id}>{`${formatDate(a.createdAt, d.locale)} · ${a.action} (${a.targetKind})`}</li>
					))}
				</ul>
			)}
		</section>
	)
}
