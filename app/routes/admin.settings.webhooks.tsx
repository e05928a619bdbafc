import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import {
	addEndpoint,
	endpointUrlRefusal,
	replay,
	rotateSecret,
	switchEndpoint,
	webhookOverview,
} from '#app/integrations/webhooks.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { readForm } from '#app/platform/forms.server.ts'
import { withNotice } from '#app/platform/notices.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { FormError, PostButton, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { Field, useActionForm } from '#app/ui/form.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { WEBHOOK_EVENT_TYPES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.settings.webhooks.ts'

// A tenant's outgoing webhooks (decision 0072): add an endpoint (its secret shown once), rotate its
// secret with an overlap, disable or enable it, see its last deliveries and replay one.
const id = z.string().max(100)
const schema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('add'),
		url: z.string('adminSettings.webhooks.errors.url').trim().max(2000, 'adminSettings.webhooks.errors.url'),
		events: z
			.array(z.enum(WEBHOOK_EVENT_TYPES), 'adminSettings.webhooks.errors.events')
			.min(1, 'adminSettings.webhooks.errors.events'),
	}),
	z.object({ intent: z.enum(['rotate', 'disable', 'enable']), endpointId: id }),
	z.object({ intent: z.literal('replay'), endpointId: id, eventId: id }),
])

export const handle = { scripts: true } satisfies ScriptsHandle

/** A tenant admin's (or a super admin's entered into the tenant) on the tenant's host; 404 on the apex. */
export async function loader({ context }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	if (!scope.tenant) throw notFound()
	return { endpoints: await webhookOverview(scope.ctx, scope.tenant), events: [...WEBHOOK_EVENT_TYPES] }
}

export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), {
		schema: schema.superRefine((value, ctx) => {
			if (value.intent === 'add' && endpointUrlRefusal(scope.ctx, value.url))
				ctx.addIssue({ code: 'custom', path: ['url'], message: 'adminSettings.webhooks.errors.url' })
		}),
	})
	if (submission.status !== 'success') return data({ result: submission.reply(), secret: null }, { status: 400 })
	const value = submission.value
	const back = (notice: 'webhookUpdated' | 'webhookReplayed') =>
		redirect(localePath(scope.ctx.locale, withNotice('/admin/settings/webhooks', notice)))
	if (value.intent === 'add') {
		const { secret } = await addEndpoint(scope, tenant, { url: value.url, events: value.events })
		return data({ result: submission.reply({ resetForm: true }), secret })
	}
	if (value.intent === 'rotate') {
		const secret = await rotateSecret(scope, tenant, value.endpointId)
		if (!secret) throw notFound()
		return data({ result: submission.reply({ resetForm: true }), secret })
	}
	if (value.intent === 'replay') {
		if (!(await replay(scope, tenant, value.endpointId, value.eventId))) throw notFound()
		return back('webhookReplayed')
	}
	if (!(await switchEndpoint(scope, tenant, value.endpointId, value.intent === 'enable'))) throw notFound()
	return back('webhookUpdated')
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.adminSettings.webhooks.metaTitle }) }]
}

export default function Webhooks({ loaderData: d, actionData }: Route.ComponentProps) {
	const { m } = useI18n()
	const text = m.adminSettings.webhooks
	const [form, fields] = useActionForm(actionData?.result)
	const secret = actionData && 'secret' in actionData ? actionData.secret : null
	return (
		<section>
			<h1>{text.title}</h1>
			<p>{text.intro}</p>
			<RedirectNotice accept={['webhookUpdated', 'webhookReplayed']} />
			{secret ? (
				<div className="notice notice-ok" role="status">
					<p>
						<strong>{text.secretTitle}</strong> {text.secretOnce}
					</p>
					<p>
						<code className="webhook-secret">{secret}</code>
					</p>
				</div>
			) : null}
			<h2>{text.endpointsTitle}</h2>
			{d.endpoints.length === 0 ? <p>{text.none}</p> : d.endpoints.map((e) => <Endpoint key={e.id} endpoint={e} />)}
			<h2>{text.addTitle}</h2>
			<Form method="post" className="stack narrow" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<input type="hidden" name="intent" value="add" />
				<Field label={text.urlLabel} meta={fields.url} hint={text.urlHint} />
				<fieldset aria-describedby={fields.events.errors?.length ? fields.events.errorId : undefined}>
					<legend>{text.eventsLabel}</legend>
					{d.events.map((type) => (
						<label key={type} className="checkbox">
							<input type="checkbox" name="events" value={type} /> <code>{type}</code>
						</label>
					))}
					{fields.events.errors?.length ? (
						<p id={fields.events.errorId} className="field-error">
							{text.errors.events}
						</p>
					) : null}
				</fieldset>
				<Submit>{text.add}</Submit>
			</Form>
		</section>
	)
}

type EndpointView = Route.ComponentProps['loaderData']['endpoints'][number]

function Endpoint({ endpoint: e }: { endpoint: EndpointView }) {
	const t = useI18n()
	const text = t.m.adminSettings.webhooks
	const status = !e.disabledAt
		? text.statusEnabled
		: e.disabledReason === 'failing'
			? text.statusFailing
			: text.statusDisabled
	return (
		<article className="stack webhook-endpoint" data-endpoint={e.id}>
			<h3>
				<code>{e.url}</code> · <span className="webhook-status">{status}</span>
			</h3>
			<p>
				{e.events.map((type) => (
					<code key={type}>{type} </code>
				))}
			</p>
			{e.failingSince ? <p>{t.format(text.failingSince, { time: t.date(e.failingSince) })}</p> : null}
			{e.rotatingUntil ? <p>{t.format(text.rotatingUntil, { time: t.date(e.rotatingUntil) })}</p> : null}
			<div className="actions">
				<PostButton fields={{ intent: 'rotate', endpointId: e.id }} secondary>
					{text.rotate}
				</PostButton>
				<PostButton fields={{ intent: e.disabledAt ? 'enable' : 'disable', endpointId: e.id }} secondary>
					{e.disabledAt ? text.enable : text.disable}
				</PostButton>
			</div>
			<h4>{text.deliveriesTitle}</h4>
			{e.deliveries.length === 0 ? (
				<p>{text.noDeliveries}</p>
			) : (
				<ScrollTable label={text.deliveriesTitle}>
					<thead>
						<tr>
							<th scope="col">{text.time}</th>
							<th scope="col">{text.event}</th>
							<th scope="col">{text.attempt}</th>
							<th scope="col">{text.result}</th>
							<th scope="col">{text.duration}</th>
							<th scope="col">
								<span className="visually-hidden">{text.replay}</span>
							</th>
						</tr>
					</thead>
					<tbody>
						{e.deliveries.map((r) => (
							<tr key={r.id}>
								<td>{t.date(r.at)}</td>
								<td>
									<code>{r.type}</code> <code>{r.eventId}</code>
								</td>
								<td>{r.attempt}</td>
								<td>{r.statusCode ?? r.error}</td>
								<td>{r.durationMs === null ? '' : t.format(text.durationMs, { ms: r.durationMs })}</td>
								<td>
									{e.disabledAt ? null : (
										<PostButton fields={{ intent: 'replay', endpointId: e.id, eventId: r.eventId }} link>
											{text.replay}
										</PostButton>
									)}
								</td>
							</tr>
						))}
					</tbody>
				</ScrollTable>
			)}
		</article>
	)
}
