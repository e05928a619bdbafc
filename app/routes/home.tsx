import { getRequestContext } from '#app/context.ts'
import { socialMeta } from '#app/utils/social.ts'
import type { Route } from './+types/home.ts'

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	return { isApex: ctx.tenant === null, baseDomain: ctx.env.APP_BASE_DOMAIN }
}

export const meta: Route.MetaFunction = ({ matches }) => {
	const root = matches[0]?.loaderData && 'site' in matches[0].loaderData ? matches[0].loaderData : null
	return [{ title: root?.site.name ?? 'Open LMS' }, { name: 'description', content: root?.site.description ?? '' }, ...socialMeta(root?.origin)]
}

export default function Home({ loaderData, matches }: Route.ComponentProps) {
	const site = matches[0].loaderData.site
	if (loaderData.isApex) {
		return (
			<section className="hero">
				<h1>{site.name}</h1>
				<p className="lead">{site.description}</p>
				<p>
					Each school or company has its own learning site on its own address, such as{' '}
					<code>yourschool.{loaderData.baseDomain}</code> or a domain of its own.
				</p>
			</section>
		)
	}
	return (
		<section className="hero">
			<h1>{site.name}</h1>
			<p className="lead">{site.description}</p>
			<p>
				<a className="button" href="/learn">
					Browse courses
				</a>
			</p>
		</section>
	)
}
