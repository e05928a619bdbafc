import { data, Form } from 'react-router'
import { Submit } from '#app/ui/feedback.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { siteName } from '#app/content/site.server.ts'
import { readUnsubscribeLink, unsubscribe } from '#app/reminders/preferences.server.ts'
import type { Route } from './+types/learn.unsubscribe.$token.ts'

/*
 * A reminder mail's one-click unsubscribe (RFC 8058, decision 0047). GET asks (a link checker or a
 * preview opening it changes nothing); POST turns that kind off for that person without a session:
 * the mail provider's one-click POST (body `List-Unsubscribe=One-Click`, no cookies) and this page's
 * button alike. A token that is not this tenant's, expired or forged is 404 either way.
 */

async function link(context: Route.LoaderArgs['context'], token: string) {
	const ctx = getRequestContext(context)
	return { ctx, found: await readUnsubscribeLink(ctx, token) }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const { ctx, found } = await link(context, params.token)
	if (!found) return data({ invalid: true as const }, { status: 404 })
	return { invalid: false as const, kind: found.kind, done: found.off, site: await siteName(ctx, ctx.locale) }
}

export async function action({ params, context }: Route.ActionArgs) {
	const { ctx, found } = await link(context, params.token)
	if (!found) return data({ invalid: true as const }, { status: 404 })
	// A second POST (a provider retrying, a double press) finds the kind off and answers the same.
	await unsubscribe(ctx, found)
	return { invalid: false as const, kind: found.kind, done: true, site: await siteName(ctx, ctx.locale) }
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [
	{ title: metaI18n(matches).m.accounts.unsubscribe.title },
	{ name: 'robots', content: 'noindex' },
]

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts.unsubscribe
	const state = actionData ?? loaderData
	if (state.invalid)
		return (
			<section className="narrow">
				<h1>{text.invalidTitle}</h1>
				<p>{text.invalid}</p>
			</section>
		)
	return (
		<section className="narrow stack">
			<h1>{text.title}</h1>
			<p>
				<strong>{text[`kind_${state.kind}`]}</strong>
			</p>
			{state.done ? (
				<p role="status">{text.done}</p>
			) : (
				<Form method="post" className="stack">
					<p>{t.format(text.question, { site: state.site })}</p>
					<input type="hidden" name="List-Unsubscribe" value="One-Click" />
					<Submit>{text.confirm}</Submit>
				</Form>
			)}
			<p>
				<a href={t.href('/learn/account#reminders')}>{text.account}</a>
			</p>
		</section>
	)
}
