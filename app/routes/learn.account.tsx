import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, RedirectNotice } from '#app/ui/feedback.tsx'
import { VerifyReminder } from '#app/accounts/verify-reminder.tsx'
import { Field, NewPasswordField, SelectField, useActionForm } from '#app/ui/form.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { enqueue, enqueueSteps, jobSite } from '#app/platform/jobs.server.ts'
import { limitForm, readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import {
	destroySessionCookie,
	newSessionSteps,
	sessionCookie,
	type CurrentSession,
} from '#app/accounts/session.server.ts'
import { revokeSessionSteps } from '#db/sessions.ts'
import { adminAudit } from '#app/admin/admin.server.ts'
import { emailField, nameField, newPasswordField, passwordField } from '#app/platform/validation.ts'
import { hashPassword, verifyPassword } from '#app/accounts/password.server.ts'
import { addressKey } from '#app/platform/rate-limit.server.ts'
import { auditSteps, type AuditAction, type AuditInput } from '#db/audit.ts'
import { inTransaction } from '#db/transaction.ts'
import { LOCALE_NAMES, LOCALES, localePath } from '#app/i18n/locales.ts'
import { localeCookie } from '#app/platform/locale.server.ts'
import { retireTokensSteps } from '#db/tokens.ts'
import { updateUser, updateUserSteps } from '#db/users.ts'
import type { Route } from './+types/learn.account.ts'
import { withNotice } from '#app/platform/notices.ts'
import { reminderChoices, saveReminderChoices } from '#app/reminders/preferences.server.ts'
import { REMINDER_KINDS } from '#db/schema/values.ts'
import { ReminderChoices } from '#app/reminders/reminder-choices.tsx'

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
		// The reminder mails to keep (decision 0045): every box left unticked is a kind turned off.
		z.object({ intent: z.literal('reminders'), kinds: z.array(z.enum(REMINDER_KINDS)).default([]) }),
	],
	{ message: 'common.validation.choose' },
)

/**
 * The audit row of a learner's own change (decisions 0023, 0031): its actor is whoever acted, the
 * impersonating super admin when there is one (also named in the metadata, as on admin rows).
 */
function ownChange(session: CurrentSession, action: AuditAction, metadata: Record<string, unknown> = {}): AuditInput {
	const { user, impersonator } = session
	return {
		...adminAudit({ session }, action, { kind: 'user', id: user.id, tenantId: user.tenant_id }, metadata),
		actorUserId: impersonator?.userId ?? user.id,
	}
}

export async function loader({ context }: Route.LoaderArgs) {
	const { claims, user } = requireSession(context)
	return {
		// Reminders are about a tenant's courses: a platform account (no tenant) has none to choose.
		reminders: user.tenant_id ? await reminderChoices(getRequestContext(context), user.tenant_id, user.id) : [],
		name: user.name,
		email: claims.email,
		locale: user.locale,
		hasPassword: Boolean(user.password_hash),
		verified: Boolean(user.email_verified_at),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const session = requireSession(context)
	const { user } = session
	const submission = parseWithZod(await readForm(request), { schema })
	// Every post but the language and sign-out buttons counts against its form's limit, malformed ones too.
	const { intent } = submission.payload
	const hideFields = ['currentPassword', 'oldPassword', 'newPassword']
	// A password change tries the current password: limited per user like sign-in attempts, malformed posts too.
	if (intent === 'change-password') {
		const limited = await limitForm(ctx, 'passwordChange', user.id, submission, hideFields)
		if (limited) return limited
	} else if (intent === 'name') {
		// A name is what staff know the learner by (decision 0031): a few corrections an hour.
		const limited = await limitForm(ctx, 'nameChange', user.id, submission)
		if (limited) return limited
	} else if (intent === 'resend-verification') {
		const limited =
			(await limitForm(ctx, 'verificationResend', user.id, submission)) ??
			(await limitForm(ctx, 'verificationResendIp', addressKey(ctx.clientIp), submission))
		if (limited) return limited
	} else if (intent !== 'locale' && intent !== 'sign-out-everywhere' && intent !== 'reminders') {
		// The address change (and any post naming no form) mails a link.
		const limited = await limitForm(ctx, 'magic', `email-change|${user.id}`, submission)
		if (limited) return limited
	}
	if (submission.status !== 'success')
		return data({ result: replyWithHidden(submission, ['intent'], { hideFields }) }, { status: 400 })
	const input = submission.value

	if (input.intent === 'name') {
		// The new name and its audit row stand together; the same name again changes and records nothing.
		if (input.name !== user.name)
			await inTransaction(ctx.db, function* (tx) {
				yield* updateUserSteps(tx, user.id, { name: input.name })
				yield* auditSteps(tx, ownChange(session, 'account.name.changed', { from: user.name, to: input.name }))
			})
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'nameSaved')))
	}

	if (input.intent === 'resend-verification') {
		if (user.email_verified_at)
			return data({ result: submission.reply({ formErrors: ['accounts.account.alreadyVerified'] }) }, { status: 409 })
		// The audit row and the mail's job together (decision 0033).
		await inTransaction(ctx.db, function* (tx) {
			yield* auditSteps(tx, ownChange(session, 'account.verification.resent'))
			yield* enqueueSteps(tx, 'mail.verification', { ...jobSite(ctx), userId: user.id })
		})
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
		// The new hash, the token_version bump (every session of the user ends, this one too), the audit row
		// and this device's new session stand together.
		const next = await inTransaction(ctx.db, function* (tx) {
			const row = yield* updateUserSteps(tx, user.id, { password_hash: passwordHash }, { bumpTokenVersion: true })
			if (!row) return null
			// A reset or sign-in link mailed before the change signs nobody in afterwards (whoever asked for it).
			yield* retireTokensSteps(tx, user.id, new Date(), ['password_reset', 'magic_link'])
			yield* auditSteps(tx, ownChange(session, 'account.password.changed'))
			// The account's address is told, whoever changed it (decision 0041).
			yield* enqueueSteps(tx, 'mail.passwordChanged', { ...jobSite(ctx), userId: user.id })
			// This device stays signed in: its old session is revoked and a new one is minted under the new token_version.
			yield* revokeSessionSteps(tx, session.id)
			return yield* newSessionSteps(tx, ctx, row)
		})
		if (!next) throw new Response(null, { status: 404 })
		const { cookie } = await sessionCookie(ctx, next)
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'passwordChanged')), {
			headers: { 'set-cookie': cookie },
		})
	}

	if (input.intent === 'sign-out-everywhere') {
		// The links retired, every session ended and this one revoked, together.
		await inTransaction(ctx.db, function* (tx) {
			yield* retireTokensSteps(tx, user.id)
			yield* updateUserSteps(tx, user.id, {}, { bumpTokenVersion: true })
			yield* revokeSessionSteps(tx, session.id)
		})
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
	// out either way, by a job, and confirming it says when the address is taken.
	await enqueue(ctx.db, 'mail.emailChange', { ...jobSite(ctx), userId: user.id, newEmail })
	return redirect(localePath(ctx.locale, withNotice('/learn/account', 'emailChangeSent')))
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.account.title }]

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const { m } = useI18n()
	const text = m.accounts.account
	// Each form shows only the result of its own intent (a refused password change is not the address form's error).
	const resultOf = (intent: string) =>
		actionData?.result.initialValue?.intent === intent ? actionData.result : undefined
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
			{loaderData.reminders.length > 0 ? <ReminderChoices choices={loaderData.reminders} /> : null}
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
