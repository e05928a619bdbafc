import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { z } from 'zod'
import { adminAction, requireSuperAdmin } from '#app/admin/admin.server.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import {
	apiKeysOf,
	createKeyAnswer,
	keyFormSchemas,
	keyListView,
	revokeKeyAnswer,
} from '#app/integrations/api-keys.server.ts'
import { CreatedKey, CreateKeyForm, createdOf, KeyTable } from '#app/integrations/api-keys-ui.tsx'
import { readForm } from '#app/platform/forms.server.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { ConfirmStep, RedirectNotice } from '#app/ui/feedback.tsx'
import type { Route } from './+types/admin.tenants.api.ts'

// The platform's API keys (issue 49, decision 0087): a super admin's keys for /api/v1/tenants, made
// and revoked as a site's keys are (/admin/settings/api), with no course to limit them to.
const schema = z.discriminatedUnion('intent', [keyFormSchemas.create, keyFormSchemas.revoke])

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

export async function loader({ context }: Route.LoaderArgs) {
	const scope = requireSuperAdmin(context)
	return { keys: (await apiKeysOf(scope.ctx.db, null)).map(keyListView) }
}

export const action = adminAction(
	{ scope: 'platform', guard: requireSuperAdmin },
	async ({ scope }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		const input = submission.value
		if (input.intent === 'create') {
			const key = { name: input.name, scope: input.scope, courseSlug: null }
			return createKeyAnswer(scope, null, key, submission.reply({ resetForm: true }))
		}
		return revokeKeyAnswer(scope, null, input, '/admin/tenants/api')
	},
)

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.adminSettings.apiKeys.platform.title }) }]
}

export default function PlatformApiKeys({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.adminSettings.apiKeys
	return (
		<section>
			<p className="actions">
				<Link prefetch="intent" to="/admin/tenants">
					{text.platform.tenants}
				</Link>
				<Link prefetch="intent" to="/admin/api-docs">
					{text.docs}
				</Link>
			</p>
			<h1>{text.platform.title}</h1>
			<p className="hint">{text.platform.intro}</p>
			<RedirectNotice accept={['apiKeyRevoked']} />
			<CreatedKey created={createdOf(actionData)} />
			<ConfirmStep confirm={actionData && 'confirm' in actionData ? actionData.confirm : null} />
			<KeyTable keys={d.keys} label={text.platform.title} />
			<CreateKeyForm result={actionData && 'result' in actionData ? actionData.result : undefined} />
		</section>
	)
}
