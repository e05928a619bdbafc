import { getRequestContext } from '#app/context.ts'
import { requireSession } from '#app/utils/auth.server.ts'
import { listEnrollments } from '#db/learning.ts'
import type { Route } from './+types/learn.dashboard.ts'

// The learner's home. Issue 4 adds progress bars, resume links and quiz scores.
export async function loader({ context, request }: Route.LoaderArgs) {
	const { claims } = requireSession(context, request)
	const ctx = getRequestContext(context)
	const rows = claims.tenantId ? await listEnrollments(ctx.db, { tenantId: claims.tenantId, userId: claims.userId }) : []
	return { name: claims.name, email: claims.email, enrollments: rows.map(({ course_slug, status }) => ({ course_slug, status })) }
}

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard' }]

export default function Dashboard({ loaderData }: Route.ComponentProps) {
	return (
		<section>
			<h1>Welcome, {loaderData.name}</h1>
			<p className="lead">Signed in as {loaderData.email}</p>
			<h2>My courses</h2>
			{loaderData.enrollments.length === 0 ? (
				<p className="empty">
					You are not enrolled in any course yet. <a href="/learn">Browse courses</a>
				</p>
			) : (
				<ul>
					{loaderData.enrollments.map((e) => (
						<li key={e.course_slug}>
							<a href={`/learn/course/${e.course_slug}`}>{e.course_slug}</a> ({e.status})
						</li>
					))}
				</ul>
			)}
		</section>
	)
}
