import { Notice } from '#app/components/feedback.tsx'
import { TokenProblem } from '#app/components/token-problem.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { roleLanding, safeCallbackUrl, signInWithEmailedToken } from '#app/utils/auth.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import type { Route } from './+types/learn.verify.$token.ts'

export async function loader({ params, context, request }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	// Where the learner was going when they signed up (a course), if it is a path of this site.
	const callbackUrl = safeCallbackUrl(new URL(request.url).searchParams.get('callbackUrl')) ?? undefined
	const result = await signInWithEmailedToken(ctx, params.token, 'email_verify', callbackUrl)
	if (result instanceof Response) throw result
	// A second click on a used link by the learner it confirmed (signed in, verified): nothing is wrong.
	const session = getSession(context)
	if (result.reason === 'used' && session?.user.email_verified_at)
		return { reason: 'confirmed' as const, continueHref: callbackUrl ?? roleLanding(session.claims) }
	return result
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.verify.title }]

export default function Verify({ loaderData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts.verify
	if (loaderData.reason === 'confirmed')
		return (
			<section className="narrow">
				<h1>{text.alreadyConfirmedTitle}</h1>
				<Notice tone="ok">{text.alreadyConfirmed}</Notice>
				<p>
					<a className="button" href={t.href(loaderData.continueHref)}>
						{text.continue}
					</a>
				</p>
			</section>
		)
	return <TokenProblem reason={loaderData.reason} retryHref="/learn/sign-in" retryLabel={t.m.accounts.goToSignIn} />
}
