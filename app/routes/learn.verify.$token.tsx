import { Form } from 'react-router'
import { Notice, Submit } from '#app/ui/feedback.tsx'
import { TokenProblem } from '#app/accounts/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { roleLanding, safeCallbackUrl, signInWithEmailedToken } from '#app/accounts/auth.server.ts'
import { getSession } from '#app/accounts/session.server.ts'
import { hostTokenScope, peekToken } from '#app/accounts/tokens.server.ts'
import { findUserById } from '#app/accounts/users.server.ts'
import type { Route } from './+types/learn.verify.$token.ts'

/** Where the learner was going when they signed up (a course), if it is a path of this site. */
const callbackOf = (request: Request) =>
	safeCallbackUrl(new URL(request.url).searchParams.get('callbackUrl')) ?? undefined

/** A second click on a used link by the learner it confirmed (signed in, verified): nothing is wrong. */
function alreadyConfirmed(context: Route.LoaderArgs['context'], callbackUrl: string | undefined) {
	const session = getSession(context)
	return session?.user.email_verified_at
		? { reason: 'confirmed' as const, continueHref: callbackUrl ?? roleLanding(session.claims), email: null }
		: null
}

/**
 * Opening the link only checks it and asks (decision 0032): a page another site sends the browser to
 * (login CSRF), a mail scanner or a prefetch confirms nothing and signs nobody in. The button posts to
 * this same URL, so the callbackUrl the link carries goes with it.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const check = await peekToken(ctx.db, params.token, 'email_verify', new Date(), hostTokenScope(ctx))
	if (!check.ok)
		return (
			(check.reason === 'used' && alreadyConfirmed(context, callbackOf(request))) || {
				reason: check.reason,
				email: null,
			}
		)
	const user = await findUserById(ctx.db, check.token.user_id)
	return user ? { reason: null, email: user.email } : { reason: 'invalid' as const, email: null }
}

// The confirm button: a same-origin post uses the token, proves the address and signs in (one transaction).
export async function action({ params, context, request }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const callbackUrl = callbackOf(request)
	const result = await signInWithEmailedToken(ctx, params.token, 'email_verify', callbackUrl)
	if (result instanceof Response) return result
	return (result.reason === 'used' && alreadyConfirmed(context, callbackUrl)) || { reason: result.reason, email: null }
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.verify.title }]

export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts.verify
	const state = actionData ?? loaderData
	if (state.reason === 'confirmed')
		return (
			<section className="narrow">
				<h1>{text.alreadyConfirmedTitle}</h1>
				<Notice tone="ok">{text.alreadyConfirmed}</Notice>
				<p>
					<a className="button" href={t.href(state.continueHref)}>
						{text.continue}
					</a>
				</p>
			</section>
		)
	if (state.reason || !state.email)
		return (
			<TokenProblem
				reason={state.reason ?? 'invalid'}
				retryHref="/learn/sign-in"
				retryLabel={t.m.accounts.goToSignIn}
			/>
		)
	return (
		<section className="narrow">
			<h1>{text.title}</h1>
			<p>{t.rich(text.question, { email: <strong>{state.email}</strong> })}</p>
			<Form method="post" className="actions">
				<Submit>{text.submit}</Submit>
			</Form>
		</section>
	)
}
