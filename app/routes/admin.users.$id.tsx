import { askToConfirm, confirmed, readForm, replyWithHidden, type Confirmation } from '#app/platform/forms.server.ts'
import { data, Form, redirect, Link } from 'react-router'
import { z } from 'zod'
import { ConfirmStep, FormError, RedirectNotice, Submit, PostButton } from '#app/ui/feedback.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { adminAction, type AdminScope, requireAdmin } from '#app/admin/admin.server.ts'
import {
	cancelEnrollment,
	courseSlugField,
	enrollRefusal,
	enrollRows,
	learningRecord,
} from '#app/admin/admin-enrollments.server.ts'
import { readContent } from '#app/content/cms.server.ts'
import {
	assignedCourseSlugs,
	changeRole,
	deactivateUser,
	isErasedEmail,
	RANK,
	reactivateUser,
	requireTarget,
	sendAccountMail,
	signOutEverywhere,
	targetCourses,
} from '#app/admin/users.server.ts'
import { UserLearning } from '#app/admin/user-learning.tsx'
import { findEnrollment } from '#app/learning/enrollments.server.ts'
import { INVITABLE_ROLES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.users.$id.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { notFound } from '#app/platform/errors.ts'
import { SelectField, useActionForm } from '#app/ui/form.tsx'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ context, params }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	const u = await requireTarget(scope, params.id)
	const self = u.id === scope.session.user.id
	// An erased person (decision 0044) keeps a row for the records others need, and nothing to act on.
	const erased = isErasedEmail(u.email)
	// Only the role form offers them (not shown for oneself or a platform account).
	const courses = self || erased || u.role === 'super_admin' ? [] : await targetCourses(scope, u)
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
			erased,
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
	'personArchiveLimited',
] as const satisfies NoticeName[]

type Input = z.infer<typeof schema>
type Target = Awaited<ReturnType<typeof requireTarget>>

/**
 * The course a change of role names, checked before anything is asked (a confirmation would only
 * post it again to be refused): the field error, or null.
 */
async function roleCourseProblem(scope: AdminScope, target: Target, input: Input, courseSlug: string | null) {
	// Becoming a course admin means nothing without a course; one already may keep their courses (the form unchanged).
	if (
		input.intent === 'change-role' &&
		input.role === 'course_admin' &&
		!courseSlug &&
		target.role !== 'course_admin' &&
		target.role !== 'super_admin'
	)
		return 'admin.user.errors.courseRequired'
	if (
		courseSlug &&
		target.role !== 'super_admin' &&
		!(await targetCourses(scope, target)).some((c) => c.value === courseSlug)
	)
		return 'admin.user.errors.unknownCourse'
	return null
}

/** Cancels one of the target's enrollments (asked first) or enrolls them again. */
async function changeEnrollment<R, D>(
	scope: AdminScope,
	target: Target,
	input: Extract<Input, { intent: 'cancel-enrollment' | 'reenroll' }>,
	refuse: (message: string) => R,
	done: (notice: NoticeName) => D,
) {
	// Enrollments belong to a tenant's courses: none on the apex, none for platform accounts.
	const { ctx, tenant } = scope
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
	const [row] = await enrollRows(scope, tenant, course, [{ email: target.email, name: '', language: '' }])
	if (row.outcome === 'deactivated') return refuse('admin.user.enrollments.deactivated')
	// A paid course whose seats are all taken (decision 0065).
	if (row.outcome === 'full') return refuse('adminCourses.enroll.outcomes.full')
	return done('enrollmentReactivated')
}

export const action = adminAction({ scope: 'platform' }, async ({ scope }, { request, params }: Route.ActionArgs) => {
	const target = await requireTarget(scope, params.id)
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
	const { ctx } = scope
	const refuse = (message: string) => data({ result: submission.reply({ formErrors: [message] }) }, { status: 400 })
	const done = (notice: NoticeName) => redirect(localePath(ctx.locale, withNotice(`/admin/users/${target.id}`, notice)))

	const input = submission.value
	// Nothing more is done to an erased person: reactivated, they would be an account of nobody (issue 52).
	if (isErasedEmail(target.email))
		return data({ result: submission.reply({ formErrors: ['admin.user.errors.erased'] }) }, { status: 409 })
	// Admins cannot lock themselves out: role changes and deactivation of one's own account are refused.
	if (target.id === scope.session.user.id && (input.intent === 'change-role' || input.intent === 'deactivate'))
		return refuse('admin.user.errors.self')
	// The course is checked before anything is asked: a confirmation would only post it again to be refused.
	const courseSlug = input.intent === 'change-role' && input.role === 'course_admin' ? input.course_slug || null : null
	const courseProblem = await roleCourseProblem(scope, target, input, courseSlug)
	if (courseProblem)
		return data({ result: submission.reply({ fieldErrors: { course_slug: [courseProblem] } }) }, { status: 400 })
	const confirmation = target.role === 'super_admin' ? null : confirmationOf(target, input)
	if (confirmation) return askToConfirm(confirmation)

	switch (input.intent) {
		case 'change-role': {
			if (target.role === 'super_admin') return refuse('admin.user.errors.platformRole')
			const { role } = input
			if (role === target.role && !courseSlug) return done('roleChanged')
			await changeRole(scope, target, role, courseSlug)
			return done('roleChanged')
		}
		case 'deactivate':
			await deactivateUser(scope, target)
			return done('userDeactivated')
		case 'reactivate':
			await reactivateUser(scope, target)
			return done('userReactivated')
		case 'force-sign-out':
			await signOutEverywhere(scope, target)
			return done('userSignedOut')
		case 'resend-verification':
		case 'send-reset': {
			if (input.intent === 'resend-verification' && target.email_verified_at)
				return refuse('admin.user.errors.alreadyVerified')
			await sendAccountMail(scope, target, input.intent === 'resend-verification' ? 'verification' : 'passwordReset')
			return done(input.intent === 'resend-verification' ? 'verificationSent' : 'resetSent')
		}
		case 'cancel-enrollment':
		case 'reenroll': {
			return changeEnrollment(scope, target, input, refuse, done)
		}
	}
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: loaderData?.user.name || t.m.admin.user.metaTitle }) }]
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
			<h1>{u.name || m.erasure.erasedName}</h1>
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
					{u.erased
						? t.m.admin.userStatuses.erased
						: u.deactivated
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

			{u.erased ? <p>{m.errors.erased}</p> : null}
			{!d.self && !u.erased && u.role !== 'super_admin' ? (
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

			{u.erased ? null : (
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
					{/* A copy of their data (decision 0063): a plain form, so that with JavaScript too the browser takes the zip. */}
					{d.learning && u.role !== 'super_admin' ? (
						<form method="post" action={`/admin/users/${u.id}/data`}>
							<button type="submit" className="button button-secondary" aria-describedby="download-data-hint">
								{m.downloadData}
							</button>
							<span id="download-data-hint" className="hint">
								{' '}
								{m.downloadDataHint}
							</span>
						</form>
					) : null}
				</div>
			)}
			{d.learning ? <UserLearning record={d.learning} /> : null}
		</section>
	)
}
