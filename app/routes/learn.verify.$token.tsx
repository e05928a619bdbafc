import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { signInWithConsumedToken } from '#app/utils/auth.server.ts'
import { consumeToken } from '#app/utils/tokens.server.ts'
import { findUserById, updateUser } from '#db/users.ts'
import type { Route } from './+types/learn.verify.$token.ts'

export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const check = await consumeToken(ctx.db, params.token, 'email_verify')
	if (!check.ok) return { reason: check.reason }
	const user = await findUserById(ctx.db, check.token.user_id)
	if (!user || user.tenant_id !== (ctx.tenant?.id ?? null)) return { reason: 'invalid' as const }
	if (!user.email_verified_at) await updateUser(ctx.db, user.id, { email_verified_at: new Date() })
	const signedIn = await signInWithConsumedToken(ctx, user.id, check.token.id)
	if (signedIn) throw signedIn
	return { reason: 'invalid' as const }
}

export const meta: Route.MetaFunction = () => [{ title: 'Confirm your email' }, { name: 'referrer', content: 'same-origin' }]

export default function Verify({ loaderData }: Route.ComponentProps) {
	return <TokenProblem reason={loaderData.reason} retryHref="/learn/sign-in" retryLabel="Go to sign in" />
}
