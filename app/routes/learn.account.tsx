import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Field, FormError, Submit, useZodForm } from '#app/components/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { requireSession } from '#app/utils/auth.server.ts'
import { mailTokenLink } from '#app/utils/emails.server.ts'
import { limitForm, readForm } from '#app/utils/forms.server.ts'
import { destroySessionCookie } from '#app/utils/session.server.ts'
import { emailField } from '#app/utils/validation.ts'
import { findUserByEmail, updateUser } from '#db/users.ts'
import type { Route } from './+types/learn.account.ts'

const emailSchema = z.object({ intent: z.literal('change-email'), newEmail: emailField })

export function loader({ context, request }: Route.LoaderArgs) {
	const { claims } = requireSession(context, request)
	return { name: claims.name, email: claims.email }
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const { user } = requireSession(context, request)
	const formData = await readForm(request)

	// signOutEverywhereAction
	if (formData.get('intent') === 'sign-out-everywhere') {
		await updateUser(ctx.db, user.id, {}, { bumpTokenVersion: true })
		return redirect('/learn/sign-in?notice=signed-out', { headers: { 'set-cookie': await destroySessionCookie(ctx) } })
	}

	// requestEmailChangeAction
	const submission = parseWithZod(formData, { schema: emailSchema })
	const limited = await limitForm(ctx, 'magic', `email-change|${user.id}`, submission)
	if (limited) return limited
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { newEmail } = submission.value
	if (newEmail === user.email) return data({ result: submission.reply({ fieldErrors: { newEmail: ['That is already your address'] } }) }, { status: 400 })
	if (await findUserByEmail(ctx.db, user.tenant_id, newEmail)) {
		return data({ result: submission.reply({ fieldErrors: { newEmail: ['Another account already uses that address'] } }) }, { status: 400 })
	}
	void mailTokenLink(ctx, user, newEmail, 'email_change', newEmail)
	return redirect('/learn/account?notice=email-sent')
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Account' }]

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const [params] = useSearchParams()
	const [form, fields] = useZodForm(emailSchema, actionData?.result)
	const notice = params.get('notice')
	return (
		<section className="narrow stack">
			<h1>Account</h1>
			{notice === 'email-sent' ? <p className="notice notice-ok" role="status">We sent a confirmation link to the new address. Your email changes when you confirm it.</p> : null}
			{notice === 'email-changed' ? <p className="notice notice-ok" role="status">Your email address has been changed.</p> : null}
			<p>
				{loaderData.name} · {loaderData.email}
			</p>
			<h2>Change email address</h2>
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<input type="hidden" name="intent" value="change-email" />
				<Field label="New email address" meta={fields.newEmail} type="email" autoComplete="email" />
				<Submit>Send confirmation link</Submit>
			</Form>
			<h2>Sessions</h2>
			<Form method="post">
				<p>Signs you out on every device, including this one.</p>
				<Submit name="intent" value="sign-out-everywhere" className="button-secondary">
					Sign out everywhere
				</Submit>
			</Form>
		</section>
	)
}
