import { askToConfirm, confirmed, readForm, replyWithHidden, type Confirmation } from '#app/platform/forms.server.ts'
import { data, Form, redirect, Link } from 'react-router'
import { z } from 'zod'
import { ConfirmStep, FormError, RedirectNotice, Submit, PostButton } from '#app/ui/feedback.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { adminAudit, platformMutation, requireAdmin, type AdminScope } from '#app/admin/admin.server.ts'
import {
	cancelEnrollment,
	courseSlugField,
	enrollRefusal,
	enrollRows,
	learningRecord,
} from '#app/admin/admin-enrollments.server.ts'
import { readCatalogue, readContent } from '#app/content/cms.server.ts'
import { ScrollTable } from '#app/ui/table.tsx'
import { enqueueSteps, jobSite } from '#app/platform/jobs.server.ts'
import { findScopedUser } from '#db/admin.ts'
import { auditSteps } from '#db/audit.ts'
import {
	assignCourseAdminSteps,
	assignedCourseSlugs,
	findEnrollment,
	removeCourseAssignmentsSteps,
} from '#db/learning.ts'
import { findTenantById } from '#db/tenants.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'
import { retireTokensSteps } from '#db/tokens.ts'
import { mayInvite, type WithdrawalReason } from '#db/invitations.ts'
import { withdrawInvitationsSteps } from '#app/accounts/invitations.server.ts'
import { INVITABLE_ROLES } from '#db/schema/values.ts'
import { updateUserSteps } from '#db/users.ts'
import type { Route } from './+types/admin.users.$id.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { notFound } from '#app/platform/errors.ts'
import { SelectField, useActionForm } from '#app/ui/form.tsx'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'

/** The target user, in this admin's scope: another tenant's user (or a malformed id) is 404. */
async function requireTarget(scope: AdminScope, id: string) {
	const target = await findScopedUser(scope.ctx.db, scope.tenant?.id ?? null, id)
	if (!target) throw notFound()
	// A tenant_admin manages the tenant's people, not platform accounts.
	if (target.role === 'super_admin' && !scope.isSuper) throw notFound()
	return target
}

/**
 * The courses the target could administer: their tenant's, in every state (an admin may prepare a
 * draft with a course admin, as on the course's admins page). On the apex, the super admin acts on
 * a user of some tenant: that tenant's site.
 */
async function targetCourses(scope: AdminScope, target: { tenant_id: string | null }) {
	const site = scope.tenant
		? scope.ctx.site
		: target.tenant_id
			? (await findTenantById(scope.ctx.db, target.tenant_id))?.slug
			: undefined
	if (!site) return []
	const courses = await readCatalogue(scope.ctx, site)
	return courses.map((c) => ({ value: c.slug, label: c.title }))
}

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ context, params }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	const u = await requireTarget(scope, params.id)
	const self = u.id === scope.session.user.id
	// Only the role form offers them (not shown for oneself or a platform account).
	const courses = self || u.role === 'super_admin' ? [] : await targetCourses(scope, u)
	const assigned =
		u.role === 'course_admin' && u.tenant_id
			? await assignedCourseSlugs(scope.ctx.db, { tenantId: u.tenant_id, userId: u.id })
			: []
	// Titles where the catalogue was read (a slug it no longer lists stays a slug).
	const titles = new Map(courses.map((c) => [c.value, c.label]))
	// Courses are the tenant's content: on the apex there is no site to name them by, so no record.
	const learning =
		scope.tenant && u.tenant_id === scope.tenant.id
			? await learningRecord(scope, { tenantId: scope.tenant.id, userId: u.id })
			: null
	return {
		learning,
		courses,
		assignedCourses: assigned.map((slug) => titles.get(slug) ?? slug),
		user: {
			id: u.id,
			name: u.name,
			email: u.email,
			// The role column is CHECK-constrained to ROLES
			role: u.role,
			locale: u.locale,
			verified: Boolean(u.email_verified_at),
			deactivated: Boolean(u.deactivated_at),
			hasPassword: Boolean(u.password_hash),
			createdAt: u.created_at.toISOString(),
		},
		self,
		// Impersonation needs the target's tenant host (spec, Authentication 12).
		canImpersonate:
			scope.isSuper && scope.tenant !== null && u.id !== scope.session.user.id && u.role !== 'super_admin',
	}
}

// One schema per button of the page, told apart by `intent`.
const schema = z.discriminatedUnion(
	'intent',
	[
		z.object({
			intent: z.literal('change-role'),
			role: z.enum(INVITABLE_ROLES, { message: 'admin.user.errors.chooseRole' }),
			// Which course a new course admin administers (required in the action, which knows the current role).
			course_slug: z.string().trim().max(200).optional(),
			...confirmed,
		}),
		z.object({ intent: z.literal('deactivate'), ...confirmed }),
		z.object({ intent: z.literal('reactivate') }),
		z.object({ intent: z.literal('force-sign-out'), ...confirmed }),
		z.object({ intent: z.literal('resend-verification') }),
		z.object({ intent: z.literal('send-reset') }),
		z.object({ intent: z.literal('cancel-enrollment'), courseSlug: courseSlugField, ...confirmed }),
		z.object({ intent: z.literal('reenroll'), courseSlug: courseSlugField }),
	],
	{ message: 'admin.user.errors.unknownAction' },
)

/** A lower role takes away what the person could do, a higher one gives more: both asked before they are done. */
const RANK = { student: 0, course_admin: 1, tenant_admin: 2, super_admin: 3 } as const

function confirmationOf(
	target: { name: string; role: keyof typeof RANK },
	input: z.infer<typeof schema>,
): Confirmation | null {
	const values = { name: target.name }
	if (input.intent === 'deactivate' && !input.confirmed)
		return {
			question: 'admin.user.confirm.deactivate',
			button: 'admin.user.deactivate',
			values,
			fields: { intent: input.intent },
		}
	if (input.intent === 'force-sign-out' && !input.confirmed)
		return {
			question: 'admin.user.confirm.signOut',
			button: 'admin.user.signOutEverywhere',
			values,
			fields: { intent: input.intent },
		}
	// Every change of role asks first, up as well as down (issue 40): a promotion gives what an attacker
	// with an admin's session would want most. A new course for a course admin is no change of role.
	if (input.intent === 'change-role' && !input.confirmed && input.role !== target.role)
		return {
			question: RANK[input.role] < RANK[target.role] ? 'admin.user.confirm.demote' : 'admin.user.confirm.promote',
			button: 'admin.user.changeRole',
			values,
			labels: { from: `admin.roleNames.${target.role}`, to: `admin.roleNames.${input.role}` },
			fields: {
				intent: input.intent,
				role: input.role,
				...(input.role === 'course_admin' && input.course_slug ? { course_slug: input.course_slug } : {}),
			},
		}
	return null
}

const USER_NOTICES = [
	'roleChanged',
	'userDeactivated',
	'userReactivated',
	'userSignedOut',
	'verificationSent',
	'resetSent',
	'enrollmentCancelled',
	'enrollmentReactivated',
] as const satisfies NoticeName[]

export async function action({ context, request, params }: Route.ActionArgs) {
	const { scope, limited } = await platformMutation(context)
	const target = await requireTarget(scope, params.id)
	if (limited) return limited
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
	const { ctx } = scope
	const refuse = (message: string) => data({ result: submission.reply({ formErrors: [message] }) }, { status: 400 })
	const subject = { kind: 'user', id: target.id, tenantId: target.tenant_id }
	/** Withdraws what the target left pending that they may no longer grant (decision 0032), in the caller's transaction. */
	const withdrawSteps = (tx: Tx, reason: WithdrawalReason) =>
		withdrawInvitationsSteps(tx, { invitedBy: target.id }, (row) =>
			adminAudit(
				scope,
				'invitation.revoked',
				{ kind: 'invitation', id: row.id, tenantId: row.tenant_id },
				{ email: row.email, role: row.role, courseSlug: row.course_slug, reason },
			),
		)
	const done = (notice: NoticeName) => redirect(localePath(ctx.locale, withNotice(`/admin/users/${target.id}`, notice)))

	const input = submission.value
	// Admins cannot lock themselves out: role changes and deactivation of one's own account are refused.
	if (target.id === scope.session.user.id && (input.intent === 'change-role' || input.intent === 'deactivate'))
		return refuse('admin.user.errors.self')
	// The course is checked before anything is asked: a confirmation would only post it again to be refused.
	const courseSlug = input.intent === 'change-role' && input.role === 'course_admin' ? input.course_slug || null : null
	// Becoming a course admin means nothing without a course; one already may keep their courses (the form unchanged).
	if (
		input.intent === 'change-role' &&
		input.role === 'course_admin' &&
		!courseSlug &&
		target.role !== 'course_admin' &&
		target.role !== 'super_admin'
	)
		return data(
			{ result: submission.reply({ fieldErrors: { course_slug: ['admin.user.errors.courseRequired'] } }) },
			{ status: 400 },
		)
	if (
		courseSlug &&
		target.role !== 'super_admin' &&
		!(await targetCourses(scope, target)).some((c) => c.value === courseSlug)
	)
		return data(
			{ result: submission.reply({ fieldErrors: { course_slug: ['admin.user.errors.unknownCourse'] } }) },
			{ status: 400 },
		)
	const confirmation = target.role === 'super_admin' ? null : confirmationOf(target, input)
	if (confirmation) return askToConfirm(confirmation)

	switch (input.intent) {
		case 'change-role': {
			if (target.role === 'super_admin') return refuse('admin.user.errors.platformRole')
			const { role } = input
			if (role === target.role && !courseSlug) return done('roleChanged')
			const tenantId = target.tenant_id!
			// The role, its course assignments, the invitations it may no longer send and the audit rows,
			// together or not at all.
			await inTransaction(ctx.db, function* (tx) {
				// Bumped for a new course alone too: the session's claims list the assigned courses.
				yield* updateUserSteps(tx, target.id, role === target.role ? {} : { role }, { bumpTokenVersion: true })
				// Course assignments belong to the course_admin role: they do not wait for a later promotion.
				const unassigned =
					target.role === 'course_admin' && role !== 'course_admin'
						? yield* removeCourseAssignmentsSteps(tx, { tenantId, userId: target.id })
						: []
				// Invitations it sent while it could are withdrawn with the right to send them: any step down
				// of someone who may invite (a course admin's learner invitations too, decision 0040).
				if (mayInvite(target.role) && RANK[role] < RANK[target.role]) yield* withdrawSteps(tx, 'inviter_demoted')
				if (role !== target.role)
					yield* auditSteps(
						tx,
						adminAudit(scope, 'user.role_changed', subject, {
							from: target.role,
							to: role,
							...(unassigned.length ? { unassigned } : {}),
						}),
					)
				if (courseSlug) {
					yield* assignCourseAdminSteps(tx, { tenantId, userId: target.id }, courseSlug, scope.session.user.id)
					// The same row as an assignment on the course's admins page.
					yield* auditSteps(tx, adminAudit(scope, 'course.admin_assigned', subject, { courseSlug }))
				}
			})
			return done('roleChanged')
		}
		case 'deactivate':
			// The account, the invitations it left pending and the audit rows, together.
			await inTransaction(ctx.db, function* (tx) {
				yield* updateUserSteps(tx, target.id, { deactivated_at: new Date() }, { bumpTokenVersion: true })
				yield* withdrawSteps(tx, 'inviter_deactivated')
				yield* auditSteps(tx, adminAudit(scope, 'user.deactivated', subject))
			})
			return done('userDeactivated')
		case 'reactivate':
			// What deactivation withdrew stays withdrawn: an admin sends new invitations if they are wanted.
			await inTransaction(ctx.db, function* (tx) {
				yield* updateUserSteps(tx, target.id, { deactivated_at: null })
				yield* auditSteps(tx, adminAudit(scope, 'user.reactivated', subject))
			})
			return done('userReactivated')
		case 'force-sign-out':
			await inTransaction(ctx.db, function* (tx) {
				yield* retireTokensSteps(tx, target.id)
				yield* updateUserSteps(tx, target.id, {}, { bumpTokenVersion: true })
				yield* auditSteps(tx, adminAudit(scope, 'user.signed_out', subject))
			})
			return done('userSignedOut')
		case 'resend-verification':
		case 'send-reset': {
			if (input.intent === 'resend-verification' && target.email_verified_at)
				return refuse('admin.user.errors.alreadyVerified')
			const subject = { kind: 'user', id: target.id, tenantId: target.tenant_id }
			const job = { ...jobSite(ctx), userId: target.id }
			// The audit row and the mail's job together (decision 0033): the link is issued when it is sent.
			await inTransaction(ctx.db, function* (tx) {
				if (input.intent === 'resend-verification') {
					yield* enqueueSteps(tx, 'mail.verification', job)
					yield* auditSteps(tx, adminAudit(scope, 'user.verification_resent', subject))
				} else {
					yield* enqueueSteps(tx, 'mail.passwordReset', job)
					yield* auditSteps(tx, adminAudit(scope, 'user.password_reset_sent', subject))
				}
			})
			return done(input.intent === 'resend-verification' ? 'verificationSent' : 'resetSent')
		}
		case 'cancel-enrollment':
		case 'reenroll': {
			// Enrollments belong to a tenant's courses: none on the apex, none for platform accounts.
			const tenant = scope.tenant
			if (!tenant || target.tenant_id !== tenant.id) throw notFound()
			const learner = { tenantId: tenant.id, userId: target.id }
			const enrollment = await findEnrollment(ctx.db, learner, input.courseSlug)
			if (!enrollment) throw notFound()
			const course = await readContent(`course ${enrollment.course_slug}`, () =>
				ctx.cms.course(ctx.site, enrollment.course_slug, ctx.locale),
			)
			if (input.intent === 'cancel-enrollment') {
				if (enrollment.status === 'cancelled') return refuse('admin.user.enrollments.alreadyCancelled')
				if (!input.confirmed)
					return askToConfirm({
						question: 'admin.user.confirm.cancelEnrollment',
						button: 'admin.user.enrollments.cancel',
						keep: 'admin.user.enrollments.keep',
						values: { name: target.name, course: course?.title ?? enrollment.course_slug },
						fields: { intent: input.intent, courseSlug: enrollment.course_slug },
					})
				if (!(await cancelEnrollment(scope, learner, enrollment.course_slug)))
					return refuse('admin.user.enrollments.alreadyCancelled')
				return done('enrollmentCancelled')
			}
			if (enrollment.status !== 'cancelled') return refuse('admin.user.enrollments.notCancelled')
			if (!course) return refuse('adminCourses.enroll.errors.notOpen')
			const refusal = enrollRefusal(course)
			if (refusal) return refuse(refusal)
			const [row] = await enrollRows(scope, tenant, course, [target.email])
			if (row.outcome === 'deactivated') return refuse('admin.user.enrollments.deactivated')
			return done('enrollmentReactivated')
		}
	}
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: loaderData?.user.name ?? t.m.admin.user.metaTitle }) }]
}

export default function AdminUser({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.user
	const u = d.user
	const [form, fields] = useActionForm(actionData && 'result' in actionData ? actionData.result : undefined, {
		role: u.role,
		course_slug: '',
	})
	return (
		<section>
			<p>
				<Link prefetch="intent" to={'/admin/users'}>
					{m.back}
				</Link>
			</p>
			<h1>{u.name}</h1>
			<RedirectNotice accept={USER_NOTICES} />
			<FormError errors={form.errors} id={form.errorId} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
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
				{u.role === 'course_admin' ? (
					<>
						<dt>{m.assignedCourses}</dt>
						<dd>{d.assignedCourses.length ? d.assignedCourses.join(', ') : m.noAssignedCourses}</dd>
					</>
				) : null}
				<dt>{m.joined}</dt>
				<dd>{t.date(u.createdAt)}</dd>
			</dl>

			{!d.self && u.role !== 'super_admin' ? (
				<Form method="post" className="stack narrow" {...getFormProps(form)}>
					<input type="hidden" name="intent" value="change-role" />
					<SelectField
						label={m.role}
						meta={fields.role}
						options={INVITABLE_ROLES.map((r) => ({ value: r, label: t.m.admin.roles[r] }))}
					/>
					{/* Always there, with JavaScript or without: read only when the role chosen is course admin. */}
					<SelectField
						label={m.course}
						meta={fields.course_slug}
						options={[{ value: '', label: m.noCourse }, ...d.courses]}
					/>
					<Submit>{m.changeRole}</Submit>
				</Form>
			) : null}

			<div className="actions">
				{d.self ? null : u.deactivated ? (
					<PostButton fields={{ intent: 'reactivate' }}>{m.reactivate}</PostButton>
				) : (
					<PostButton secondary fields={{ intent: 'deactivate' }}>
						{m.deactivate}
					</PostButton>
				)}
				<PostButton secondary fields={{ intent: 'force-sign-out' }}>
					{m.signOutEverywhere}
				</PostButton>
				{u.verified ? null : (
					<PostButton secondary fields={{ intent: 'resend-verification' }}>
						{m.resendVerification}
					</PostButton>
				)}
				<PostButton secondary fields={{ intent: 'send-reset' }}>
					{m.sendReset}
				</PostButton>
				{d.canImpersonate ? (
					<form method="post" action="/api/admin/impersonate/start">
						<input type="hidden" name="userId" value={u.id} />
						<button type="submit" className="button button-secondary">
							{m.impersonate}
						</button>
					</form>
				) : null}
				{/* Erasure (decision 0044) is a tenant's: shown where the learning record is, on the person's own tenant host. */}
				{d.learning && !d.self && u.role !== 'super_admin' ? (
					<Link className="button button-secondary" to={`/admin/users/${u.id}/erase`}>
						{m.erase}
					</Link>
				) : null}
			</div>
			{d.learning ? <Learning record={d.learning} /> : null}
		</section>
	)
}

/** The user's enrollments with progress, and their latest quiz attempts. */
function Learning({ record }: { record: NonNullable<Route.ComponentProps['loaderData']['learning']> }) {
	const t = useI18n()
	const m = t.m.admin.user.enrollments
	const statuses = t.m.adminCourses.enrollmentStatus
	return (
		<>
			<h2>{m.title}</h2>
			{record.enrollments.length === 0 ? (
				<p className="empty">{m.empty}</p>
			) : (
				<ScrollTable label={m.title}>
					<thead>
						<tr>
							<th scope="col">{m.course}</th>
							<th scope="col">{m.status}</th>
							<th scope="col">{m.result}</th>
							<th scope="col">{m.progress}</th>
							<th scope="col">{m.enrolledAt}</th>
						</tr>
					</thead>
					<tbody>
						{record.enrollments.map((e) => (
							<tr key={e.courseSlug}>
								<td>
									{/* The row's action sits under the course's name, in the first column: on a phone the
									    table scrolls sideways, and a last column would start off-screen (issue 40). */}
									<div className="row-actions">
										{/* A course the content service no longer has has no dashboard to open. */}
										{e.total === null ? (
											<span lang={e.lang}>{e.title}</span>
										) : (
											<Link prefetch="intent" to={`/admin/courses/${e.courseSlug}/dashboard`} lang={e.lang}>
												{e.title}
											</Link>
										)}
										{e.status === 'cancelled' ? (
											<PostButton link fields={{ intent: 'reenroll', courseSlug: e.courseSlug }}>
												{t.format(m.reenroll, { course: e.title })}
											</PostButton>
										) : (
											<PostButton link fields={{ intent: 'cancel-enrollment', courseSlug: e.courseSlug }}>
												{t.format(m.cancelIn, { course: e.title })}
											</PostButton>
										)}
									</div>
								</td>
								<td>{statuses[e.status]}</td>
								<td>
									{e.total === null ? (
										'—'
									) : (
										<Link to={`/admin/courses/${e.courseSlug}/learners/${record.userId}`}>
											{e.passed ? t.m.adminCourses.dashboard.coursePassed : t.m.adminCourses.dashboard.courseNotPassed}
										</Link>
									)}
								</td>
								<td>
									{e.total === null
										? '—'
										: t.format(m.progressOf, {
												done: t.number(e.completedCount ?? 0),
												total: t.number(e.total),
												percent: t.percent(e.percent ?? 0),
											})}
								</td>
								<td>{t.date(e.enrolledAt)}</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
			<h2>{m.quizTitle}</h2>
			{record.attempts.length === 0 ? (
				<p className="empty">{m.noAttempts}</p>
			) : (
				<ScrollTable label={m.quizTitle}>
					<thead>
						<tr>
							<th scope="col">{m.course}</th>
							<th scope="col">{m.quiz}</th>
							<th scope="col">{m.score}</th>
							<th scope="col">{m.passed}</th>
							<th scope="col">{m.date}</th>
						</tr>
					</thead>
					<tbody>
						{record.attempts.map((a) => (
							<tr key={a.key}>
								<td lang={a.courseLang}>{a.course}</td>
								<td>
									{t.rich(m.attempt, {
										quiz: <span lang={a.lang}>{a.title}</span>,
										number: t.number(a.attempt),
									})}
								</td>
								<td>{t.percent(a.score)}</td>
								<td>{a.passed ? m.yes : m.no}</td>
								<td>{a.at ? t.date(a.at) : '—'}</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
		</>
	)
}
