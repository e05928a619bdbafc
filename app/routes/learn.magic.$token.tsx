import { redirect } from 'react-router'
import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { signInWithConsumedToken } from '#app/utils/auth.server.ts'
import { magicLinkEnabled } from '#app/utils/tenant-flags.server.ts'
import { consumeToken } from '#app/utils/tokens.server.ts'
import { findUserById, updateUser } from '#db/users.ts'
import type { Route } from './+types/learn.magic.$token.ts'

// consumeMagicLinkAction
export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant || !magicLinkEnabled(ctx.tenant)) throw redirect('/learn/sign-in')
	const check = await consumeToken(ctx.db, params.token, 'magic_link')
	if (!check.ok) return { reason: check.reason }
	const user = await findUserById(ctx.db, check.token.user_id)
	if (!user || user.tenant_id !== ctx.tenant.id) return { reason: 'invalid' as const }
	// Opening the emailed link proves the address.
	if (!user.email_verified_at) await updateUser(ctx.db, user.id, { email_verified_at: new Date() })
	const signedIn = await signInWithConsumedToken(ctx, user.id, check.token.id)
	if (signedIn) throw signedIn
	return { reason: 'invalid' as const }
}

export const meta: Route.MetaFunction = () => [{ title: 'Sign-in link' }, { name: 'referrer', content: 'same-origin' }]

export default function MagicToken({ loaderData }: Route.ComponentProps) {
	return <TokenProblem reason={loaderData.reason} retryHref="/learn/magic" retryLabel="Email me a new link" />
}
