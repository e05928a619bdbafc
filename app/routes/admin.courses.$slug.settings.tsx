import { readForm } from '#app/platform/forms.server.ts'
import { Form, redirect, data } from 'react-router'
import { FormError, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { adminAction, courseAdminPage } from '#app/admin/admin.server.ts'
import { adminAudit } from '#app/platform/audit.server.ts'
import { courseFlags } from '#app/learning/learning.server.ts'
import { saveCourseFlags } from '#app/admin/course-settings.server.ts'
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
const schema = z
	.object({ sequential: z.unknown().optional() })
	.transform((form) => ({ sequential: form.sequential === 'on' }))

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Per-course flags; needs a tenant host (a super_admin on the apex sees a hint instead of 404). */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return page
	return { ...page, flags: courseFlags(tenant, course.slug) }
}

export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		const flags = submission.value
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
	if (d.hint) return <TenantHint title={m.settings.hintTitle} what={m.settings.hintWhat} />
	return (
		<section className="narrow">
			<CourseAdminHeading course={d.course} title={m.settings.title} />
			<RedirectNotice accept={['courseSettingsSaved']} />
			<FormError result={actionData?.result} />
			<Form method="post" className="stack">
				<label className="choice">
					<input type="checkbox" name="sequential" defaultChecked={d.flags.sequential} /> {m.settings.sequential}
				</label>
				<Submit>{m.settings.save}</Submit>
			</Form>
		</section>
	)
}
