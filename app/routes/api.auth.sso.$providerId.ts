import { redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { startProviderSignIn } from '#app/accounts/sso/flow.server.ts'
import { readForm } from '#app/platform/forms.server.ts'
import type { Route } from './+types/api.auth.sso.$providerId.ts'

// Starting a sign-in with a tenant's provider is a form post from the sign-in page: a GET changes nothing.
export function loader() {
	return redirect('/learn/sign-in')
}

/** Sends the browser to the tenant's provider (decision 0069), or to the sign-in error page. */
export async function action({ request, context, params }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const form = await readForm(request)
	return startProviderSignIn(ctx, params.providerId, form.get('callbackUrl'))
}
