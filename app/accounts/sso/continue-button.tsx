import { useI18n } from '#app/i18n/index.ts'

/**
 * "Continue with <label>": a native POST to the provider's start route (no GET changes state), its
 * answer a redirect to the provider. On the sign-in page and beside each "require single sign-on"
 * refusal (decision 0069).
 */
export function ContinueWithProvider({
	provider,
	callbackUrl,
}: {
	provider: { id: string; label: string }
	callbackUrl?: string | null
}) {
	const t = useI18n()
	return (
		<form method="post" action={`/api/auth/sso/${provider.id}`}>
			<input type="hidden" name="callbackUrl" value={callbackUrl ?? ''} />
			<button type="submit" className="button button-secondary">
				{t.format(t.m.accounts.signIn.continueWith, { provider: provider.label })}
			</button>
		</form>
	)
}

/** Why a password, a sign-in link or a reset was refused for this address, and the way in instead. */
export function SsoRequired({
	sso,
	callbackUrl,
}: {
	sso: { id: string; label: string; domain: string }
	callbackUrl?: string | null
}) {
	const t = useI18n()
	return (
		<div className="stack" role="alert">
			<p className="field-error">{t.format(t.m.accounts.sso.required, { domain: sso.domain, provider: sso.label })}</p>
			<ContinueWithProvider provider={sso} callbackUrl={callbackUrl} />
		</div>
	)
}
