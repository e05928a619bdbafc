import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Field, FormError, Submit, useZodForm } from '#app/components/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { authenticate, roleLanding, safeCallbackUrl, signInAndRedirect } from '#app/utils/auth.server.ts'
import { limitForm, readForm } from '#app/utils/forms.server.ts'
import { ipEmailKey } from '#app/utils/rate-limit.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import { enabledProviders, PROVIDER_LABELS } from '#app/utils/oauth.server.ts'
import { magicLinkEnabled } from '#app/utils/tenant-flags.server.ts'
import { emailField, passwordField } from '#app/utils/validation.ts'
import type { Route } from './+types/learn.sign-in.ts'

const schema = z.object({
	email: emailField,
	password: passwordField,
	callbackUrl: z.string().optional(),
})

const MESSAGES = {
	invalid: 'Email or password is incorrect.',
	deactivated: 'This account has been deactivated. Contact your administrator.',
	no_password: 'This account has no password. Sign in with your external provider or a sign-in link.',
	tenant_inactive: 'This site is not accepting sign-ins right now.',
	apex_account_wrong_host: 'This is a platform account. Sign in on the platform site instead.',
}

export async function loader({ context, request }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const session = getSession(context)
	const callbackUrl = safeCallbackUrl(new URL(request.url).searchParams.get('callbackUrl'))
	if (session) throw redirect(callbackUrl ?? roleLanding(session.claims))
	return {
		isApex: ctx.tenant === null,
		magicLink: ctx.tenant ? magicLinkEnabled(ctx.tenant) : false,
		apexSignIn: `${ctx.env.AUTH_URL}/learn/sign-in`,
		providers: enabledProviders(ctx).map((id) => ({ id, label: PROVIDER_LABELS[id] })),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const formData = await readForm(request)
	const submission = parseWithZod(formData, { schema })
	const limited = await limitForm(ctx, 'auth.signIn', ipEmailKey(ctx.clientIp, formData.get('email')), submission, ['password'])
	if (limited) return limited
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })

	const result = await authenticate(ctx, { kind: 'credentials', ...submission.value })
	if (!result.ok) {
		return data(
			{ result: submission.reply({ formErrors: [MESSAGES[result.reason]], hideFields: ['password'] }), reason: result.reason },
			{ status: result.reason === 'invalid' ? 401 : 403 },
		)
	}
	return signInAndRedirect(ctx, result.user, submission.value.callbackUrl)
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Sign in' }]

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
	const [params] = useSearchParams()
	const [form, fields] = useZodForm(schema, actionData?.result)
	const reason = actionData && 'reason' in actionData ? actionData.reason : null
	return (
		<section className="narrow">
			<h1>Sign in</h1>
			{params.get('notice') === 'signed-out' ? <p className="notice notice-ok" role="status">You have been signed out.</p> : null}
			{params.get('notice') === 'password-reset' ? <p className="notice notice-ok" role="status">Your password has been changed. Sign in with the new one.</p> : null}
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				{reason === 'apex_account_wrong_host' ? (
					<p>
						<a href={loaderData.apexSignIn}>Go to the platform sign-in</a>
					</p>
				) : null}
				<input type="hidden" name="callbackUrl" value={params.get('callbackUrl') ?? ''} />
				<Field label="Email" meta={fields.email} type="email" autoComplete="email" />
				<Field label="Password" meta={fields.password} type="password" autoComplete="current-password" />
				<div className="actions">
					<Submit>Sign in</Submit>
					<a href="/learn/forgot">Forgot your password?</a>
				</div>
			</Form>
			{loaderData.providers.length ? (
				<div className="stack" aria-label="Other ways to sign in" role="group">
					{loaderData.providers.map((p) => (
						// A native post: the answer is a redirect to the provider's site.
						<form key={p.id} method="post" action={`/api/auth/${p.id}`}>
							<input type="hidden" name="callbackUrl" value={params.get('callbackUrl') ?? ''} />
							<button type="submit" className="button button-secondary">
								Continue with {p.label}
							</button>
						</form>
					))}
				</div>
			) : null}
			{!loaderData.isApex ? (
				<p className="actions">
					{loaderData.magicLink ? <a href="/learn/magic">Email me a sign-in link</a> : null}
					<a href="/learn/sign-up">Create an account</a>
				</p>
			) : null}
		</section>
	)
}
