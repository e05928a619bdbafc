import { redirect } from 'react-router'
import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { signInWithEmailedToken } from '#app/utils/auth.server.ts'
import { magicLinkEnabled } from '#app/utils/tenant-flags.server.ts'
import type { Route } from './+types/learn.magic.$token.ts'

// consumeMagicLinkAction
export async function loader({ params, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant || !magicLinkEnabled(ctx.tenant)) throw redirect(localePath(ctx.locale, '/learn/sign-in'))
	const result = await signInWithEmailedToken(ctx, params.token, 'magic_link')
	if (result instanceof Response) throw result
	return result
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.magicToken.title }]

export default function MagicToken({ loaderData }: Route.ComponentProps) {
	const { m } = useI18n()
	return <TokenProblem reason={loaderData.reason} retryHref="/learn/magic" retryLabel={m.accounts.magicToken.retry} />
}
