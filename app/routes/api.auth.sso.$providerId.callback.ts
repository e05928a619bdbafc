import { getRequestContext } from '#app/context.ts'
import { completeProviderSignIn } from '#app/accounts/sso/flow.server.ts'
import type { Route } from './+types/api.auth.sso.$providerId.callback.ts'

/** The tenant provider's redirect back (decision 0069): checked, then the spec's rules, then signed in. */
export function loader({ request, context, params }: Route.LoaderArgs) {
	return completeProviderSignIn(getRequestContext(context), params.providerId, request)
}
