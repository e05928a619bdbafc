import { getFormProps, type Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { VerifyReminder } from '#app/accounts/verify-reminder.tsx'
import { Field, NewPasswordField, SelectField, useActionForm } from '#app/ui/form.tsx'
import { getRequestContext, type RequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import { accountJobs } from '#app/accounts/jobs.server.ts'
import { limitForm, postedIntent, readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { destroySessionCookie, sessionCookie, type CurrentSession } from '#app/accounts/session.server.ts'
import {
	changeOwnPassword,
	endAllSessions,
	renameAccount,
	resendOwnVerification,
	setAccountLocale,
} from '#app/accounts/account.server.ts'
import { emailField, nameField, newPasswordField, passwordField } from '#app/platform/validation.ts'
import { hashPassword, verifyPassword } from '#app/accounts/password.server.ts'
import { addressKey } from '#app/platform/rate-limit.server.ts'
import { LOCALE_NAMES, LOCALES, localePath } from '#app/i18n/locales.ts'
import { localeCookie } from '#app/platform/locale.server.ts'
import type { Route } from './+types/learn.account.ts'
import { withNotice } from '#app/platform/notices.ts'
import { notFound } from '#app/platform/errors.ts'
import { reminderChoices, saveReminderChoices } from '#app/reminders/preferences.server.ts'
import { REMINDER_KINDS } from '#db/schema/values.ts'
import { ReminderChoices } from '#app/reminders/reminder-choices.tsx'
import { dueSettingsAction, dueSettingsFor, dueSettingsForms } from '#app/learning/due-settings.server.ts'
import { DueSettingsSection } from '#app/learning/due-settings.tsx'

// One schema per form of the page, told apart by `intent`. The current password, for an account that has
// one: a session alone (a borrowed device) cannot move the account away.
const schema = z.discriminatedUnion(
	'intent',
	[
		z.object({ intent: z.literal('change-email'), newEmail: emailField, currentPassword: passwordField.optional() }),
		z.object({ intent: z.literal('locale'), locale: z.enum(LOCALES, 'common.validation.choose') }),
		z.object({ intent: z.literal('sign-out-everywhere') }),
		// Field names of their own: the address form has a currentPassword too, and errors are matched by name.
		z.object({ intent: z.literal('change-password'), oldPassword: passwordField, newPassword: newPasswordField }),
		z.object({ intent: z.literal('name'), name: nameField }),
		z.object({ intent: z.literal('resend-verification') }),
		// The reminder mails to keep (decision 0047): every box left unticked is a kind turned off.
		z.object({ intent: z.literal('reminders'), kinds: z.array(z.enum(REMINDER_KINDS)).default([]) }),
		// The due dates section's time zone and calendar link (decision 0045).
		...dueSettingsForms,
	],
	{ message: 'common.validation.choose' },
)

export async function loader({ context }: Route.LoaderArgs) {
	const session = requireSession(context)
	const { claims, user } = session
	return {
		dueSettings: await dueSettingsFor(getRequestContext(context), session),
		// Reminders are about a tenant's courses: a platform account (no tenant) has none to choose.
		reminders: user.tenant_id ? await reminderChoices(getRequestContext(context), user.tenant_id, user.id) : [],
		name: user.name,
		email: claims.email,
		locale: user.locale,
		hasPassword: Boolean(user.password_hash),
		verified: Boolean(user.email_verified_at),
	}
}

/** Every post but the language and sign-out buttons counts against its form's limit, malformed ones too. */
async function limitAccountForm(
	ctx: RequestContext,
	userId: string,
	submission: Submission<unknown>,
	hideFields: string[],
) {
	const intent = postedIntent(submission)
	// A password change tries the current password: limited per user like sign-in attempts, malformed posts too.
	if (intent === 'change-password') return limitForm(ctx, 'passwordChange', userId, submission, hideFields)
	// A name is what staff know the learner by (decision 0031): a few corrections an hour.
	if (intent === 'name') return limitForm(ctx, 'nameChange', userId, submission)
	// A new calendar link is a write and revokes the old one (decision 0045).
	if (intent === 'time-zone' || intent === 'device-time-zone' || intent === 'calendar-link')
		return limitForm(ctx, 'dueSettings', userId, submission)
	if (intent === 'resend-verification')
		return (
			(await limitForm(ctx, 'verificationResend', userId, submission)) ??
			(await limitForm(ctx, 'verificationResendIp', addressKey(ctx.clientIp), submission))
		)
	// Reminder choices (decision 0047) mail nothing and cost nothing to repeat.
	if (intent === 'locale' || intent === 'sign-out-everywhere' || intent === 'reminders') return null
	// The address change (and any post naming no form) mails a link.
	return limitForm(ctx, 'magic', `email-change|${userId}`, submission)
}

/**
 * The address change: the current password first, for an account that has one (a session alone, a
 * borrowed device, cannot move the account away), then the link by mail.
 */
async function requestEmailChange<E>(
	ctx: RequestContext,
	user: CurrentSession['user'],
	input: { newEmail: string; currentPassword?: string },
	fieldError: (name: string, message: string, hide?: string[]) => E,
) {
	const { newEmail, currentPassword } = input
	if (user.password_hash && !(await verifyPassword(currentPassword ?? '', user.password_hash)))
		return fieldError('currentPassword', 'accounts.account.wrongPassword', ['currentPassword'])
	if (newEmail === user.email) return fieldError('newEmail', 'accounts.account.sameEmail')
	// The same answer whether or not another account uses the address (no account oracle): the link goes
	// out either way, by a job, and confirming it says when the address is taken.
	await accountJobs.enqueue(ctx.db, 'mail.emailChange', { ...jobSite(ctx), userId: user.id, newEmail })
	return redirect(localePath(ctx.locale, withNotice('/learn/account', 'emailChangeSent')))
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const session = requireSession(context)
	const { user } = session
	const submission = parseWithZod(await readForm(request), { schema })
	const hideFields = ['currentPassword', 'oldPassword', 'newPassword']
	const limited = await limitAccountForm(ctx, user.id, submission, hideFields)
	if (limited) return limited
	if (submission.status !== 'success')
		return data({ result: replyWithHidden(submission, ['intent'], { hideFields }) }, { status: 400 })
	const input = submission.value

	if (input.intent === 'time-zone' || input.intent === 'device-time-zone' || input.intent === 'calendar-link')
		return (await dueSettingsAction(ctx, session, input)) ?? data({ result: submission.reply() }, { status: 400 })

	if (input.intent === 'name') {
		await renameAccount(ctx, session, input.name)
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'nameSaved')))
	}

	if (input.intent === 'resend-verification') {
		if (user.email_verified_at)
			return data({ result: submission.reply({ formErrors: ['accounts.account.alreadyVerified'] }) }, { status: 409 })
		await resendOwnVerification(ctx, session)
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'verificationResent')))
	}

	if (input.intent === 'change-password') {
		// Only an account with a local password has one to change (OAuth-only and magic-link accounts do not).
		if (!user.password_hash)
			return data(
				{ result: submission.reply({ formErrors: ['accounts.account.noLocalPassword'], hideFields }) },
				{ status: 409 },
			)
		if (!(await verifyPassword(input.oldPassword, user.password_hash)))
			return data(
				{ result: submission.reply({ fieldErrors: { oldPassword: ['accounts.account.wrongPassword'] }, hideFields }) },
				{ status: 400 },
			)
		const passwordHash = await hashPassword(input.newPassword)
		const next = await changeOwnPassword(ctx, session, passwordHash)
		if (!next) throw notFound()
		const { cookie } = await sessionCookie(ctx, next)
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'passwordChanged')), {
			headers: { 'set-cookie': cookie },
		})
	}

	if (input.intent === 'sign-out-everywhere') {
		await endAllSessions(ctx, session)
		return redirect(localePath(ctx.locale, withNotice('/learn/sign-in', 'signedOut')), {
			headers: { 'set-cookie': await destroySessionCookie(ctx) },
		})
	}

	if (input.intent === 'reminders') {
		// Reminders are a tenant's (a platform account has no courses to be reminded of).
		if (user.tenant_id) await saveReminderChoices(ctx, user.tenant_id, user.id, input.kinds)
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'remindersSaved')))
	}

	// The interface language: users.locale (and the visitor cookie, for after sign-out)
	if (input.intent === 'locale') {
		await setAccountLocale(ctx, user.id, input.locale)
		return redirect(localePath(input.locale, withNotice('/learn/account', 'localeChanged')), {
			headers: { 'set-cookie': localeCookie(input.locale, ctx.origin.startsWith('https:')) },
		})
	}

	const fieldError = (name: string, message: string, hide?: string[]) =>
		data({ result: submission.reply({ fieldErrors: { [name]: [message] }, hideFields: hide }) }, { status: 400 })
	return requestEmailChange(ctx, user, input, fieldError)
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.account.title }]

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const { m, locale } = useI18n()
	const text = m.accounts.account
	// Each form shows only the result of its own intent (a refused password change is not the address form's error).
	const resultOf = (intent: string) =>
		actionData && 'result' in actionData && actionData.result.initialValue?.intent === intent
			? actionData.result
			: undefined
	const [form, fields] = useActionForm(resultOf('change-email'))
	const [localeForm, localeFields] = useActionForm(resultOf('locale'), { locale: loaderData.locale })
	const [passwordForm, passwordFields] = useActionForm(resultOf('change-password'))
	const [nameForm, nameFields] = useActionForm(resultOf('name'), { name: loaderData.name })
	const resendResult = resultOf('resend-verification')
	return (
		<section className="narrow stack">
			<h1>{text.title}</h1>
			<RedirectNotice
				accept={[
					'emailChangeSent',
					'localeChanged',
					'emailChanged',
					'passwordChanged',
					'nameSaved',
					'verificationResent',
					'remindersSaved',
					'archiveLimited',
					'archiveImpersonating',
					'timeZoneSaved',
					'calendarReplaced',
				]}
			/>
			{loaderData.verified ? null : <VerifyReminder result={resendResult} />}
			<p>
				{loaderData.name} · {loaderData.email}
			</p>
			<h2>{text.displayName}</h2>
			<Form method="post" className="stack" {...getFormProps(nameForm)}>
				<FormError errors={nameForm.errors} id={nameForm.errorId} />
				<input type="hidden" name="intent" value="name" />
				<Field label={text.nameLabel} meta={nameFields.name} autoComplete="name" />
				<Submit>{text.saveName}</Submit>
			</Form>
			<h2>{text.changePassword}</h2>
			{loaderData.hasPassword ? (
				<Form method="post" className="stack" {...getFormProps(passwordForm)}>
					<FormError errors={passwordForm.errors} id={passwordForm.errorId} />
					<input type="hidden" name="intent" value="change-password" />
					<Field
						label={text.currentPassword}
						meta={passwordFields.oldPassword}
						type="password"
						autoComplete="current-password"
					/>
					<NewPasswordField label={text.newPassword} meta={passwordFields.newPassword} />
					<Submit>{text.savePassword}</Submit>
				</Form>
			) : (
				<p>{text.noLocalPassword}</p>
			)}
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
			{loaderData.dueSettings ? <DueSettingsSection settings={loaderData.dueSettings} result={resultOf} /> : null}
			{loaderData.reminders.length > 0 ? <ReminderChoices choices={loaderData.reminders} /> : null}
			<h2>{text.sessions}</h2>
			<Form method="post">
				<p>{text.signOutEverywhereHint}</p>
				<Submit name="intent" value="sign-out-everywhere" className="button-secondary">
					{text.signOutEverywhere}
				</Submit>
			</Form>
			<h2 id="data">{text.yourData}</h2>
			{/* A document post, with JavaScript too: the answer is a download, not a page to render. */}
			<Form method="post" action={localePath(locale, '/learn/account/data')} reloadDocument>
				<p>{text.yourDataHint}</p>
				<button type="submit" className="button button-secondary">
					{text.downloadData}
				</button>
			</Form>
		</section>
	)
}
