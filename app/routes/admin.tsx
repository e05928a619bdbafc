import { requireRole } from '#app/utils/auth.server.ts'
import type { Route } from './+types/admin.ts'

// Issue 5 builds the admin area; the role check is already on the server.
export function loader({ context, request }: Route.LoaderArgs) {
	const { claims } = requireRole(context, request, ['tenant_admin', 'super_admin', 'course_admin'])
	if (claims.role === 'course_admin') throw new Response(null, { status: 404 })
	return { name: claims.name, role: claims.role }
}

export const meta: Route.MetaFunction = () => [{ title: 'Administration' }]

export default function Admin({ loaderData }: Route.ComponentProps) {
	return (
		<section>
			<h1>Administration</h1>
			<p className="lead">
				Signed in as {loaderData.name} ({loaderData.role.replace('_', ' ')})
			</p>
		</section>
	)
}
