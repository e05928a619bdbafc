/** The friendly page for an expired, used or unknown link. */
export function TokenProblem({ reason, retryHref, retryLabel }: { reason: 'invalid' | 'expired' | 'used'; retryHref: string; retryLabel: string }) {
	const text = {
		expired: { title: 'This link has expired', body: 'Links we email work for a limited time. Ask for a new one.' },
		used: { title: 'This link was already used', body: 'Each link works only once. If that was not you, ask for a new one.' },
		invalid: { title: 'This link is not valid', body: 'Check that you opened the whole link from the email, or ask for a new one.' },
	}[reason]
	return (
		<section className="narrow">
			<h1>{text.title}</h1>
			<p>{text.body}</p>
			<p>
				<a className="button" href={retryHref}>
					{retryLabel}
				</a>
			</p>
		</section>
	)
}
