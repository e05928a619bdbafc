import { getFormProps, type Submission } from '@conform-to/react'
import type { IndexableHandle } from '#app/root.tsx'
import { describePage } from '#app/content/seo.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, NewPasswordField, useActionForm } from '#app/ui/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import { accountJobs } from '#app/accounts/jobs.server.ts'
import { limitAction, limitForm, postedIntent, readForm, TOO_MANY } from '#app/platform/forms.server.ts'
import type { RequestContext } from '#app/context.ts'
import { addressKey, ipEmailKey } from '#app/platform/rate-limit.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { emailField, nameField, newPasswordField } from '#app/platform/validation.ts'
import { signUpLearner } from '#app/accounts/account.server.ts'
import { requiredProvider, ssoRefusal, type SsoRefusal } from '#app/accounts/sso/require-sso.server.ts'
import { SsoRequired } from '#app/accounts/sso/continue-button.tsx'
import type { Route } from './+types/learn.sign-up.ts'
import { badRequest, notFound } from '#app/platform/errors.ts'
import { safeCallbackUrl } from '#app/accounts/auth.server.ts'
import { readNotice } from '#app/platform/notices.ts'

// The page's two forms, told apart by `intent` (decision 0020). callbackUrl: where the learner was
// going (a course landing); kept only if it is a path of this site.
const schema = z.discriminatedUnion('intent', [
	// The sign-up form posts no intent (it predates the resend, and its posts are the page's default).
	z.object({
		intent: z.literal('sign-up').optional(),
		name: nameField,
		email: emailField,
		password: newPasswordField,
		callbackUrl: z.string().max(2048).optional(),
	}),
	// The check-your-email page's resend (issue 40): the address it names, and where the learner was going.
	z.object({ intent: z.literal('resend'), email: emailField, callbackUrl: z.string().max(2048).optional() }),
])

/** What the page says after a sign-up or a resend: the address it mailed, whoever has it (no account oracle). */
function checkEmail(email: string, callbackUrl: string | null, extra: { resent?: true; error?: string } = {}) {
	return { checkEmail: { email, callbackUrl: callbackUrl ?? '', ...extra } }
}

export function loader({ context }: Route.LoaderArgs) {
	if (!getRequestContext(context).tenant) throw notFound()
	return null
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const tenant = ctx.tenant
	if (!tenant) throw notFound()
	const submission = parseWithZod(await readForm(request), { schema })
	// The resend has limits of its own and no form to re-render; a sign-up counts malformed posts too.
	if (postedIntent(submission) === 'resend') return resend(ctx, tenant.id, submission)
	const limited =
		(await limitForm(ctx, 'signUp', ipEmailKey(ctx.clientIp, submission.payload.email), submission, ['password'])) ??
		(await limitForm(ctx, 'signUpIp', addressKey(ctx.clientIp), submission, ['password']))
	if (limited) return limited
	// (A resend was answered above: the second test only tells TypeScript which form this is.)
	if (submission.status !== 'success' || submission.value.intent === 'resend')
		return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })

	const { name, email, password } = submission.value
	const callbackUrl = safeCallbackUrl(submission.value.callbackUrl)
	// A domain that requires single sign-on makes no password accounts (decided by the domain alone, decision 0069).
	const sso = await requiredProvider(ctx, email)
	if (sso)
		return data(
			{ result: submission.reply({ hideFields: ['password'] }), sso: ssoRefusal(sso, email) },
			{ status: 403 },
		)
	// A write that fails answers an error (503 when the database is out of reach), never "check your
	// email" with nothing stored.
	const passwordHash = await hashPassword(password)
	await signUpLearner(ctx, tenant.id, { name, email, passwordHash }, callbackUrl)
	// The page names the address it mailed and offers a resend (issue 40): an answer of its own rather than a
	// redirect, whose URL would have to carry the address. The same page for any address.
	return data(checkEmail(email, callbackUrl))
}

/**
 * "Send it again" on the check-your-email page: one job for the address whatever it is (its handler
 * decides, off the request: a new confirmation link to an unconfirmed account, the account-exists
 * mail to a confirmed one, nothing to no account), the same answer either way. Limited per address
 * and per client address, like the account page's resend.
 */
async function resend(
	ctx: RequestContext,
	tenantId: string,
	submission: Submission<z.input<typeof schema>, string[], z.output<typeof schema>>,
) {
	// The check-your-email page's button: a post it never sends is a bad request, not a form to show again.
	if (submission.status !== 'success' || submission.value.intent !== 'resend') throw badRequest()
	const { email } = submission.value
	const callbackUrl = safeCallbackUrl(submission.value.callbackUrl)
	const limits = [
		['verificationResend', `sign-up|${email}`],
		['verificationResendIp', addressKey(ctx.clientIp)],
	] as const
	for (const [policy, key] of limits) {
		const limited = await limitAction(ctx, policy, key, checkEmail(email, callbackUrl, { error: TOO_MANY }))
		if (limited) return limited
	}
	await accountJobs.enqueue(ctx.db, 'mail.signUpResend', {
		...jobSite(ctx),
		tenantId,
		email,
		...(callbackUrl ? { callbackUrl } : {}),
	})
	return data(checkEmail(email, callbackUrl, { resent: true }))
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
	const [form, fields] = useActionForm(actionData && 'result' in actionData ? actionData.result : undefined)
	const [params] = useSearchParams()
	const callbackUrl = params.get('callbackUrl') ?? ''
	const sent = actionData && 'checkEmail' in actionData ? actionData.checkEmail : null
	// Signed up (or sent again): the address mailed, what to do, and a way to have it sent again.
	if (sent)
		return (
			<section className="narrow">
				<h1>{text.signUp.sent.title}</h1>
				<p>{t.rich(text.signUp.sent.sentTo, { email: <strong>{sent.email}</strong> })}</p>
				{'resent' in sent ? (
					<p className="notice notice-ok" role="status">
						{t.rich(text.signUp.sent.resent, { email: <strong>{sent.email}</strong> })}
					</p>
				) : null}
				{'error' in sent && sent.error ? <FormError errors={[sent.error]} /> : null}
				<Form method="post" className="stack">
					<input type="hidden" name="intent" value="resend" />
					<input type="hidden" name="email" value={sent.email} />
					<input type="hidden" name="callbackUrl" value={sent.callbackUrl} />
					<p className="hint">{text.signUp.sent.notThere}</p>
					<div className="actions">
						<Submit>{text.signUp.sent.resend}</Submit>
					</div>
				</Form>
			</section>
		)
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
				{actionData && 'sso' in actionData ? <SsoRequired sso={actionData.sso as SsoRefusal} /> : null}
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
