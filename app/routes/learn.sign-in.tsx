import { getFormProps } from '@conform-to/react'
import type { IndexableHandle } from '#app/root.tsx'
import { describePage } from '#app/content/seo.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import {
	authenticate,
	localeLanding,
	roleLanding,
	safeCallbackUrl,
	signInAndRedirect,
	type CredentialsFailure,
} from '#app/accounts/auth.server.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import { accountJobs } from '#app/accounts/jobs.server.ts'
import { limitForm, readForm } from '#app/platform/forms.server.ts'
import { ipEmailKey } from '#app/platform/rate-limit.server.ts'
import { getSession } from '#app/accounts/session.server.ts'
import { enabledProviders, PROVIDER_LABELS } from '#app/accounts/oauth.server.ts'
import { signInButtons, startProviderSignIn } from '#app/accounts/sso/flow.server.ts'
import { claimingProvider, ssoRefusal, type SsoRefusal } from '#app/accounts/sso/require-sso.server.ts'
import { ContinueWithProvider, SsoRequired } from '#app/accounts/sso/continue-button.tsx'
import { magicLinkEnabled } from '#app/platform/tenant.server.ts'
import { emailField, passwordField } from '#app/platform/validation.ts'
import type { Route } from './+types/learn.sign-in.ts'

const schema = z.object({
	email: emailField,
	// Empty: the email step (decision 0069), which sends an address a provider claims to it.
	password: passwordField.optional(),
	callbackUrl: z.string().optional(),
})

// Catalogue keys: the form shows them in the page's locale. An account without a password gets the
// answer of a wrong password (anyone can type any address: it must not tell that an account exists),
// with a hint that helps whoever it is.
const INVALID = ['accounts.signIn.errors.invalid', 'accounts.signIn.errors.noPassword']
const MESSAGES: Record<CredentialsFailure, string[]> = {
	invalid: INVALID,
	no_password: INVALID,
	deactivated: ['accounts.signIn.errors.deactivated'],
	tenant_inactive: ['accounts.signIn.errors.tenantInactive'],
	apex_account_wrong_host: ['accounts.signIn.errors.apexAccountWrongHost'],
	unverified: ['accounts.signIn.errors.unverified'],
}

export async function loader({ context, request }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const session = getSession(context)
	const callbackUrl = safeCallbackUrl(new URL(request.url).searchParams.get('callbackUrl'))
	if (session) throw redirect(localeLanding(ctx.locale, callbackUrl ?? roleLanding(session.claims)))
	return {
		isApex: ctx.tenant === null,
		magicLink: ctx.tenant ? magicLinkEnabled(ctx.tenant) : false,
		apexSignIn: `${ctx.env.AUTH_URL}${localePath(ctx.locale, '/learn/sign-in')}`,
		providers: enabledProviders(ctx).map((id) => ({ id, label: PROVIDER_LABELS[id] })),
		ssoProviders: await signInButtons(ctx),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const formData = await readForm(request)
	const submission = parseWithZod(formData, { schema })
	const limited = await limitForm(ctx, 'auth.signIn', ipEmailKey(ctx.clientIp, formData.get('email')), submission, [
		'password',
	])
	if (limited) return limited
	if (submission.status !== 'success')
		return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })

	const { email, password, callbackUrl } = submission.value
	const sso = await claimingProvider(ctx, email)
	if (!password) {
		// A redirect (to the provider, or to the sign-in error page), thrown as React Router takes redirects.
		if (sso) throw await startProviderSignIn(ctx, sso.id, callbackUrl)
		const reply = submission.reply({ fieldErrors: { password: ['common.validation.passwordRequired'] } })
		return data({ result: reply }, { status: 400 })
	}
	const result = await authenticate(ctx, { kind: 'credentials', email, password })
	// "Require single sign-on" for this domain: only a tenant admin's password still works (break-glass).
	if (sso?.required && !(result.ok && result.user.role === 'tenant_admin'))
		return data(
			{
				result: submission.reply({ hideFields: ['password'] }),
				sso: ssoRefusal(sso, email),
			},
			{ status: 403 },
		)
	// The right password for an address not confirmed yet: a new confirmation link (the sign-in limit bounds how many).
	if (!result.ok && result.reason === 'unverified' && result.user)
		await accountJobs.enqueue(ctx.db, 'mail.verification', { ...jobSite(ctx), userId: result.user.id })
	if (!result.ok) {
		const invalid = result.reason === 'invalid' || result.reason === 'no_password'
		return data(
			{
				result: submission.reply({ formErrors: MESSAGES[result.reason], hideFields: ['password'] }),
				reason: invalid ? 'invalid' : result.reason,
			},
			{ status: invalid ? 401 : 403 },
		)
	}
	return signInAndRedirect(ctx, result.user, callbackUrl)
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

// People look for a school’s sign-in and sign-up pages by name: they are indexed, without their query string (the canonical URL).
export const handle = { indexable: true } satisfies IndexableHandle

export const meta: Route.MetaFunction = ({ matches }) => {
	const title = metaI18n(matches).m.accounts.signIn.title
	return describePage(matches, { title, trail: [{ name: title, path: '/learn/sign-in' }] })
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts
	const [params] = useSearchParams()
	const [form, fields] = useActionForm(actionData?.result)
	const reason = actionData && 'reason' in actionData ? actionData.reason : null
	const sso = actionData && 'sso' in actionData ? (actionData.sso as SsoRefusal) : null
	const callbackUrl = params.get('callbackUrl') ?? ''
	return (
		<section className="narrow">
			<h1>{text.signIn.title}</h1>
			<RedirectNotice accept={['signedOut', 'passwordReset']} />
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				{sso ? <SsoRequired sso={sso} callbackUrl={callbackUrl} /> : null}
				{reason === 'apex_account_wrong_host' ? (
					<p>
						<a href={loaderData.apexSignIn}>{text.signIn.platformSignIn}</a>
					</p>
				) : null}
				<input type="hidden" name="callbackUrl" value={params.get('callbackUrl') ?? ''} />
				<Field
					label={text.fields.email}
					meta={fields.email}
					type="email"
					autoComplete="email"
					hint={loaderData.ssoProviders.length ? text.sso.emailStepHint : undefined}
				/>
				<Field label={text.fields.password} meta={fields.password} type="password" autoComplete="current-password" />
				<div className="actions">
					<Submit>{text.signIn.submit}</Submit>
					<a href={t.href('/learn/forgot')}>{text.signIn.forgot}</a>
				</div>
			</Form>
			{loaderData.providers.length || loaderData.ssoProviders.length ? (
				<div className="stack" aria-label={text.signIn.otherWays} role="group">
					{loaderData.ssoProviders.map((p) => (
						<ContinueWithProvider key={p.id} provider={p} callbackUrl={callbackUrl} />
					))}
					{loaderData.providers.map((p) => (
						// A native post: the answer is a redirect to the provider's site.
						<form key={p.id} method="post" action={`/api/auth/${p.id}`}>
							<input type="hidden" name="callbackUrl" value={params.get('callbackUrl') ?? ''} />
							<button type="submit" className="button button-secondary">
								{t.format(text.signIn.continueWith, { provider: p.label })}
							</button>
						</form>
					))}
				</div>
			) : null}
			{!loaderData.isApex ? (
				<p className="actions">
					{loaderData.magicLink ? <a href={t.href('/learn/magic')}>{text.signIn.magicLink}</a> : null}
					<a
						href={t.href(
							params.get('callbackUrl')
								? `/learn/sign-up?${new URLSearchParams({ callbackUrl: params.get('callbackUrl') ?? '' })}`
								: '/learn/sign-up',
						)}
					>
						{text.signIn.signUp}
					</a>
				</p>
			) : null}
		</section>
	)
}
