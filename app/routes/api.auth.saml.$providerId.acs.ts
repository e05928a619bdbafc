import { redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { completeSamlSignIn } from '#app/accounts/sso/flow.server.ts'
import { readForm } from '#app/platform/forms.server.ts'
import type { Route } from './+types/api.auth.saml.$providerId.acs.ts'

// The IdP answers with a POST (HTTP-POST binding); a GET here is a link followed, and changes nothing.
export function loader() {
	return redirect('/learn/sign-in')
}

/** A tenant's SAML provider's assertion consumer service (decision 0077): checked, then signed in. */
export async function action({ request, context, params }: Route.ActionArgs) {
	return completeSamlSignIn(getRequestContext(context), params.providerId, await readForm(request))
}
