import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/components/feedback.tsx'
import { Field, SelectField, useActionForm } from '#app/components/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { requireSession } from '#app/utils/auth.server.ts'
import { mailTokenLink } from '#app/utils/emails.server.ts'
import { limitForm, readForm, replyWithHidden } from '#app/utils/forms.server.ts'
import { endSession } from '#app/utils/session.server.ts'
import { emailField, passwordField } from '#app/utils/validation.ts'
import { verifyPassword } from '#app/utils/password.server.ts'
import { LOCALE_NAMES, LOCALES, localePath } from '#app/i18n/locales.ts'
import { localeCookie } from '#app/utils/locale.server.ts'
import { retireTokens } from '#db/tokens.ts'
import { updateUser } from '#db/users.ts'
import type { Route } from './+types/learn.account.ts'
import { withNotice } from '#app/utils/notices.ts'

// One schema per form of the page, told apart by `intent`. The current password, for an account that has
// one: a session alone (a borrowed device) cannot move the account away.
const schema = z.discriminatedUnion(
	'intent',
	[
		z.object({ intent: z.literal('change-email'), newEmail: emailField, currentPassword: passwordField.optional() }),
		z.object({ intent: z.literal('locale'), locale: z.enum(LOCALES, 'common.validation.choose') }),
		z.object({ intent: z.literal('sign-out-everywhere') }),
	],
	{ message: 'common.validation.choose' },
)

export function loader({ context }: Route.LoaderArgs) {
	const { claims, user } = requireSession(context)
	return { name: claims.name, email: claims.email, locale: user.locale, hasPassword: Boolean(user.password_hash) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const session = requireSession(context)
	const { user } = session
	const submission = parseWithZod(await readForm(request), { schema })
	// Every post but the language and sign-out buttons counts against the address-change limit, malformed ones too.
	const { intent } = submission.payload
	if (intent !== 'locale' && intent !== 'sign-out-everywhere') {
		const limited = await limitForm(ctx, 'magic', `email-change|${user.id}`, submission)
		if (limited) return limited
	}
	if (submission.status !== 'success')
		return data(
			{ result: replyWithHidden(submission, ['intent'], { hideFields: ['currentPassword'] }) },
			{ status: 400 },
		)
	const input = submission.value

	if (input.intent === 'sign-out-everywhere') {
		await retireTokens(ctx.db, user.id)
		await updateUser(ctx.db, user.id, {}, { bumpTokenVersion: true })
		return redirect(localePath(ctx.locale, withNotice('/learn/sign-in', 'signedOut')), {
			headers: { 'set-cookie': await endSession(ctx, session) },
		})
	}

	// The interface language: users.locale (and the visitor cookie, for after sign-out)
	if (input.intent === 'locale') {
		await updateUser(ctx.db, user.id, { locale: input.locale })
		return redirect(localePath(input.locale, withNotice('/learn/account', 'localeChanged')), {
			headers: { 'set-cookie': localeCookie(input.locale, ctx.origin.startsWith('https:')) },
		})
	}

	const { newEmail, currentPassword } = input
	if (user.password_hash && !(await verifyPassword(currentPassword ?? '', user.password_hash))) {
		return data(
			{
				result: submission.reply({
					fieldErrors: { currentPassword: ['accounts.account.wrongPassword'] },
					hideFields: ['currentPassword'],
				}),
			},
			{ status: 400 },
		)
	}
	if (newEmail === user.email)
		return data(
			{ result: submission.reply({ fieldErrors: { newEmail: ['accounts.account.sameEmail'] } }) },
			{ status: 400 },
		)
	// The same answer whether or not another account uses the address (no account oracle): the link goes
	// out either way, after the answer, and confirming it says when the address is taken.
	ctx.afterResponse(() => mailTokenLink(ctx, user, newEmail, 'email_change', newEmail))
	return redirect(localePath(ctx.locale, withNotice('/learn/account', 'emailChangeSent')))
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.account.title }]

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const { m } = useI18n()
	const text = m.accounts.account
	const [form, fields] = useActionForm(actionData?.result)
	const [localeForm, localeFields] = useActionForm(actionData?.result, { locale: loaderData.locale })
	return (
		<section className="narrow stack">
			<h1>{text.title}</h1>
			<RedirectNotice accept={['emailChangeSent', 'localeChanged', 'emailChanged']} />
			<p>
				{loaderData.name} · {loaderData.email}
			</p>
			<h2>{text.changeEmail}</h2>
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<input type="hidden" name="intent" value="change-email" />
				<Field label={text.newEmail} meta={fields.newEmail} type="email" autoComplete="email" />
				{loaderData.hasPassword ? (
					<Field
						label={text.currentPassword}
						meta={fields.currentPassword}
						type="password"
						autoComplete="current-password"
					/>
				) : null}
				<Submit>{text.sendConfirmation}</Submit>
			</Form>
			<h2>{text.language}</h2>
			<Form method="post" className="stack" {...getFormProps(localeForm)}>
				<input type="hidden" name="intent" value="locale" />
				<SelectField
					label={text.languageLabel}
					meta={localeFields.locale}
					options={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
				/>
				<Submit>{text.saveLanguage}</Submit>
			</Form>
			<h2>{text.sessions}</h2>
			<Form method="post">
				<p>{text.signOutEverywhereHint}</p>
				<Submit name="intent" value="sign-out-everywhere" className="button-secondary">
					{text.signOutEverywhere}
				</Submit>
			</Form>
		</section>
	)
}
