import { getFormProps } from '@conform-to/react'
import type { IndexableHandle } from '#app/root.tsx'
import { describePage } from '#app/utils/seo.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/components/feedback.tsx'
import { Field, NewPasswordField, useActionForm } from '#app/components/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { mailTokenLink } from '#app/utils/emails.server.ts'
import { limitForm, readForm } from '#app/utils/forms.server.ts'
import { addressKey, ipEmailKey } from '#app/utils/rate-limit.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { emailField, nameField, newPasswordField } from '#app/utils/validation.ts'
import { createUser, findUserByEmail } from '#db/users.ts'
import type { Route } from './+types/learn.sign-up.ts'
import { notFound } from '#app/utils/errors.ts'
import { safeCallbackUrl } from '#app/utils/auth.server.ts'
import { readNotice } from '#app/utils/notices.ts'
import { withNotice } from '#app/utils/notices.ts'

// callbackUrl: where the learner was going (a course landing); kept only if it is a path of this site.
const schema = z.object({
	name: nameField,
	email: emailField,
	password: newPasswordField,
	callbackUrl: z.string().max(2048).optional(),
})

export function loader({ context }: Route.LoaderArgs) {
	if (!getRequestContext(context).tenant) throw notFound()
	return null
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const tenant = ctx.tenant
	if (!tenant) throw notFound()
	const formData = await readForm(request)
	const submission = parseWithZod(formData, { schema })
	const limited =
		(await limitForm(ctx, 'signUp', ipEmailKey(ctx.clientIp, formData.get('email')), submission, ['password'])) ??
		(await limitForm(ctx, 'signUpIp', addressKey(ctx.clientIp), submission, ['password']))
	if (limited) return limited
	if (submission.status !== 'success')
		return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })

	const { name, email, password } = submission.value
	const callbackUrl = safeCallbackUrl(submission.value.callbackUrl)
	// An existing address gets the same answer and no new account, so sign-up does not reveal who has
	// one. The lookup is made before answering (a database out of reach is a 503, not a lost sign-up);
	// what differs between a new and a known address, the account and its mail, after the answer is sent.
	const known = await findUserByEmail(ctx.db, tenant.id, email)
	if (!known) {
		ctx.afterResponse(async () => {
			const user = await createUser(ctx.db, {
				tenant_id: tenant.id,
				email,
				name,
				role: 'student',
				password_hash: await hashPassword(password),
				locale: ctx.locale,
			})
			if (user) await mailTokenLink(ctx, user, email, 'email_verify', undefined, callbackUrl ? { callbackUrl } : {})
		})
	}
	return redirect(localePath(ctx.locale, withNotice('/learn/sign-up', 'checkEmail')))
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

// People look for a school’s sign-in and sign-up pages by name: they are indexed, without their query string (the canonical URL).
export const handle = { indexable: true } satisfies IndexableHandle

export const meta: Route.MetaFunction = ({ matches }) => {
	const title = metaI18n(matches).m.accounts.signUp.title
	return describePage(matches, { title, trail: [{ name: title, path: '/learn/sign-up' }] })
}

export default function SignUp({ actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts
	const [form, fields] = useActionForm(actionData?.result)
	const [params] = useSearchParams()
	const callbackUrl = params.get('callbackUrl') ?? ''
	// Signed up: the page says to check the mail, and nothing else (no second form under it).
	if (readNotice(params, ['checkEmail']))
		return (
			<section className="narrow">
				<h1>{text.signUp.title}</h1>
				<RedirectNotice accept={['checkEmail']} />
			</section>
		)
	return (
		<section className="narrow">
			<h1>{text.signUp.title}</h1>
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<input type="hidden" name="callbackUrl" value={callbackUrl} />
				<Field label={text.fields.name} meta={fields.name} autoComplete="name" />
				<Field label={text.fields.email} meta={fields.email} type="email" autoComplete="email" />
				<NewPasswordField label={text.fields.password} meta={fields.password} />
				<div className="actions">
					<Submit>{text.signUp.submit}</Submit>
					<a href={t.href(callbackUrl ? `/learn/sign-in?${new URLSearchParams({ callbackUrl })}` : '/learn/sign-in')}>
						{text.signUp.haveAccount}
					</a>
				</div>
			</Form>
		</section>
	)
}
