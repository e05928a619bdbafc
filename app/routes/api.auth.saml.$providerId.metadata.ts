import { getRequestContext } from '#app/context.ts'
import { samlMetadata } from '#app/accounts/sso/flow.server.ts'
import type { Route } from './+types/api.auth.saml.$providerId.metadata.ts'

/** A tenant's SAML provider's service-provider metadata (decision 0077): what the IdP is given. */
export function loader({ context, params }: Route.LoaderArgs) {
	return samlMetadata(getRequestContext(context), params.providerId)
}
