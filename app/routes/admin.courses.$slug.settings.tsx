import { readForm } from '#app/platform/forms.server.ts'
import { Form, redirect, data } from 'react-router'
import { getFormProps } from '@conform-to/react'
import { FormError, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { SeatsUsed } from '#app/admin/seats.tsx'
import { isPaid } from '#app/content/content.ts'
import { adminAction, courseAdminPage } from '#app/admin/admin.server.ts'
import { adminAudit } from '#app/platform/audit.server.ts'
import { courseFlags } from '#app/learning/learning.server.ts'
import { courseSeats, MAX_SEATS, saveCourseFlags } from '#app/admin/course-settings.server.ts'
import { TENANTS_TAG } from '#app/platform/tenant.server.ts'
import type { Route } from './+types/admin.courses.$slug.settings.ts'
import { CourseAdminHeading, TenantHint } from '#app/admin/headings.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { withNotice } from '#app/platform/notices.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'

// A checkbox: sent as `on` when checked, absent when not; any other value leaves the flag off.
// Seats (decision 0065): empty for no limit, else a whole number; only a paid course has them.
const schema = z
	.object({
		sequential: z.unknown().optional(),
		seats: z
			.string()
			.trim()
			.regex(/^\d{0,7}$/, 'adminCourses.settings.errors.seats')
			.refine((v) => v === '' || Number(v) <= MAX_SEATS, 'adminCourses.settings.errors.seats')
			.optional(),
	})
	.transform((form) => ({
		sequential: form.sequential === 'on',
		seats: form.seats === undefined ? undefined : form.seats === '' ? null : Number(form.seats),
	}))

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Per-course flags; needs a tenant host (a super_admin on the apex sees a hint instead of 404). */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return page
	return {
		...page,
		flags: courseFlags(tenant, course.slug),
		// A paid course's seats: the limit a tenant admin sets, and how many are in use (decision 0065).
		seats: await courseSeats(scope.ctx.db, tenant, course),
		mayLimitSeats: scope.session.user.role !== 'course_admin',
	}
}

export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request }: Route.ActionArgs) => {
		const form = await readForm(request)
		const submission = parseWithZod(form, { schema })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		const { sequential } = submission.value
		// Conform reads an emptied field as absent: posted empty is no limit; not posted leaves the limit as it is.
		const seats = form.has('seats') ? (submission.value.seats ?? null) : undefined
		// The seats are the organisation's purchase: a tenant admin's to set, and a paid course's only
		// (the pages without a seats field: the answer is the form's).
		if (seats !== undefined && scope.session.user.role === 'course_admin')
			return data(
				{ result: submission.reply({ formErrors: ['adminCourses.settings.errors.seatsNotYours'] }) },
				{ status: 403 },
			)
		if (seats !== undefined && seats !== null && !isPaid(course))
			return data(
				{ result: submission.reply({ formErrors: ['adminCourses.settings.errors.seatsNotPaid'] }) },
				{ status: 400 },
			)
		const flags: Record<string, boolean | number | null> = seats === undefined ? { sequential } : { sequential, seats }
		await saveCourseFlags(
			scope.ctx.db,
			tenant.id,
			course.slug,
			flags,
			adminAudit(scope, 'course.settings_changed', { kind: 'course', id: course.slug, tenantId: tenant.id }, flags),
		)
		scope.ctx.tags.revalidate([TENANTS_TAG])
		return redirect(
			localePath(scope.ctx.locale, withNotice(`/admin/courses/${course.slug}/settings`, 'courseSettingsSaved')),
		)
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => [
	{ title: metaI18n(matches).m.adminCourses.settings.metaTitle },
]

export default function CourseSettings({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.adminCourses
	const [form, fields] = useActionForm(
		actionData?.result,
		d.hint ? undefined : { seats: d.flags.seats === null ? '' : String(d.flags.seats) },
	)
	if (d.hint) return <TenantHint title={m.settings.hintTitle} what={m.settings.hintWhat} />
	return (
		<section className="narrow">
			<CourseAdminHeading course={d.course} title={m.settings.title} />
			<RedirectNotice accept={['courseSettingsSaved']} />
			{d.seats && !d.mayLimitSeats ? <SeatsUsed seats={d.seats} /> : null}
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<label className="choice">
					<input type="checkbox" name="sequential" defaultChecked={d.flags.sequential} /> {m.settings.sequential}
				</label>
				{d.seats && d.mayLimitSeats ? (
					<Field
						label={m.settings.seats}
						meta={fields.seats}
						inputMode="numeric"
						size={8}
						hint={`${m.settings.seatsHint} ${t.format(m.settings.seatsUsed, { used: t.number(d.seats.used) })}`}
					/>
				) : null}
				<Submit>{m.settings.save}</Submit>
			</Form>
		</section>
	)
}
