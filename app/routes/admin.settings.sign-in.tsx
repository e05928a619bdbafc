import { getFormProps, getInputProps, type FieldMetadata } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import {
	removeProvider,
	saveProvider,
	saveSamlProvider,
	setProviderEnabled,
	ssoConfigured,
	tenantProviders,
	type ProviderForm,
} from '#app/accounts/sso/providers.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath, type Locale } from '#app/i18n/locales.ts'
import { notFound } from '#app/platform/errors.ts'
import { readForm } from '#app/platform/forms.server.ts'
import { withNotice } from '#app/platform/notices.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { FormError, Notice, PostButton, RedirectNotice, Submit } from '#app/ui/feedback.tsx'
import { Field, TextAreaField, useActionForm } from '#app/ui/form.tsx'
import type { Route } from './+types/admin.settings.sign-in.ts'

// A tenant's identity providers (issue 48, decision 0069). Messages are catalogue keys.
const E = 'adminSettings.signIn.errors.'
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/
const TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/

/** Lines or commas into trimmed, distinct, non-empty values. */
const listOf = (max: number, each: (v: string) => boolean, message: string, lower = false) =>
	z
		.string()
		.max(10_000, message)
		.optional()
		.transform((raw) => [
			...new Set(
				(raw ?? '')
					.split(/[\n,]/)
					.map((v) => (lower ? v.trim().toLowerCase() : v.trim()))
					.filter(Boolean),
			),
		])
		.refine((vs) => vs.length <= max && vs.every(each), message)

const save = z.object({
	intent: z.literal('save'),
	providerId: z
		.string()
		.regex(/^[\w-]{1,64}$/)
		.optional(),
	label: z.string(`${E}label`).trim().min(1, `${E}label`).max(80, `${E}label`),
	issuer: z
		.string(`${E}issuer`)
		.trim()
		.max(500, `${E}issuer`)
		.pipe(z.url(`${E}issuer`))
		.transform((u) => u.replace(/\/+$/, '')),
	clientId: z.string(`${E}clientId`).trim().min(1, `${E}clientId`).max(300, `${E}clientId`),
	clientSecret: z.string().max(1000, `${E}secretRequired`).optional(),
	scopes: z
		.string()
		.trim()
		.max(500, `${E}scopes`)
		.optional()
		.transform((s) => (s || 'openid email profile').split(/\s+/))
		.refine((s) => s.includes('openid') && s.length <= 20 && s.every((x) => TOKEN.test(x)), `${E}scopes`)
		.transform((s) => [...new Set(s)].join(' ')),
	domains: listOf(50, (d) => DOMAIN.test(d), `${E}domains`, true),
	requireSso: z.literal('on').optional(),
	roleClaim: z
		.string()
		.trim()
		.max(100, `${E}roleClaim`)
		.regex(/^[\w:./-]*$/, `${E}roleClaim`)
		.optional(),
	courseAdminValues: listOf(50, (v) => v.length <= 200, `${E}roleValues`),
	tenantAdminValues: listOf(50, (v) => v.length <= 200, `${E}roleValues`),
})
// A SAML provider (decision 0077): the IdP's metadata instead of an issuer and a client.
const saveSaml = z.object({
	intent: z.literal('saveSaml'),
	providerId: save.shape.providerId,
	label: save.shape.label,
	metadataXml: z.string().max(200_000, `${E}metadataXml`).optional(),
	domains: save.shape.domains,
	requireSso: save.shape.requireSso,
	roleClaim: save.shape.roleClaim,
	courseAdminValues: save.shape.courseAdminValues,
	tenantAdminValues: save.shape.tenantAdminValues,
})
const act = z.object({ intent: z.enum(['enable', 'disable', 'delete']), providerId: z.string().regex(/^[\w-]{1,64}$/) })
const schema = z.discriminatedUnion('intent', [save, saveSaml, act])

/** The metadata file, when one was chosen and nothing pasted, read into the pasted field. */
async function withUploadedMetadata(form: FormData) {
	const file = form.get('metadataFile')
	form.delete('metadataFile')
	const pasted = form.get('metadataXml')
	if (file instanceof File && file.size > 0 && file.size <= 200_000 && !(typeof pasted === 'string' && pasted.trim()))
		form.set('metadataXml', await file.text())
	return form
}

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** A tenant admin's (or a super admin's entered into the tenant) on the tenant's host; 404 on the apex. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	if (!scope.tenant) throw notFound()
	const providers = await tenantProviders(scope.ctx, scope.tenant)
	const query = new URL(request.url).searchParams
	const editing = providers.find((p) => p.id === query.get('edit')) ?? null
	const kind = editing ? editing.kind : query.get('add') === 'saml' ? 'saml' : 'oidc'
	return { configured: ssoConfigured(scope.ctx), providers, editing, kind }
}

const here = (locale: Locale, notice: 'ssoProviderSaved' | 'ssoProviderRemoved') =>
	localePath(locale, withNotice('/admin/settings/sign-in', notice))

export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const form = await withUploadedMetadata(await readForm(request))
	const submission = parseWithZod(form, { schema })
	// Which form answers: the SAML one keeps the page on it, with or without JavaScript.
	const kind = submission.payload.intent === 'saveSaml' ? ('saml' as const) : ('oidc' as const)
	if (submission.status !== 'success')
		return data({ kind, result: submission.reply({ hideFields: ['clientSecret'] }) }, { status: 400 })
	const value = submission.value
	if (value.intent !== 'save' && value.intent !== 'saveSaml') {
		const done =
			value.intent === 'delete'
				? await removeProvider(scope, tenant, value.providerId)
				: await setProviderEnabled(scope, tenant, value.providerId, value.intent === 'enable')
		if (!done) throw notFound()
		return redirect(here(scope.ctx.locale, value.intent === 'delete' ? 'ssoProviderRemoved' : 'ssoProviderSaved'))
	}
	const outcome =
		value.intent === 'saveSaml'
			? await saveSamlProvider(scope, tenant, value.providerId || null, {
					...value,
					requireSso: value.requireSso === 'on',
				})
			: await saveProvider(scope, tenant, value.providerId || null, {
					...value,
					requireSso: value.requireSso === 'on',
				} satisfies ProviderForm)
	if (outcome.ok) return redirect(here(scope.ctx.locale, 'ssoProviderSaved'))
	if ('missing' in outcome) throw notFound()
	const reply = outcome.field
		? submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] }, hideFields: ['clientSecret'] })
		: submission.reply({ formErrors: [outcome.message], hideFields: ['clientSecret'] })
	return data({ kind, result: reply }, { status: 400 })
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.adminSettings.signIn.title }) }]
}

type Provider = Route.ComponentProps['loaderData']['providers'][number]

function Checkbox({ label, meta }: { label: string; meta: FieldMetadata<string> }) {
	return (
		<div className="field">
			<label>
				<input {...getInputProps(meta, { type: 'checkbox' })} key={meta.key} /> {label}
			</label>
		</div>
	)
}

function ProviderRow({ p }: { p: Provider }) {
	const t = useI18n()
	const text = t.m.adminSettings.signIn
	return (
		<li className="stack">
			<h3>
				{p.label} <span className="hint">({p.enabled ? text.enabled : text.disabled})</span>
			</h3>
			<dl className="provider-facts">
				{p.saml ? (
					<>
						<dt>{text.idpEntityId}</dt>
						<dd>{p.issuer}</dd>
						<dt>{text.spEntityId}</dt>
						<dd>
							<code>{p.saml.entityId}</code>
						</dd>
						<dt>{text.acsUrl}</dt>
						<dd>
							<code>{p.saml.acsUrl}</code>
						</dd>
						<dt>{text.spMetadata}</dt>
						<dd>
							<a href={p.saml.metadataUrl}>{p.saml.metadataUrl}</a>
						</dd>
					</>
				) : (
					<>
						<dt>{text.issuer}</dt>
						<dd>{p.issuer}</dd>
						<dt>{text.redirectUri}</dt>
						<dd>
							<code>{p.redirectUri}</code>
						</dd>
					</>
				)}
				<dt>{text.domains}</dt>
				<dd>{p.domains.join(', ') || '—'}</dd>
				<dt>{text.requireSso}</dt>
				<dd>{p.requireSso ? text.yes : text.no}</dd>
			</dl>
			<div className="actions">
				<a href={t.href(`/admin/settings/sign-in?edit=${p.id}`)}>{text.edit}</a>
				<PostButton fields={{ intent: p.enabled ? 'disable' : 'enable', providerId: p.id }} secondary>
					{p.enabled ? text.disable : text.enable}
				</PostButton>
				<PostButton fields={{ intent: 'delete', providerId: p.id }} secondary>
					{text.remove}
				</PostButton>
			</div>
		</li>
	)
}

function formDefaults(p: Provider | null): Record<string, string> {
	if (!p) return { scopes: 'openid email profile' }
	if (p.saml) return samlDefaults(p)
	return {
		label: p.label,
		issuer: p.issuer,
		clientId: p.clientId,
		scopes: p.scopes,
		domains: p.domains.join('\n'),
		requireSso: p.requireSso ? 'on' : '',
		roleClaim: p.roleClaim,
		courseAdminValues: p.courseAdminValues.join('\n'),
		tenantAdminValues: p.tenantAdminValues.join('\n'),
	}
}

function samlDefaults(p: Provider | null): Record<string, string> {
	if (!p) return {}
	return {
		label: p.label,
		domains: p.domains.join('\n'),
		requireSso: p.requireSso ? 'on' : '',
		roleClaim: p.roleClaim,
		courseAdminValues: p.courseAdminValues.join('\n'),
		tenantAdminValues: p.tenantAdminValues.join('\n'),
	}
}

/**
 * A SAML provider's form (decision 0077): the IdP's metadata pasted or uploaded (a multipart post,
 * no JavaScript needed), its domains (required: the only addresses it is trusted for), the role
 * attribute. Editing keeps the stored metadata when nothing new is given.
 */
function SamlForm({ editing, result }: { editing: Provider | null; result: ActionResult }) {
	const t = useI18n()
	const text = t.m.adminSettings.signIn
	const [form, fields] = useActionForm(result, samlDefaults(editing))
	return (
		<Form method="post" encType="multipart/form-data" className="stack" {...getFormProps(form)}>
			<FormError errors={form.errors} id={form.errorId} />
			<input type="hidden" name="intent" value="saveSaml" />
			{editing ? <input type="hidden" name="providerId" value={editing.id} /> : null}
			<Field label={text.label} meta={fields.label} hint={text.labelHint} />
			<TextAreaField
				label={text.metadataXml}
				meta={fields.metadataXml}
				hint={editing ? text.metadataXmlKeep : text.metadataXmlHint}
				rows={6}
				spellCheck={false}
			/>
			<div className="field">
				<label htmlFor="saml-metadata-file">{text.metadataFile}</label>
				<input id="saml-metadata-file" type="file" name="metadataFile" accept=".xml,application/xml,text/xml" />
			</div>
			<TextAreaField label={text.domains} meta={fields.domains} hint={text.samlDomainsHint} rows={3} />
			<Checkbox label={text.requireSsoLabel} meta={fields.requireSso} />
			<Field label={text.roleAttribute} meta={fields.roleClaim} hint={text.roleAttributeHint} />
			<TextAreaField label={text.courseAdminValues} meta={fields.courseAdminValues} rows={2} />
			<TextAreaField label={text.tenantAdminValues} meta={fields.tenantAdminValues} rows={2} />
			<div className="actions">
				<Submit>{text.save}</Submit>
				{editing ? <a href={t.href('/admin/settings/sign-in')}>{text.cancel}</a> : null}
			</div>
		</Form>
	)
}

type ActionResult = NonNullable<Route.ComponentProps['actionData']>['result'] | undefined

export default function SignInSettings({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.adminSettings.signIn
	const answered = actionData && 'kind' in actionData ? actionData : null
	const kind = answered?.kind ?? d.kind
	const [form, fields] = useActionForm(kind === 'oidc' ? answered?.result : undefined, formDefaults(d.editing))
	return (
		<section className="narrow">
			<h1>{text.title}</h1>
			<RedirectNotice accept={['ssoProviderSaved', 'ssoProviderRemoved']} />
			<p>{text.intro}</p>
			<p className="hint">{text.breakGlass}</p>
			{!d.configured ? <Notice tone="error">{t.text(`${E}noKey`)}</Notice> : null}
			{d.providers.length ? (
				<ul className="stack cards" aria-label={text.listLabel}>
					{d.providers.map((p) => (
						<ProviderRow key={p.id} p={p} />
					))}
				</ul>
			) : (
				<p>{text.none}</p>
			)}
			<h2>
				{d.editing
					? t.format(text.editHeading, { label: d.editing.label })
					: kind === 'saml'
						? text.addSamlHeading
						: text.addHeading}
			</h2>
			{d.editing ? null : (
				<p>
					<a href={t.href(kind === 'saml' ? '/admin/settings/sign-in' : '/admin/settings/sign-in?add=saml')}>
						{kind === 'saml' ? text.addOidcInstead : text.addSamlInstead}
					</a>
				</p>
			)}
			{kind === 'saml' ? (
				<SamlForm editing={d.editing} result={answered?.kind === 'saml' ? answered.result : undefined} />
			) : (
				<Form method="post" className="stack" {...getFormProps(form)}>
					<FormError errors={form.errors} id={form.errorId} />
					<input type="hidden" name="intent" value="save" />
					{d.editing ? <input type="hidden" name="providerId" value={d.editing.id} /> : null}
					<Field label={text.label} meta={fields.label} hint={text.labelHint} />
					<Field label={text.issuer} meta={fields.issuer} hint={text.issuerHint} />
					<Field label={text.clientId} meta={fields.clientId} />
					<Field
						label={text.clientSecret}
						meta={fields.clientSecret}
						type="password"
						autoComplete="off"
						hint={d.editing ? text.clientSecretKeep : text.clientSecretHint}
					/>
					<Field label={text.scopes} meta={fields.scopes} />
					<TextAreaField label={text.domains} meta={fields.domains} hint={text.domainsHint} rows={3} />
					<Checkbox label={text.requireSsoLabel} meta={fields.requireSso} />
					<Field label={text.roleClaim} meta={fields.roleClaim} hint={text.roleClaimHint} />
					<TextAreaField label={text.courseAdminValues} meta={fields.courseAdminValues} rows={2} />
					<TextAreaField label={text.tenantAdminValues} meta={fields.tenantAdminValues} rows={2} />
					<div className="actions">
						<Submit>{text.save}</Submit>
						{d.editing ? <a href={t.href('/admin/settings/sign-in')}>{text.cancel}</a> : null}
					</div>
				</Form>
			)}
		</section>
	)
}
