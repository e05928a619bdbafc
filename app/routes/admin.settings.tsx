import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import { saveTenantTimeZone } from '#app/admin/tenant-settings.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { tenantTimeZone } from '#app/learning/due-dates.ts'
import { isTimeZone, supportedTimeZones } from '#app/learning/due-dates.ts'
import { zoneOptions } from '#app/learning/due-settings.tsx'
import { notFound } from '#app/platform/errors.ts'
import { readForm } from '#app/platform/forms.server.ts'
import { withNotice } from '#app/platform/notices.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { FormError, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { SelectField, useActionForm } from '#app/ui/form.tsx'
import type { Route } from './+types/admin.settings.ts'

// The tenant's own settings (decision 0064): its time zone. Single sign-on joins it (issue 48).
const schema = z.object({
	intent: z.literal('time-zone'),
	timeZone: z
		.string('accounts.dueSettings.unknownTimeZone')
		.max(64, 'accounts.dueSettings.unknownTimeZone')
		.refine(isTimeZone, 'accounts.dueSettings.unknownTimeZone'),
})

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** A tenant admin's (or a super admin's entered into the tenant) on the tenant's host; 404 on the apex. */
export function loader({ context }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	if (!scope.tenant) throw notFound()
	return { timeZone: tenantTimeZone(scope.tenant), zones: supportedTimeZones() }
}

export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	await saveTenantTimeZone(scope, tenant, submission.value.timeZone)
	return redirect(localePath(scope.ctx.locale, withNotice('/admin/settings', 'tenantSettingsSaved')))
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.adminSettings.settings.metaTitle }) }]
}

export default function Settings({ loaderData: d, actionData }: Route.ComponentProps) {
	const { m } = useI18n()
	const text = m.adminSettings.settings
	const [form, fields] = useActionForm(actionData?.result, { timeZone: d.timeZone })
	return (
		<section className="narrow">
			<h1>{text.title}</h1>
			<RedirectNotice accept={['tenantSettingsSaved']} />
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<input type="hidden" name="intent" value="time-zone" />
				<SelectField label={text.timeZoneLabel} meta={fields.timeZone} options={zoneOptions(d)} />
				<p className="hint">{text.timeZoneHint}</p>
				<Submit>{text.save}</Submit>
			</Form>
			<p className="actions">
				<Link prefetch="intent" to="/admin/settings/api">
					{m.adminSettings.apiKeys.title}
				</Link>
				<Link prefetch="intent" to="/admin/settings/scim">
					{m.adminSettings.scim.title}
				</Link>
				<Link prefetch="intent" to="/admin/settings/webhooks">
					{text.webhooksLink}
				</Link>
				<Link prefetch="intent" to="/admin/settings/sign-in">
					{m.adminSettings.signIn.link}
				</Link>
			</p>
		</section>
	)
}
