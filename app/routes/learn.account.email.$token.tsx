import { Form, redirect } from 'react-router'
import { Submit } from '#app/ui/feedback.tsx'
import { TokenProblem } from '#app/accounts/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { newSessionSteps, sessionCookie } from '#app/accounts/session.server.ts'
import { consumeTokenSteps, hostTokenScope, peekToken, readToken } from '#app/accounts/tokens.server.ts'
import { emailField } from '#app/platform/validation.ts'
import { enqueueSteps, jobSite } from '#app/platform/jobs.server.ts'
import { isUniqueViolation } from '#db/client.ts'
import { revokeSessionSteps } from '#db/sessions.ts'
import { retireTokensSteps } from '#db/tokens.ts'
import { inTransaction, rollback } from '#db/transaction.ts'
import { findUserByEmail, updateUserSteps } from '#db/users.ts'
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
	let outcome
	try {
		// The token, the address, the links it retires and this device's new session, together or not at
		// all. Links mailed to the old address no longer sign in, and every other session ends; this one
		// is replaced, since its email claim changes.
		outcome = await inTransaction(ctx.db, function* (tx) {
			const check = yield* consumeTokenSteps(tx, params.token, 'email_change', new Date(), hostTokenScope(ctx))
			if (!check.ok) return { problem: check.reason }
			if (check.token.user_id !== user.id) rollback({ problem: 'invalid' as const })
			yield* retireTokensSteps(tx, user.id)
			const updated = yield* updateUserSteps(
				tx,
				user.id,
				{ email: newEmail.data, email_verified_at: new Date() },
				{ bumpTokenVersion: true },
			)
			if (!updated) rollback({ problem: 'invalid' as const })
			// The address it replaces is told, with a way back (decision 0041): in the same transaction, after the
			// retirement above, so its reset link is the one that still works.
			yield* enqueueSteps(tx, 'mail.emailChanged', { ...jobSite(ctx), userId: user.id, oldEmail: user.email })
			yield* revokeSessionSteps(tx, session.id)
			const next = yield* newSessionSteps(tx, ctx, updated)
			return next ? { session: next } : rollback({ problem: 'invalid' as const })
		})
	} catch (error) {
		// Taken between the check and the update: the unique key decided, and nothing was stored.
		if (isUniqueViolation(error)) return { problem: 'taken' as const, newEmail: null }
		throw error
	}
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
