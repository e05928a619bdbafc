import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { Link } from 'react-router'
import { requireAdmin } from '#app/admin/admin.server.ts'
import { adminCounts } from '#app/admin/counts.server.ts'
import { readableAudit } from '#app/admin/audit-view.server.ts'
import { AuditActionName, AuditDetails, AuditSentence, AuditTarget, PersonName } from '#app/admin/audit.tsx'
import type { Route } from './+types/admin.ts'
import type { ScriptsHandle } from '#app/root.tsx'

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Counts and recent audit rows: the tenant's on a tenant host, the whole platform's for a super_admin on the apex. */
export async function loader({ context }: Route.LoaderArgs) {
	const { ctx, session, tenant, isSuper } = requireAdmin(context)
	const tenantId = tenant?.id ?? null
	const [counts, recent] = await Promise.all([
		adminCounts(ctx.db, tenantId),
		readableAudit(ctx, { tenantId, limit: 10 }),
	])
	return {
		name: session.user.name,
		role: session.user.role,
		tenantName: tenant ? tenant.name : null,
		isSuper,
		onTenant: Boolean(tenant),
		counts,
		recent,
	}
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.admin.home.title }]

export default function Admin({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.home
	return (
		<section>
			<h1>{m.title}</h1>
			<p className="lead">
				{t.format(m.signedInAs, {
					name: d.name,
					role: t.m.admin.roleNames[d.role],
					scope: d.tenantName ?? m.wholePlatform,
				})}
			</p>
			<ul className="stats" aria-label={m.countsLabel}>
				<li>
					<strong>{t.number(d.counts.users)}</strong> {t.plural(m.counts.users, d.counts.users)}
				</li>
				<li>
					<strong>{t.number(d.counts.enrollments)}</strong> {t.plural(m.counts.enrollments, d.counts.enrollments)}
				</li>
				<li>
					<strong>{t.number(d.counts.attempts)}</strong> {t.plural(m.counts.attempts, d.counts.attempts)}
				</li>
				{d.isSuper && !d.onTenant ? (
					<li>
						<strong>{t.number(d.counts.tenants)}</strong> {t.plural(m.counts.tenants, d.counts.tenants)}
					</li>
				) : null}
			</ul>
			<nav aria-label={m.title} className="actions">
				<Link prefetch="intent" to={'/admin/users'}>
					{m.nav.users}
				</Link>
				{d.onTenant ? (
					<Link prefetch="intent" to={'/admin/users/invite'}>
						{m.nav.invite}
					</Link>
				) : null}
				<Link prefetch="intent" to={'/admin/courses'}>
					{m.nav.courses}
				</Link>
				<Link prefetch="intent" to={'/admin/audit'}>
					{m.nav.audit}
				</Link>
				{d.onTenant ? (
					<Link prefetch="intent" to={'/admin/settings'}>
						{m.nav.settings}
					</Link>
				) : null}
				<a href={t.href('/admin/api-docs')}>{m.nav.apiDocs}</a>
				{d.isSuper ? (
					<Link prefetch="intent" to={'/admin/tenants'}>
						{m.nav.tenants}
					</Link>
				) : null}
			</nav>
			<h2>{m.recent}</h2>
			{d.recent.length === 0 ? (
				<p className="empty">{m.empty}</p>
			) : (
				<ul className="activity">
					{/* Who did what to whom, in words, with the details as fields (as in the audit log) */}
					{d.recent.map((a) => (
						<li key={a.id}>
							{`${t.date(a.at)} · `}
							<PersonName person={a.actor} />
							{' · '}
							<AuditActionName action={a.action} />
							{' · '}
							<AuditTarget target={a.target} />
							<AuditSentence summary={a.summary} />
							<AuditDetails details={a.details} />
						</li>
					))}
				</ul>
			)}
		</section>
	)
}
