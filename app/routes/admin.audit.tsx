import { Form } from 'react-router'
import { instantParam, NO_NUL } from '#app/platform/validation.ts'
import { z } from 'zod'
import { requireAdmin } from '#app/admin/admin.server.ts'
import { parseInstantCursor } from '#app/platform/canonical.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { readableAudit } from '#app/admin/audit-view.server.ts'
import { AuditActionName, AuditDetails, AuditSentence, AuditTarget, PersonName } from '#app/admin/audit.tsx'
import type { Route } from './+types/admin.audit.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ScrollTable } from '#app/ui/table.tsx'

const filters = z.object({
	action: z.string().trim().max(100).regex(NO_NUL).optional().catch(undefined),
	target: z.string().trim().max(50).regex(NO_NUL).optional().catch(undefined),
	actor: z.string().trim().max(100).regex(NO_NUL).optional().catch(undefined),
	since: instantParam('date'),
})

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** The audit log, newest first: this tenant's rows on a tenant host, every row for a super_admin on the apex. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const { ctx, tenant } = requireAdmin(context)
	const url = new URL(request.url)
	const f = filters.parse(Object.fromEntries(url.searchParams))
	// The paging cursor only as the page's own link writes it (canonical.server.ts), else the newest rows.
	const before = parseInstantCursor(url.search, 'before')
	const rows = await readableAudit(ctx, {
		tenantId: tenant?.id ?? null,
		action: f.action || undefined,
		targetKind: f.target || undefined,
		actor: f.actor || undefined,
		since: f.since ? new Date(`${f.since}T00:00:00Z`) : undefined,
		before: before ?? undefined,
		limit: 101,
	})
	const page = rows.slice(0, 100)
	return {
		filters: f,
		global: !tenant,
		rows: page,
		// Older rows: continue from the last shown timestamp.
		next: rows.length > 100 ? page[page.length - 1].at : null,
	}
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.adminCourses.audit.metaTitle }]

export default function Audit({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.adminCourses.audit
	const older = () => {
		const search = new URLSearchParams(Object.entries(d.filters).filter(([, v]) => v) as [string, string][])
		search.set('before', d.next!)
		return `?${search}`
	}
	return (
		<section>
			<h1>{m.title}</h1>
			<p className="hint">{d.global ? m.global : m.tenant}</p>
			<Form method="get" className="filters" role="search">
				<label>
					{m.actionFilter} <input name="action" defaultValue={d.filters.action ?? ''} placeholder="user." />
				</label>
				<label>
					{m.targetFilter} <input name="target" defaultValue={d.filters.target ?? ''} placeholder="user" />
				</label>
				<label>
					{m.actorFilter} <input name="actor" defaultValue={d.filters.actor ?? ''} />
				</label>
				<label>
					{m.sinceFilter} <input type="date" name="since" defaultValue={d.filters.since ?? ''} />
				</label>
				<button type="submit" className="button button-secondary">
					{m.filter}
				</button>
			</Form>
			{d.rows.length === 0 ? (
				<p className="empty">{m.empty}</p>
			) : (
				<ScrollTable label={m.title}>
					<thead>
						<tr>
							<th scope="col">{m.when}</th>
							<th scope="col">{m.action}</th>
							<th scope="col">{m.actor}</th>
							<th scope="col">{m.target}</th>
							{d.global ? <th scope="col">{m.tenantColumn}</th> : null}
							<th scope="col">{m.details}</th>
						</tr>
					</thead>
					<tbody>
						{d.rows.map((r) => (
							<tr key={r.id}>
								<td>{t.date(r.at)}</td>
								<td>
									<AuditActionName action={r.action} />
								</td>
								<td>
									<PersonName person={r.actor} />
								</td>
								<td>
									<AuditTarget target={r.target} />
								</td>
								{d.global ? <td>{r.tenant ?? m.platform}</td> : null}
								<td>
									<AuditSentence summary={r.summary} />
									<AuditDetails details={r.details} />
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
			{d.next ? (
				<p>
					<a href={older()}>{m.older}</a>
				</p>
			) : null}
		</section>
	)
}
