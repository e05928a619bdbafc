import document from '../../openapi/openapi.yaml?raw'
import { requireAdmin } from '#app/admin/admin.server.ts'
import type { Route } from './+types/admin.api-docs.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ScrollTable } from '#app/ui/table.tsx'

interface Operation {
	summary?: string
	responses: Record<string, { description: string }>
}

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** The route contract: Swagger UI (from the installed package) over a server-rendered list that works without JavaScript. */
export async function loader({ context }: Route.LoaderArgs) {
	requireAdmin(context)
	// The YAML parser on first use: seventy modules every process would load for one admin page.
	const { parse } = await import('yaml')
	const spec = parse(document) as {
		info: { title: string; description: string }
		paths: Record<string, Record<string, Operation>>
	}
	return {
		title: spec.info.title,
		description: spec.info.description,
		operations: Object.entries(spec.paths).flatMap(([path, methods]) =>
			Object.entries(methods).map(([method, op]) => ({
				key: `${method} ${path}`,
				method: method.toUpperCase(),
				path,
				summary: op.summary ?? '',
				statuses: Object.entries(op.responses).map(([status, r]) => `${status}: ${r.description}`),
			})),
		),
	}
}

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: '/admin/api-docs/swagger-ui.css' }]

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.adminCourses.apiDocs.metaTitle }]

export default function ApiDocs({ loaderData: d }: Route.ComponentProps) {
	const m = useI18n().m.adminCourses.apiDocs
	return (
		<section>
			<h1>{m.title}</h1>
			<p>
				<a href="/openapi.yaml">{m.download}</a>
			</p>
			{/* Swagger UI mounts here when JavaScript runs; React leaves this element's content alone. */}
			<div id="swagger-ui" data-label={m.title} dangerouslySetInnerHTML={{ __html: '' }} />
			<div id="api-fallback">
				<p className="lead">{d.description}</p>
				<ScrollTable label={m.title}>
					<thead>
						<tr>
							<th scope="col">{m.operation}</th>
							<th scope="col">{m.summary}</th>
							<th scope="col">{m.answers}</th>
						</tr>
					</thead>
					<tbody>
						{d.operations.map((op) => (
							<tr key={op.key}>
								<td>
									<code>{`${op.method} ${op.path}`}</code>
								</td>
								<td>{op.summary}</td>
								<td>
									<ul>
										{op.statuses.map((s) => (
											<li key={s}>{s}</li>
										))}
									</ul>
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			</div>
			<script src="/admin/api-docs/init.js" async />
		</section>
	)
}
