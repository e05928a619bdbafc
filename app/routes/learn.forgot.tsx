import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import { accountJobs } from '#app/accounts/jobs.server.ts'
import { limitForm, readForm } from '#app/platform/forms.server.ts'
import { ipEmailKey } from '#app/platform/rate-limit.server.ts'
import { emailField } from '#app/platform/validation.ts'
import { requiredProvider, ssoRefusal, type SsoRefusal } from '#app/accounts/sso/require-sso.server.ts'
import { SsoRequired } from '#app/accounts/sso/continue-button.tsx'
import type { Route } from './+types/learn.forgot.ts'
import { withNotice } from '#app/platform/notices.ts'

const schema = z.object({ email: emailField })

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const formData = await readForm(request)
	const submission = parseWithZod(formData, { schema })
	const limited = await limitForm(ctx, 'passwordReset', ipEmailKey(ctx.clientIp, formData.get('email')), submission)
	if (limited) return limited
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	// The same answer whether or not mail goes out, in the same time, and the same work before it: one
	// job for every address of an active tenant's host. The job decides, off the request path, whether
	// anyone is to be mailed (an active tenant, a matching user with a local password: spec,
	// Authentication 8), and issues the token when it sends (decision 0033).
	// A domain that requires single sign-on says so (decided by the domain alone); the job still runs and
	// mails only a tenant admin, whose password is the break-glass way in (decision 0069).
	const sso = await requiredProvider(ctx, submission.value.email)
	if (ctx.tenant?.status === 'active')
		await accountJobs.enqueue(ctx.db, 'mail.passwordReset', {
			...jobSite(ctx),
			tenantId: ctx.tenant.id,
			email: submission.value.email,
		})
	if (sso) return data({ result: submission.reply(), sso: ssoRefusal(sso, submission.value.email) }, { status: 403 })
	return redirect(localePath(ctx.locale, withNotice('/learn/forgot', 'resetLinkSent')))
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

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
				{actionData && 'sso' in actionData ? <SsoRequired sso={actionData.sso as SsoRefusal} /> : null}
				<Field label={text.fields.email} meta={fields.email} type="email" autoComplete="email" />
				<div className="actions">
					<Submit>{text.forgot.submit}</Submit>
					<a href={t.href('/learn/sign-in')}>{text.backToSignIn}</a>
				</div>
			</Form>
		</section>
	)
}
