import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import { accountJobs } from '#app/accounts/jobs.server.ts'
import { limitForm, readForm } from '#app/platform/forms.server.ts'
import { ipEmailKey } from '#app/platform/rate-limit.server.ts'
import { magicLinkEnabled } from '#app/platform/tenant.server.ts'
import { emailField } from '#app/platform/validation.ts'
import { requiredProvider, ssoRefusal, type SsoRefusal } from '#app/accounts/sso/require-sso.server.ts'
import { SsoRequired } from '#app/accounts/sso/continue-button.tsx'
import type { Route } from './+types/learn.magic.ts'
import { withNotice } from '#app/platform/notices.ts'

const schema = z.object({ email: emailField })

/** Magic links exist only on tenant hosts whose magicLink flag is on. */
function requireMagicLinks(ctx: RequestContext) {
	if (!ctx.tenant || !magicLinkEnabled(ctx.tenant)) throw redirect(localePath(ctx.locale, '/learn/sign-in'))
	return ctx.tenant
}

export function loader({ context }: Route.LoaderArgs) {
	requireMagicLinks(getRequestContext(context))
	return null
}

// requestMagicLinkAction
export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const tenant = requireMagicLinks(ctx)
	const formData = await readForm(request)
	const submission = parseWithZod(formData, { schema })
	const limited = await limitForm(ctx, 'magic', ipEmailKey(ctx.clientIp, formData.get('email')), submission)
	if (limited) return limited
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	// A domain that requires single sign-on (decided by the domain alone: nothing about an account shows).
	const sso = await requiredProvider(ctx, submission.value.email)
	if (sso) return data({ result: submission.reply(), sso: ssoRefusal(sso, submission.value.email) }, { status: 403 })
	// The same answer for every address, in the same time, after the same work: one job, which decides
	// off the request path whether anyone has this address here, and issues the link when it sends it.
	await accountJobs.enqueue(ctx.db, 'mail.magicLink', {
		...jobSite(ctx),
		tenantId: tenant.id,
		email: submission.value.email,
	})
	return redirect(localePath(ctx.locale, withNotice('/learn/magic', 'magicLinkSent')))
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.magic.title }]

export default function Magic({ actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts
	const [form, fields] = useActionForm(actionData?.result)
	return (
		<section className="narrow">
			<h1>{text.magic.heading}</h1>
			<RedirectNotice accept={['magicLinkSent']} fallback={<p>{text.magic.intro}</p>} />
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				{actionData && 'sso' in actionData ? <SsoRequired sso={actionData.sso as SsoRefusal} /> : null}
				<Field label={text.fields.email} meta={fields.email} type="email" autoComplete="email" />
				<div className="actions">
					<Submit>{text.magic.submit}</Submit>
					<a href={t.href('/learn/sign-in')}>{text.magic.withPassword}</a>
				</div>
			</Form>
		</section>
	)
}
