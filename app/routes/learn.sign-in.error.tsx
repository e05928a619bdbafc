import { metaI18n, useI18n } from '#app/i18n/index.ts'
import type { Route } from './+types/learn.sign-in.error.ts'
import { Notice } from '#app/ui/feedback.tsx'

// The reasons the external sign-in redirects with (?error=<reason>), as catalogue keys.
const REASONS: Record<string, string> = {
	oauth_email_unverified: 'accounts.signInError.emailUnverified',
	oauth_email_missing: 'accounts.signInError.emailMissing',
	oauth_tenant_unknown: 'accounts.signInError.tenantUnknown',
	oauth_tenant_suspended: 'accounts.signInError.tenantSuspended',
	oauth_account_deactivated: 'accounts.signInError.accountDeactivated',
	// A tenant's provider asserted an address in a domain another of its providers claims (decision 0069).
	sso_wrong_provider: 'accounts.signInError.ssoWrongProvider',
	apex_account_wrong_host: 'accounts.signIn.errors.apexAccountWrongHost',
}

export function loader({ request }: Route.LoaderArgs) {
	const reason = new URL(request.url).searchParams.get('error') ?? ''
	return { reason: Object.hasOwn(REASONS, reason) ? reason : null }
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.signInError.title }]

export default function SignInError({ loaderData }: Route.ComponentProps) {
	const t = useI18n()
	const text = t.m.accounts
	return (
		<section className="narrow">
			<h1>{text.signInError.heading}</h1>
			<Notice tone="error">{loaderData.reason ? t.text(REASONS[loaderData.reason]) : text.signInError.generic}</Notice>
			<p>
				<a className="button" href={t.href('/learn/sign-in')}>
					{text.backToSignIn}
				</a>
			</p>
		</section>
	)
}
