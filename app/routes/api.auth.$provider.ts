import { readForm } from '#app/platform/forms.server.ts'
import { redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { safeCallbackUrl } from '#app/accounts/auth.server.ts'
import { createStrategy, enabledProviders, isProvider, oauthReturnCookie } from '#app/accounts/oauth.server.ts'
import type { Route } from './+types/api.auth.$provider.ts'

// Starting an external sign-in is a form post from the sign-in page's button.
export function loader() {
	return redirect('/learn/sign-in')
}

/** Sends the browser to the provider; remix-auth-oauth2 keeps state and PKCE verifier in a cookie. */
export async function action({ request, context, params }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const provider = params.provider
	if (!ctx.tenant) return redirect('/learn/sign-in/error?error=oauth_tenant_unknown')
	if (!isProvider(provider) || !enabledProviders(ctx).includes(provider)) return redirect('/learn/sign-in')
	const next = safeCallbackUrl((await readForm(request)).get('callbackUrl'))
	try {
		await createStrategy(ctx, request, provider)!.authenticate(request)
		throw new Error('the strategy did not redirect to the provider')
	} catch (thrown) {
		if (!(thrown instanceof Response)) throw thrown
		if (next) thrown.headers.append('set-cookie', await oauthReturnCookie.serialize(next))
		return thrown
	}
}
