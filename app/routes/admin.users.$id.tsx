import { readForm } from '#app/utils/forms.server.ts'
import { data, Form, redirect, Link } from 'react-router'
import { z } from 'zod'
import { Notice } from '#app/components/feedback.tsx'
import { metaI18n, useI18n, type I18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { adminAudit, auditAdmin, limitAdminMutation, requireAdmin, type AdminScope } from '#app/utils/admin.server.ts'
import { mailTokenLink } from '#app/utils/emails.server.ts'
import { findScopedUser } from '#db/admin.ts'
import { auditSteps } from '#db/audit.ts'
import { removeCourseAssignmentsSteps } from '#db/learning.ts'
import { inTransaction } from '#db/transaction.ts'
import { retireTokens } from '#db/tokens.ts'
import { INVITABLE_ROLES, type Role } from '#db/schema/values.ts'
import { updateUser, updateUserSteps, type User } from '#db/users.ts'
import type { Route } from './+types/admin.users.$id.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { notFound } from '#app/utils/errors.ts'

/** The target user, in this admin's scope: another tenant's user (or a malformed id) is 404. */
async function requireTarget(scope: AdminScope, id: string) {
	const target = await findScopedUser(scope.ctx.db, scope.tenant?.id ?? null, id)
	if (!target) throw notFound()
	// A tenant_admin manages the tenant's people, not platform accounts.
	if (target.role === 'super_admin' && !scope.isSuper) throw notFound()
	return target
}

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ context, request, params }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	const u = await requireTarget(scope, params.id)
	return {
		user: {
			id: u.id,
			name: u.name,
			email: u.email,
			// The role column is CHECK-constrained to ROLES
			role: u.role as Role,
			locale: u.locale,
			verified: Boolean(u.email_verified_at),
			deactivated: Boolean(u.deactivated_at),
			hasPassword: Boolean(u.password_hash),
			createdAt: u.created_at.toISOString(),
		},
		self: u.id === scope.session.user.id,
		// Impersonation needs the target's tenant host (spec, Authentication 12).
		canImpersonate:
			scope.isSuper && scope.tenant !== null && u.id !== scope.session.user.id && u.role !== 'super_admin',
		notice: new URL(request.url).searchParams.get('notice'),
	}
}

const roleSchema = z.object({ role: z.enum(INVITABLE_ROLES, { message: 'admin.user.errors.chooseRole' }) })

// ?notice=<value> after an action → its text in the catalogue (admin.user.notices)
const NOTICES: Record<string, keyof I18n['m']['admin']['user']['notices']> = {
	'role-changed': 'roleChanged',
	deactivated: 'deactivated',
	reactivated: 'reactivated',
	'signed-out': 'signedOut',
	'verification-sent': 'verificationSent',
	'reset-sent': 'resetSent',
}

export async function action({ context, request, params }: Route.ActionArgs) {
	const scope = requireAdmin(context)
	const target = await requireTarget(scope, params.id)
	const limited = await limitAdminMutation(scope)
	if (limited) return limited
	const form = await readForm(request)
	const intent = String(form.get('intent') ?? '')
	const { ctx } = scope
	const self = target.id === scope.session.user.id
	const audit = (action: string, metadata: Record<string, unknown> = {}) =>
		auditAdmin(scope, action, { kind: 'user', id: target.id, tenantId: target.tenant_id }, metadata)
	const done = (notice: string) => redirect(localePath(ctx.locale, `/admin/users/${target.id}?notice=${notice}`))

	// Admins cannot lock themselves out: role changes and deactivation of one's own account are refused.
	if (self && ['change-role', 'deactivate'].includes(intent))
		return data({ error: 'admin.user.errors.self', fieldErrors: {} }, { status: 400 })

	switch (intent) {
		case 'change-role': {
			if (target.role === 'super_admin')
				return data({ error: 'admin.user.errors.platformRole', fieldErrors: {} }, { status: 400 })
			const parsed = roleSchema.safeParse({ role: form.get('role') })
			if (!parsed.success)
				return data({ error: null, fieldErrors: { role: parsed.error.issues.map((i) => i.message) } }, { status: 400 })
			if (parsed.data.role === target.role) return done('role-changed')
			const role = parsed.data.role
			// The role, the end of its course assignments and the audit row, together or not at all.
			await inTransaction(ctx.db, function* (tx) {
				yield* updateUserSteps(tx, target.id, { role }, { bumpTokenVersion: true })
				// Course assignments belong to the course_admin role: they do not wait for a later promotion.
				const unassigned =
					target.role === 'course_admin'
						? yield* removeCourseAssignmentsSteps(tx, { tenantId: target.tenant_id!, userId: target.id })
						: []
				yield* auditSteps(
					tx,
					adminAudit(
						scope,
						'user.role_changed',
						{ kind: 'user', id: target.id, tenantId: target.tenant_id },
						{ from: target.role, to: role, ...(unassigned.length ? { unassigned } : {}) },
					),
				)
			})
			return done('role-changed')
		}
		case 'deactivate':
			await updateUser(ctx.db, target.id, { deactivated_at: new Date() }, { bumpTokenVersion: true })
			await audit('user.deactivated')
			return done('deactivated')
		case 'reactivate':
			await updateUser(ctx.db, target.id, { deactivated_at: null })
			await audit('user.reactivated')
			return done('reactivated')
		case 'force-sign-out':
			await retireTokens(ctx.db, target.id)
			await updateUser(ctx.db, target.id, {}, { bumpTokenVersion: true })
			await audit('user.signed_out')
			return done('signed-out')
		case 'resend-verification':
			if (target.email_verified_at)
				return data({ error: 'admin.user.errors.alreadyVerified', fieldErrors: {} }, { status: 400 })
			await mailTokenLink(ctx, target as User, target.email, 'email_verify')
			await audit('user.verification_resent')
			return done('verification-sent')
		case 'send-reset':
			await mailTokenLink(ctx, target as User, target.email, 'password_reset')
			await audit('user.password_reset_sent')
			return done('reset-sent')
		default:
			return data({ error: 'admin.user.errors.unknownAction', fieldErrors: {} }, { status: 400 })
	}
}

export { actionHeaders as headers } from '#app/utils/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: loaderData?.user.name ?? t.m.admin.user.metaTitle }) }]
}

function Intent({ intent, label, secondary }: { intent: string; label: string; secondary?: boolean }) {
	return (
		<Form method="post">
			<input type="hidden" name="intent" value={intent} />
			<button type="submit" className={secondary ? 'button button-secondary' : 'button'}>
				{label}
			</button>
		</Form>
	)
}

export default function AdminUser({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.user
	const u = d.user
	const roleError =
		actionData?.fieldErrors && 'role' in actionData.fieldErrors ? (actionData.fieldErrors.role as string[]) : null
	return (
		<section>
			<p>
				<Link prefetch="intent" to={'/admin/users'}>
					{m.back}
				</Link>
			</p>
			<h1>{u.name}</h1>
			{d.notice && Object.hasOwn(NOTICES, d.notice) ? <Notice tone="ok">{m.notices[NOTICES[d.notice]]}</Notice> : null}
			{actionData?.error ? <Notice tone="error">{t.text(actionData.error)}</Notice> : null}
			<dl className="facts">
				<dt>{m.email}</dt>
				<dd>{u.email}</dd>
				<dt>{m.role}</dt>
				<dd>{t.m.admin.roleNames[u.role]}</dd>
				<dt>{m.status}</dt>
				<dd>
					{u.deactivated
						? t.m.admin.userStatuses.deactivated
						: u.verified
							? t.m.admin.userStatuses.active
							: m.emailNotVerified}
				</dd>
				<dt>{m.signIn}</dt>
				<dd>{u.hasPassword ? m.password : m.passwordless}</dd>
				<dt>{m.joined}</dt>
				<dd>{t.date(u.createdAt)}</dd>
			</dl>

			{!d.self && u.role !== 'super_admin' ? (
				<Form method="post" className="stack narrow">
					<input type="hidden" name="intent" value="change-role" />
					<div className="field">
						<label htmlFor="role">{m.role}</label>
						<select
							id="role"
							name="role"
							defaultValue={u.role}
							aria-invalid={roleError ? true : undefined}
							aria-describedby={roleError ? 'role-error' : undefined}
						>
							{INVITABLE_ROLES.map((r) => (
								<option key={r} value={r}>
									{t.m.admin.roles[r]}
								</option>
							))}
						</select>
						{roleError ? (
							<p id="role-error" className="field-error">
								{roleError.map(t.text).join(' ')}
							</p>
						) : null}
					</div>
					<button type="submit" className="button">
						{m.changeRole}
					</button>
				</Form>
			) : null}

			<div className="actions">
				{d.self ? null : u.deactivated ? (
					<Intent intent="reactivate" label={m.reactivate} />
				) : (
					<Intent intent="deactivate" label={m.deactivate} secondary />
				)}
				<Intent intent="force-sign-out" label={m.signOutEverywhere} secondary />
				{u.verified ? null : <Intent intent="resend-verification" label={m.resendVerification} secondary />}
				<Intent intent="send-reset" label={m.sendReset} secondary />
				{d.canImpersonate ? (
					<form method="post" action="/api/admin/impersonate/start">
						<input type="hidden" name="userId" value={u.id} />
						<button type="submit" className="button button-secondary">
							{m.impersonate}
						</button>
					</form>
				) : null}
			</div>
		</section>
	)
}
