import { redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { redirectWithSession } from '#app/accounts/auth.server.ts'
import {
	clearOAuthCookies,
	createStrategy,
	isProvider,
	readOAuthReturn,
	signInExternal,
} from '#app/accounts/oauth.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import type { Route } from './+types/api.auth.callback.$provider.ts'

function refuse(reason?: string) {
	const headers = new Headers()
	for (const value of clearOAuthCookies) headers.append('set-cookie', value)
	return redirect(`/learn/sign-in/error${reason ? `?error=${reason}` : ''}`, { headers })
}

/** The provider's redirect back: exchange the code, apply rules 4.1 to 4.5, sign in. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant) return refuse('oauth_tenant_unknown')
	if (ctx.tenant.status !== 'active') return refuse('oauth_tenant_suspended')
	const strategy = isProvider(params.provider) ? createStrategy(ctx, request, params.provider) : null
	if (!strategy) return refuse()

	let profile
	try {
		profile = await strategy.authenticate(request)
	} catch (error) {
		// A cancelled consent, a stale or forged state, or a provider failure: a generic refusal.
		log.warn('auth/oauth-failed', {
			provider: params.provider,
			error: error instanceof Response ? `status ${error.status}` : describeError(error),
		})
		return refuse()
	}

	const result = await signInExternal(ctx, profile)
	if ('reason' in result) return refuse(result.reason)
	const next = result.created ? '/learn/dashboard' : await readOAuthReturn(request)
	const response = await redirectWithSession(ctx, result.session, next)
	for (const value of clearOAuthCookies) response.headers.append('set-cookie', value)
	return response
}
