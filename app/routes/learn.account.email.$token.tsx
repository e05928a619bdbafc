import { Form, redirect } from 'react-router'
import { Submit } from '#app/ui/feedback.tsx'
import { TokenProblem } from '#app/accounts/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { sessionCookie } from '#app/accounts/session.server.ts'
import { hostTokenScope, peekToken, readToken } from '#app/accounts/tokens.server.ts'
import { emailField } from '#app/platform/validation.ts'
import { confirmEmailChange } from '#app/accounts/account.server.ts'
import { findUserByEmail } from '#app/accounts/users.server.ts'
import type { Route } from './+types/learn.account.email.$token.ts'
import { withNotice } from '#app/platform/notices.ts'

// Opening the link only checks it: link scanners that fetch it cannot use it up.
export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const { user } = requireSession(context)
	const check = await peekToken(ctx.db, params.token, 'email_change', new Date(), hostTokenScope(ctx))
	if (!check.ok) return { problem: check.reason, newEmail: null }
	if (check.token.user_id !== user.id) return { problem: 'invalid' as const, newEmail: null }
	return { problem: null, newEmail: readToken(params.token, 'email_change')?.payload ?? null }
}

// confirmEmailChangeAction: re-checks ownership, consumes the token, updates users.email.
export async function action({ params, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const session = requireSession(context)
	const { user } = session
	const newEmail = emailField.safeParse(readToken(params.token, 'email_change')?.payload)
	const pending = await peekToken(ctx.db, params.token, 'email_change', new Date(), hostTokenScope(ctx))
	if (!newEmail.success || !pending.ok || pending.token.user_id !== user.id)
		return { problem: 'invalid' as const, newEmail: null }
	if (await findUserByEmail(ctx.db, user.tenant_id, newEmail.data)) return { problem: 'taken' as const, newEmail: null }
	const outcome = await confirmEmailChange(ctx, session, params.token, newEmail.data)
	if ('problem' in outcome) return { problem: outcome.problem, newEmail: null }
	const { cookie } = await sessionCookie(ctx, outcome.session)
	throw redirect(localePath(ctx.locale, withNotice('/learn/account', 'emailChanged')), {
		headers: { 'set-cookie': cookie },
	})
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.confirmEmail.title }]

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts.confirmEmail
	const state = actionData ?? loaderData
	if (state.problem === 'taken') {
		return (
			<section className="narrow">
				<h1>{text.heading}</h1>
				<p role="alert">{t.m.accounts.account.emailTaken}</p>
				<p>
					<a className="button" href={t.href('/learn/account')}>
						{text.retry}
					</a>
				</p>
			</section>
		)
	}
	if (state.problem) return <TokenProblem reason={state.problem} retryHref="/learn/account" retryLabel={text.retry} />
	return (
		<section className="narrow">
			<h1>{text.heading}</h1>
			<p>{t.rich(text.question, { email: <strong>{state.newEmail}</strong> })}</p>
			<Form method="post" className="actions">
				<Submit>{text.submit}</Submit>
				<a href={t.href('/learn/account')}>{text.cancel}</a>
			</Form>
		</section>
	)
}
