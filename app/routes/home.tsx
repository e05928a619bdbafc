import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { describePage, organization, rootData } from '#app/content/seo.ts'
import type { IndexableHandle } from '#app/root.tsx'
import type { Route } from './+types/home.ts'
import { RedirectNotice } from '#app/ui/feedback.tsx'

export const handle = { indexable: true } satisfies IndexableHandle

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	return { isApex: ctx.tenant === null, baseDomain: ctx.env.APP_BASE_DOMAIN }
}

export const meta: Route.MetaFunction = ({ matches }) => {
	if (!rootData(matches)) return [{ title: metaI18n(matches).m.common.platformName }]
	return describePage(matches, {
		structuredData: [{ ...organization(matches), description: rootData(matches)?.site.description || undefined }],
	})
}

export default function Home({ loaderData, matches }: Route.ComponentProps) {
	const t = useI18n()
	const site = matches[0].loaderData.site
	return (
		<section className="hero">
			<RedirectNotice accept={['signedOut']} />
			<h1 lang={site.locale}>{site.name}</h1>
			<p className="lead" lang={site.descriptionLocale}>
				{site.description}
			</p>
			{loaderData.isApex ? (
				<p>{t.rich(t.m.content.home.apexIntro, { example: <code>yourschool.{loaderData.baseDomain}</code> })}</p>
			) : (
				<p>
					<a className="button" href={t.href('/learn')}>
						{t.m.content.home.browse}
					</a>
				</p>
			)}
		</section>
	)
}
