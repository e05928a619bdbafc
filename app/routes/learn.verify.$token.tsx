import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { signInWithEmailedToken } from '#app/utils/auth.server.ts'
import type { Route } from './+types/learn.verify.$token.ts'

export async function loader({ params, context }: Route.LoaderArgs) {
	const result = await signInWithEmailedToken(getRequestContext(context), params.token, 'email_verify')
	if (result instanceof Response) throw result
	return result
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.verify.title }]

export default function Verify({ loaderData }: Route.ComponentProps) {
	const { m } = useI18n()
	return <TokenProblem reason={loaderData.reason} retryHref="/learn/sign-in" retryLabel={m.accounts.goToSignIn} />
}
