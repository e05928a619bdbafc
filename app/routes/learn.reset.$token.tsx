import { readForm } from '#app/platform/forms.server.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { z } from 'zod'
import { Submit, FormError } from '#app/ui/feedback.tsx'
import { Field, NewPasswordField, useActionForm } from '#app/ui/form.tsx'
import { TokenProblem } from '#app/accounts/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { redirectWithSession } from '#app/accounts/auth.server.ts'
import { resetPassword } from '#app/accounts/account.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { hostTokenScope, peekToken } from '#app/accounts/tokens.server.ts'
import { newPasswordField } from '#app/platform/validation.ts'
import { resetRefusal, type SsoRefusal } from '#app/accounts/sso/require-sso.server.ts'
import { SsoRequired } from '#app/accounts/sso/continue-button.tsx'
import type { Route } from './+types/learn.reset.$token.ts'

const schema = z
	.object({ password: newPasswordField, confirm: z.string({ error: 'accounts.reset.confirmRequired' }) })
	.refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'accounts.reset.mismatch' })

export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const check = await peekToken(ctx.db, params.token, 'password_reset', new Date(), hostTokenScope(ctx))
	return check.ok ? { problem: null } : { problem: check.reason }
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success')
		return data({ result: submission.reply({ hideFields: ['password', 'confirm'] }), problem: null }, { status: 400 })
	// Hashing costs: only for a token that looks usable (the transaction below decides).
	const peek = await peekToken(ctx.db, params.token, 'password_reset', new Date(), hostTokenScope(ctx))
	if (!peek.ok)
		return data(
			{ result: submission.reply({ hideFields: ['password', 'confirm'] }), problem: peek.reason },
			{ status: 410 },
		)
	const sso = await resetRefusal(ctx, peek.token.user_id)
	if (sso)
		return data(
			{ result: submission.reply({ hideFields: ['password', 'confirm'] }), problem: null, sso },
			{ status: 403 },
		)
	const passwordHash = await hashPassword(submission.value.password)
	const outcome = await resetPassword(ctx, params.token, passwordHash)
	if ('problem' in outcome)
		return data(
			{ result: submission.reply({ hideFields: ['password', 'confirm'] }), problem: outcome.problem },
			{ status: 410 },
		)
	return redirectWithSession(ctx, outcome.session)
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.reset.title }]

export default function Reset({ loaderData, actionData }: Route.ComponentProps) {
	const { m } = useI18n()
	const text = m.accounts
	const [form, fields] = useActionForm(actionData?.result)
	const problem = actionData?.problem ?? loaderData.problem
	if (problem) return <TokenProblem reason={problem} retryHref="/learn/forgot" retryLabel={text.reset.retry} />
	const sso = actionData && 'sso' in actionData ? (actionData.sso as SsoRefusal) : null
	return (
		<section className="narrow">
			<h1>{text.reset.title}</h1>
			{sso ? <SsoRequired sso={sso} /> : null}
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<NewPasswordField label={text.reset.newPassword} meta={fields.password} />
				<Field label={text.reset.newPasswordAgain} meta={fields.confirm} type="password" autoComplete="new-password" />
				<Submit>{text.reset.submit}</Submit>
			</Form>
		</section>
	)
}
