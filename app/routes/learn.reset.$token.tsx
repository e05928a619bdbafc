import { readForm } from '#app/utils/forms.server.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { z } from 'zod'
import { Field, FormError, Submit, useZodForm } from '#app/components/form.tsx'
import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { signInWithConsumedToken } from '#app/utils/auth.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { consumeToken, hostTokenScope, peekToken } from '#app/utils/tokens.server.ts'
import { newPasswordField } from '#app/utils/validation.ts'
import { retireTokens } from '#db/tokens.ts'
import { findUserById, updateUser } from '#db/users.ts'
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
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password', 'confirm'] }), problem: null }, { status: 400 })
	// Another tenant's token is invalid here and stays unused.
	const check = await consumeToken(ctx.db, params.token, 'password_reset', new Date(), hostTokenScope(ctx))
	if (!check.ok) return data({ result: submission.reply({ hideFields: ['password', 'confirm'] }), problem: check.reason }, { status: 410 })
	const user = await findUserById(ctx.db, check.token.user_id)
	if (!user || user.tenant_id !== (ctx.tenant?.id ?? null)) return data({ result: submission.reply(), problem: 'invalid' as const }, { status: 410 })
	// A new password signs out every other session and retires every other link mailed before it.
	// Opening a reset link also proves the mailbox.
	await retireTokens(ctx.db, user.id)
	await updateUser(ctx.db, user.id, { password_hash: await hashPassword(submission.value.password), email_verified_at: user.email_verified_at ?? new Date() }, { bumpTokenVersion: true })
	const signedIn = await signInWithConsumedToken(ctx, user.id, check.token.id)
	if (signedIn) return signedIn
	return data({ result: submission.reply(), problem: 'invalid' as const }, { status: 403 })
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.reset.title }]

export default function Reset({ loaderData, actionData }: Route.ComponentProps) {
	const { m } = useI18n()
	const text = m.accounts
	const [form, fields] = useZodForm(schema, actionData?.result)
	const problem = actionData?.problem ?? loaderData.problem
	if (problem) return <TokenProblem reason={problem} retryHref="/learn/forgot" retryLabel={text.reset.retry} />
	return (
		<section className="narrow">
			<h1>{text.reset.title}</h1>
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<Field label={text.reset.newPassword} meta={fields.password} type="password" autoComplete="new-password" hint={text.fields.passwordHint} />
				<Field label={text.reset.newPasswordAgain} meta={fields.confirm} type="password" autoComplete="new-password" />
				<Submit>{text.reset.submit}</Submit>
			</Form>
		</section>
	)
}
