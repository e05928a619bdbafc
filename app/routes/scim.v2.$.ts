import { getRequestContext } from '#app/context.ts'
import { handleScim } from '#app/admin/scim/handler.server.ts'
import type { Route } from './+types/scim.v2.$.ts'

// SCIM 2.0 provisioning (RFC 7643/7644, decision 0070): a school's identity provider creates,
// updates and deactivates its people and groups here with a token of its tenant.

export function loader({ request, context, params }: Route.LoaderArgs) {
	return handleScim(getRequestContext(context), request, params['*'] ?? '')
}

export function action({ request, context, params }: Route.ActionArgs) {
	return handleScim(getRequestContext(context), request, params['*'] ?? '')
}
