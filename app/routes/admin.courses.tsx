import { requireAdmin } from '#app/utils/admin.server.ts'
import { readContent } from '#app/utils/cms.server.ts'
import type { Route } from './+types/admin.courses.ts'
import { TenantHint } from '#app/components/learning.tsx'

/** Read-only catalogue of the tenant's courses in every state, with links to each course's admin pages. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const { ctx, tenant } = requireAdmin(context, request)
	if (!tenant) return { hint: true as const, courses: [] }
	const courses = await readContent('catalogue', () => ctx.cms.courses(ctx.site, ctx.locale))
	return {
		hint: false as const,
		courses: courses.map((c) => ({ slug: c.slug, title: c.title, status: c.status, listed: c.listed, entryCount: c.entryCount, paid: Boolean(c.price) })),
	}
}

export const meta: Route.MetaFunction = () => [{ title: 'Courses · Administration' }]

export default function AdminCourses({ loaderData: d }: Route.ComponentProps) {
	if (d.hint) return <TenantHint title="Courses" what="Courses" />
	return (
		<section>
			<h1>Courses</h1>
			<table>
				<thead>
					<tr>
						<th scope="col">Course</th>
						<th scope="col">Status</th>
						<th scope="col">Entries</th>
						<th scope="col">Admin</th>
					</tr>
				</thead>
				<tbody>
					{d.courses.map((c) => (
						<tr key={c.slug}>
							<td>{c.title}</td>
							<td>{`${c.status}${c.listed ? '' : ' (unlisted)'}${c.paid ? ' · paid' : ''}`}</td>
							<td>{c.entryCount}</td>
							<td className="actions">
								<a href={`/admin/courses/${c.slug}/dashboard`}>Dashboard</a>
								<a href={`/admin/courses/${c.slug}/settings`}>Settings</a>
								<a href={`/admin/courses/${c.slug}/admins`}>Admins</a>
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</section>
	)
}
