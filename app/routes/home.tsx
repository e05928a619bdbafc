import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { socialMeta } from '#app/utils/social.ts'
import type { Route } from './+types/home.ts'

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	return { isApex: ctx.tenant === null, baseDomain: ctx.env.APP_BASE_DOMAIN }
}

export const meta: Route.MetaFunction = ({ matches }) => {
	const root = matches[0]?.loaderData && 'site' in matches[0].loaderData ? matches[0].loaderData : null
	return [{ title: root?.site.name ?? metaI18n(matches).m.common.platformName }, ...socialMeta(root?.origin)]
}

export default function Home({ loaderData, matches }: Route.ComponentProps) {
	const t = useI18n()
	const site = matches[0].loaderData.site
	if (loaderData.isApex) {
		return (
			<section className="hero">
				<h1>{site.name}</h1>
				<p className="lead">{site.description}</p>
				<p>{t.rich(t.m.content.home.apexIntro, { example: <code>yourschool.{loaderData.baseDomain}</code> })}</p>
			</section>
		)
	}
	return (
		<section className="hero">
			<h1>{site.name}</h1>
			<p className="lead">{site.description}</p>
			<p>
				<a className="button" href={t.href('/learn')}>
					{t.m.content.home.browse}
				</a>
			</p>
		</section>
	)
}
