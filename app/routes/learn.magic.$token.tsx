import { redirect } from 'react-router'
import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { signInWithEmailedToken } from '#app/utils/auth.server.ts'
import { magicLinkEnabled } from '#app/utils/tenant-flags.server.ts'
import type { Route } from './+types/learn.magic.$token.ts'

// consumeMagicLinkAction
export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant || !magicLinkEnabled(ctx.tenant)) throw redirect('/learn/sign-in')
	const result = await signInWithEmailedToken(ctx, params.token, 'magic_link')
	if (result instanceof Response) throw result
	return result
}

export const meta: Route.MetaFunction = () => [{ title: 'Sign-in link' }]

export default function MagicToken({ loaderData }: Route.ComponentProps) {
	return <TokenProblem reason={loaderData.reason} retryHref="/learn/magic" retryLabel="Email me a new link" />
}
