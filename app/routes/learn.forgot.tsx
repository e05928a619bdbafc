import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/components/feedback.tsx'
import { Field, useActionForm } from '#app/components/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { mailTokenLink } from '#app/utils/emails.server.ts'
import { limitForm, readForm } from '#app/utils/forms.server.ts'
import { ipEmailKey } from '#app/utils/rate-limit.server.ts'
import { emailField } from '#app/utils/validation.ts'
import { findUserByEmail } from '#db/users.ts'
import type { Route } from './+types/learn.forgot.ts'
import { withNotice } from '#app/utils/notices.ts'

const schema = z.object({ email: emailField })

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const formData = await readForm(request)
	const submission = parseWithZod(formData, { schema })
	const limited = await limitForm(ctx, 'passwordReset', ipEmailKey(ctx.clientIp, formData.get('email')), submission)
	if (limited) return limited
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	// The same answer whether or not mail goes out, in the same time: the one lookup happens for every
	// address, the token and the mail after the answer is sent.
	const user =
		ctx.tenant?.status === 'active' ? await findUserByEmail(ctx.db, ctx.tenant.id, submission.value.email) : null
	// Mail only for an active tenant, a matching user and a local password (spec, Authentication 8).
	if (user?.password_hash && !user.deactivated_at)
		ctx.afterResponse(() => mailTokenLink(ctx, user, user.email, 'password_reset'))
	return redirect(localePath(ctx.locale, withNotice('/learn/forgot', 'resetLinkSent')))
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.forgot.title }]

export default function Forgot({ actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts
	const [form, fields] = useActionForm(actionData?.result)
	return (
		<section className="narrow">
			<h1>{text.forgot.title}</h1>
			<RedirectNotice accept={['resetLinkSent']} fallback={<p>{text.forgot.intro}</p>} />
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<Field label={text.fields.email} meta={fields.email} type="email" autoComplete="email" />
				<div className="actions">
					<Submit>{text.forgot.submit}</Submit>
					<a href={t.href('/learn/sign-in')}>{text.backToSignIn}</a>
				</div>
			</Form>
		</section>
	)
}
