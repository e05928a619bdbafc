import { Form, redirect } from 'react-router'
import { Submit } from '#app/ui/feedback.tsx'
import { TokenProblem } from '#app/accounts/token-problem.tsx'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { signInWithEmailedToken } from '#app/accounts/auth.server.ts'
import { magicLinkEnabled } from '#app/platform/tenant.server.ts'
import { hostTokenScope, peekToken } from '#app/accounts/tokens.server.ts'
import { findUserById } from '#app/accounts/users.server.ts'
import type { Route } from './+types/learn.magic.$token.ts'

function requireMagicLinks(ctx: RequestContext) {
	if (!ctx.tenant || !magicLinkEnabled(ctx.tenant)) throw redirect(localePath(ctx.locale, '/learn/sign-in'))
}

/**
 * Opening the link only checks it and asks: a page another site sends the
 * browser to (login CSRF) or a mail scanner that fetches it signs nobody in
 * and uses nothing up.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	requireMagicLinks(ctx)
	const check = await peekToken(ctx.db, params.token, 'magic_link', new Date(), hostTokenScope(ctx))
	if (!check.ok) return { problem: check.reason, email: null }
	const user = await findUserById(ctx.db, check.token.user_id)
	return user ? { problem: null, email: user.email } : { problem: 'invalid' as const, email: null }
}

// consumeMagicLinkAction: the confirm button, a same-origin post.
export async function action({ params, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	requireMagicLinks(ctx)
	const result = await signInWithEmailedToken(ctx, params.token, 'magic_link')
	if (result instanceof Response) return result
	return { problem: result.reason, email: null }
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.magicToken.title }]

export default function MagicToken({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts.magicToken
	const state = actionData ?? loaderData
	if (state.problem || !state.email)
		return <TokenProblem reason={state.problem ?? 'invalid'} retryHref="/learn/magic" retryLabel={text.retry} />
	return (
		<section className="narrow">
			<h1>{text.heading}</h1>
			<p>{t.rich(text.question, { email: <strong>{state.email}</strong> })}</p>
			<Form method="post" className="actions">
				<Submit>{text.submit}</Submit>
			</Form>
		</section>
	)
}
