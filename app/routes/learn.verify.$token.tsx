import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { signInWithEmailedToken } from '#app/utils/auth.server.ts'
import type { Route } from './+types/learn.verify.$token.ts'

export async function loader({ params, context }: Route.LoaderArgs) {
	const result = await signInWithEmailedToken(getRequestContext(context), params.token, 'email_verify')
	if (result instanceof Response) throw result
	return result
}

export const meta: Route.MetaFunction = () => [{ title: 'Confirm your email' }]

export default function Verify({ loaderData }: Route.ComponentProps) {
	return <TokenProblem reason={loaderData.reason} retryHref="/learn/sign-in" retryLabel="Go to sign in" />
}
