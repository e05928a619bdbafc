import { getFormProps } from '@conform-to/react'
import type { IndexableHandle } from '#app/root.tsx'
import { describePage } from '#app/content/seo.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, NewPasswordField, useActionForm } from '#app/ui/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { enqueueSteps, jobSite } from '#app/platform/jobs.server.ts'
import { limitForm, readForm } from '#app/platform/forms.server.ts'
import { addressKey, ipEmailKey } from '#app/platform/rate-limit.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { emailField, nameField, newPasswordField } from '#app/platform/validation.ts'
import { createUserSteps } from '#db/users.ts'
import { inTransaction } from '#db/transaction.ts'
import type { Route } from './+types/learn.sign-up.ts'
import { notFound } from '#app/platform/errors.ts'
import { safeCallbackUrl } from '#app/accounts/auth.server.ts'
import { readNotice } from '#app/platform/notices.ts'
import { withNotice } from '#app/platform/notices.ts'

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
	// One transaction before the answer (every user action is one, decision 0033): the new account and
	// its confirmation mail's job; or, for an address that has an account here, no account and the job
	// that tells its owner. The same work either way (the password is hashed, the insert meets the
	// unique key or not, one job) and the same answer, so sign-up does not reveal who has an account.
	// A write that fails answers an error (503 when the database is out of reach), never "check your
	// email" with nothing stored.
	const passwordHash = await hashPassword(password)
	await inTransaction(ctx.db, function* (tx) {
		const user = yield* createUserSteps(tx, {
			tenant_id: tenant.id,
			email,
			name,
			role: 'student',
			password_hash: passwordHash,
			locale: ctx.locale,
		})
		if (user)
			yield* enqueueSteps(tx, 'mail.verification', {
				...jobSite(ctx),
				userId: user.id,
				...(callbackUrl ? { callbackUrl } : {}),
			})
		else yield* enqueueSteps(tx, 'mail.accountExists', { ...jobSite(ctx), tenantId: tenant.id, email })
	})
	return redirect(localePath(ctx.locale, withNotice('/learn/sign-up', 'checkEmail')))
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

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
