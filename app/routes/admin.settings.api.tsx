import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { z } from 'zod'
import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import { readCatalogue } from '#app/content/cms.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import {
	apiKeysOf,
	createKeyAnswer,
	keyFormSchemas,
	keyListView,
	revokeKeyAnswer,
} from '#app/integrations/api-keys.server.ts'
import { CreatedKey, CreateKeyForm, createdOf, KeyTable } from '#app/integrations/api-keys-ui.tsx'
import { notFound } from '#app/platform/errors.ts'
import { readForm } from '#app/platform/forms.server.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ConfirmStep, RedirectNotice } from '#app/ui/feedback.tsx'
import type { Route } from './+types/admin.settings.api.ts'

// The tenant's API keys (issue 49, decision 0071): create (the secret shown once), list with last use, revoke.
const schema = z.discriminatedUnion('intent', [
	keyFormSchemas.create.extend({
		course: z
			.string()
			.regex(/^[a-z0-9-]{1,100}$/, 'adminSettings.apiKeys.unknownCourse')
			.optional(),
	}),
	keyFormSchemas.revoke,
])

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ context }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	const tenant = scope.tenant
	if (!tenant) throw notFound()
	const [keys, courses] = await Promise.all([apiKeysOf(scope.ctx.db, tenant.id), readCatalogue(scope.ctx)])
	return {
		courses: courses.map((c) => ({ value: c.slug, label: c.title })),
		keys: keys.map(keyListView),
	}
}

export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const input = submission.value
	if (input.intent === 'create') {
		const courses = await readCatalogue(scope.ctx)
		if (input.course && !courses.some((c) => c.slug === input.course))
			return data(
				{ result: submission.reply({ fieldErrors: { course: ['adminSettings.apiKeys.unknownCourse'] } }) },
				{ status: 400 },
			)
		const key = { name: input.name, scope: input.scope, courseSlug: input.course ?? null }
		return createKeyAnswer(scope, tenant, key, submission.reply({ resetForm: true }))
	}
	return revokeKeyAnswer(scope, tenant, input, '/admin/settings/api')
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.adminSettings.apiKeys.metaTitle }) }]
}

export default function ApiKeys({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.adminSettings.apiKeys
	return (
		<section>
			<p className="actions">
				<Link prefetch="intent" to="/admin/settings">
					{text.settings}
				</Link>
				<Link prefetch="intent" to="/admin/api-docs">
					{text.docs}
				</Link>
			</p>
			<h1>{text.title}</h1>
			<p className="hint">{text.intro}</p>
			<RedirectNotice accept={['apiKeyRevoked']} />
			<CreatedKey created={createdOf(actionData)} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			<KeyTable keys={d.keys} label={text.title} />
			<CreateKeyForm
				courses={d.courses}
				result={actionData && 'result' in actionData ? actionData.result : undefined}
			/>
		</section>
	)
}
