import { readForm } from '#app/platform/forms.server.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, Notice } from '#app/ui/feedback.tsx'
import { Field, NewPasswordField, useActionForm } from '#app/ui/form.tsx'
import { TokenProblem } from '#app/accounts/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { redirectWithSession } from '#app/accounts/auth.server.ts'
import {
	acceptInvitation,
	checkInvitation,
	coursesOfInvitations,
	inviteeDetails,
} from '#app/accounts/invitations.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { nameField, newPasswordField } from '#app/platform/validation.ts'
import { findUserByEmail } from '#app/accounts/users.server.ts'
import { readCatalogue } from '#app/content/cms.server.ts'
import type { Route } from './+types/invite.$token.ts'

const newUserSchema = z.object({ name: nameField, password: newPasswordField })

export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const check = await checkInvitation(ctx, params.token)
	if (!check.ok) return { problem: check.reason, invite: null }
	const [existing, courses, carried, given] = await Promise.all([
		findUserByEmail(ctx.db, ctx.tenant!.id, check.invitation.email),
		readCatalogue(ctx),
		coursesOfInvitations(ctx.db, ctx.tenant!.id, [check.invitation.id]),
		inviteeDetails(ctx.db, ctx.tenant!.id, check.invitation.id),
	])
	const slug = check.invitation.course_slug
	const title = (s: string) => courses.find((c) => c.slug === s)?.title ?? s
	return {
		problem: null,
		invite: {
			email: check.invitation.email,
			role: check.invitation.role,
			// The course by its title, as the invitee knows it (its slug when the content service no longer lists it)
			course: slug ? title(slug) : null,
			// The courses it enrolls in on acceptance (decision 0040), by their titles.
			enrolls: (carried.get(check.invitation.id) ?? []).map(title),
			// The name the admin's list gave, for the form to start with.
			name: given.name ?? '',
			hasAccount: Boolean(existing?.email_verified_at),
		},
	}
}

export async function action({ params, request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const check = await checkInvitation(ctx, params.token)
	if (!check.ok) return data({ problem: check.reason, result: undefined }, { status: 410 })
	// An account whose address was never proven gets the invitee's own name and password too.
	const hasAccount = Boolean((await findUserByEmail(ctx.db, ctx.tenant!.id, check.invitation.email))?.email_verified_at)
	let newUser: { name: string; passwordHash: string } | null = null
	if (!hasAccount) {
		const submission = parseWithZod(await readForm(request), { schema: newUserSchema })
		if (submission.status !== 'success')
			return data({ problem: null, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
		newUser = { name: submission.value.name, passwordHash: await hashPassword(submission.value.password) }
	}
	// The acceptance, the role it grants and the session, together (acceptInvitation).
	const accepted = await acceptInvitation(ctx, params.token, newUser)
	if (!accepted) return data({ problem: 'used' as const, result: undefined }, { status: 410 })
	// A paid course it enrolls in has no free seat (decision 0065): nothing stored, the invitation still open.
	if ('full' in accepted) return data({ problem: null, result: undefined, full: accepted.full }, { status: 409 })
	return redirectWithSession(ctx, accepted.session)
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.invite.title }]

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const { m } = t
	const text = m.accounts.invite
	const [form, fields] = useActionForm(
		actionData?.result,
		loaderData.invite?.name ? { name: loaderData.invite.name } : undefined,
	)
	const problem = actionData?.problem ?? loaderData.problem
	if (problem || !loaderData.invite)
		return (
			<TokenProblem
				reason={problem ?? 'invalid'}
				retryHref="/learn/sign-in"
				retryLabel={m.accounts.goToSignIn}
				invalid={{ title: text.invalidTitle, body: text.invalid }}
			/>
		)
	const { invite } = loaderData
	// The stored role code stays as it is; the person reads its label.
	const role = Object.hasOwn(text.roles, invite.role)
		? text.roles[invite.role as keyof typeof text.roles]
		: invite.role.replace('_', ' ')
	return (
		<section className="narrow">
			<h1>{text.heading}</h1>
			<p>
				{t.rich(invite.course ? text.joinAsCourse : text.joinAs, {
					role: <strong>{role}</strong>,
					course: <strong>{invite.course}</strong>,
					email: <strong>{invite.email}</strong>,
				})}
			</p>
			{invite.enrolls.length ? <p>{t.format(text.enrolls, { courses: invite.enrolls.join(', ') })}</p> : null}
			{actionData && 'full' in actionData ? (
				<Notice tone="error">{t.format(text.full, { course: actionData.full })}</Notice>
			) : null}
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				{invite.hasAccount ? null : (
					<>
						<Field label={text.yourName} meta={fields.name} autoComplete="name" />
						<NewPasswordField label={text.choosePassword} meta={fields.password} />
					</>
				)}
				<Submit>{text.submit}</Submit>
			</Form>
		</section>
	)
}
