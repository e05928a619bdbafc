import type { Route } from './+types/learn.sign-in.error.ts'

const REASONS: Record<string, string> = {
	oauth_email_unverified: 'Your account with that provider has no verified email address. Verify it there, then try again.',
	oauth_email_missing: 'That provider did not share an email address with us, so we cannot sign you in with it.',
	oauth_tenant_unknown: 'External sign-in works only on a school or company learning site, not here.',
	oauth_tenant_suspended: 'This learning site is paused, so nobody can sign in right now.',
	oauth_account_deactivated: 'Your account on this site has been deactivated. Contact your administrator.',
	apex_account_wrong_host: 'This is a platform account. Sign in on the platform site instead.',
}

export function loader({ request }: Route.LoaderArgs) {
	const reason = new URL(request.url).searchParams.get('error') ?? ''
	return { reason: reason in REASONS ? reason : null }
}

export const meta: Route.MetaFunction = () => [{ title: 'Could not sign you in' }]

export default function SignInError({ loaderData }: Route.ComponentProps) {
	return (
		<section className="narrow">
			<h1>We could not sign you in</h1>
			<p className="notice notice-error" role="alert">
				{loaderData.reason ? REASONS[loaderData.reason] : 'Something went wrong while signing you in. Please try again.'}
			</p>
			<p>
				<a className="button" href="/learn/sign-in">
					Back to sign in
				</a>
			</p>
		</section>
	)
}
